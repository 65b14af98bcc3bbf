package oauth

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStoreListsOnlyFilesThatNameTheirPrincipal: the files list a person's
// grant by the principal it names, where that principal's key puts it; a
// file written before grants named their principal, or one copied under
// another name, is not listed; one that names its principal but does not
// decode is, with why.
func TestStoreListsOnlyFilesThatNameTheirPrincipal(t *testing.T) {
	ctx := context.Background()
	s := testStore(t)
	alice := GrantKey{Principal: "alice", Server: "remote", Resource: resource}
	bob := GrantKey{Principal: "bob", Server: "remote", Resource: resource}
	for _, k := range []GrantKey{alice, bob, {Server: "remote", Resource: resource}} {
		if _, err := s.SaveGrant(ctx, k, expiring("http://127.0.0.1:9/token")); err != nil {
			t.Fatal(err)
		}
	}
	// bob's file as an earlier version wrote it: no principal in it.
	data, _ := os.ReadFile(s.path(bob))
	if err := os.WriteFile(s.path(bob), []byte(strings.Replace(string(data), `"principal": "bob",`, "", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if g, _, err := s.LoadGrant(ctx, bob); g == nil || err != nil {
		t.Fatalf("bob's file without a principal no longer reads: %v", err)
	}
	// alice's file copied where carol's would be: not carol's.
	carol := GrantKey{Principal: "carol", Server: "remote", Resource: resource}
	data, _ = os.ReadFile(s.path(alice))
	if err := os.WriteFile(filepath.Join(s.dir, "remote-0000000000000000.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	if g, _, _ := s.LoadGrant(ctx, carol); g != nil {
		t.Fatal("carol has a grant")
	}
	// dave's file, damaged.
	dave := GrantKey{Principal: "dave", Server: "remote", Resource: resource}
	if err := os.WriteFile(s.path(dave), []byte(`{"principal":"dave","server":"remote","resource":"`+resource+`","version":1,"token":7}`), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := s.PrincipalGrants(ctx, "remote", resource)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, sg := range got {
		seen[sg.Key.Principal] = sg.Grant != nil
		if sg.Key.Principal == "dave" && sg.Err == nil {
			t.Error("dave's damaged file listed without an error")
		}
	}
	if len(seen) != 2 || !seen["alice"] || seen["dave"] {
		t.Errorf("listed %v; want alice's (read) and dave's (not read) alone", seen)
	}
	if got, err := testStore(t).PrincipalGrants(ctx, "remote", resource); got != nil || err != nil {
		t.Errorf("a store never written lists %v, %v; want none", got, err)
	}
}
