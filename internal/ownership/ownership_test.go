package ownership

import (
	"context"
	"strings"
	"testing"

	"github.com/toolsearch/toolsearch/internal/principal"
)

func TestOpenReadsOnlyWhatWasIssuedToTheCaller(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	a, b := New(key, "replica-a"), New(key, "replica-b")
	sealed := a.Seal(Session, "alice", "SESSION1")
	tamper := func(i int) string {
		c := []byte(sealed)
		c[i] ^= 1
		return string(c)
	}
	tests := []struct {
		name      string
		opener    *Sealer
		kind      Kind
		principal string
		value     string
		wantOwner string
		forged    bool
	}{
		{"its owner reads it", a, Session, "alice", sealed, "replica-a", false},
		{"another replica reads its owner", b, Session, "alice", sealed, "replica-a", false},
		{"another caller's", b, Session, "bob", sealed, "", true},
		{"another kind's", a, RequestState, "alice", sealed, "", true},
		{"another cluster's key", New([]byte("another key of thirty-two bytes!"), "replica-a"), Session, "alice", sealed, "", true},
		{"a changed owner", a, Session, "alice", tamper(1), "", true},
		{"a changed value", a, Session, "alice", strings.Replace(sealed, "SESSION1", "SESSION2", 1), "", true},
		{"a bare id, as a replica without shared state issues", a, Session, "alice", "SESSION1", "", true},
		{"empty", a, Session, "alice", "", "", true},
		{"dots only", a, Session, "alice", "..", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			owner, value, err := tt.opener.Open(tt.kind, tt.principal, tt.value)
			if tt.forged {
				if err != ErrForged {
					t.Fatalf("Open = %q, %q, %v; want ErrForged", owner, value, err)
				}
				return
			}
			if err != nil || owner != tt.wantOwner || value != "SESSION1" {
				t.Fatalf("Open = %q, %q, %v; want %q, SESSION1", owner, value, err, tt.wantOwner)
			}
		})
	}
}

func TestNewStateIsSealedForThePrincipalOfItsRequest(t *testing.T) {
	if s := NewState(context.Background()); strings.Contains(s, ".") {
		t.Errorf("without a Sealer the state is %q, want a bare random one", s)
	}
	s := New([]byte("0123456789abcdef0123456789abcdef"), "r1")
	ctx := principal.With(With(context.Background(), s), "alice")
	state := NewState(ctx)
	if owner, _, err := s.Open(RequestState, "alice", state); err != nil || owner != "r1" {
		t.Errorf("Open(%q) for alice = %q, %v", state, owner, err)
	}
	if _, _, err := s.Open(RequestState, "bob", state); err != ErrForged {
		t.Errorf("Open(%q) for bob = %v, want ErrForged", state, err)
	}
}
