package trust

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/toolsearch/toolsearch/internal/atomicfile/atomicfiletest"
)

func TestDecide(t *testing.T) {
	ctx := context.Background()
	s := Open(filepath.Join(t.TempDir(), FileName), nil)
	// Before any listing: the first listing trusts, except under all.
	for _, tc := range []struct {
		mode Mode
		want Verdict
	}{
		{ModeOff, Verdict{}},
		{ModeChanged, Verdict{Trust: ByFirstListing}},
		{ModeNew, Verdict{Trust: ByFirstListing}},
		{ModeAll, Verdict{Held: true, Reason: ReasonUnapproved}},
	} {
		if got := s.Decide(tc.mode, "srv", "t", "d1", false); got != tc.want {
			t.Errorf("first listing, %s: got %+v, want %+v", tc.mode, got, tc.want)
		}
	}
	if err := s.Approve(ctx, "srv", "srv", []Item{{Entry: "t", Digest: "d1", By: ByFirstListing}, {Entry: "v", Digest: "d5", By: "cli"}}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name          string
		mode          Mode
		entry, digest string
		flagged       bool
		want          Verdict
	}{
		{"approved", ModeAll, "t", "d1", false, Verdict{}},
		{"trusted by the listing, but flagged", ModeChanged, "t", "d1", true, Verdict{Held: true, Reason: ReasonFlagged}},
		{"changed", ModeChanged, "t", "d2", false, Verdict{Held: true, Reason: ReasonChanged}},
		{"changed, off", ModeOff, "t", "d2", false, Verdict{}},
		{"flagged, off", ModeOff, "u", "d9", true, Verdict{Held: true, Reason: ReasonFlagged}},
		{"new tool, changed", ModeChanged, "u", "d9", false, Verdict{Trust: ByNewTool}},
		{"new tool, new", ModeNew, "u", "d9", false, Verdict{Held: true, Reason: ReasonNew}},
		{"new tool, all", ModeAll, "u", "d9", false, Verdict{Held: true, Reason: ReasonUnapproved}},
		{"flagged, approved by a person", ModeChanged, "v", "d5", true, Verdict{}},
	} {
		if got := s.Decide(tc.mode, "srv", tc.entry, tc.digest, tc.flagged); got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestSettled: a definition is settled by a person's approval whatever
// the scanner's version, and by a listing's only under the version that
// found it clean.
func TestSettled(t *testing.T) {
	s := Open("", nil)
	if err := s.Approve(context.Background(), "srv", "srv", []Item{
		{Entry: "t", Digest: "d1", By: ByFirstListing, Scanner: 1},
		{Entry: "u", Digest: "d2", By: "cli"},
		{Entry: "v", Digest: "d3", By: ByNewTool},
	}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		entry, digest string
		scanner       int
		want          bool
	}{
		{"t", "d1", 1, true},
		{"t", "d1", 2, false},
		{"t", "d9", 1, false},
		{"u", "d2", 2, true},
		{"v", "d3", 1, false},
		{"w", "d1", 1, false},
	} {
		if got := s.Settled("srv", tc.entry, tc.digest, tc.scanner); got != tc.want {
			t.Errorf("Settled(%s, %s, scanner %d) = %v, want %v", tc.entry, tc.digest, tc.scanner, got, tc.want)
		}
	}
}

// TestStorePersists: approvals survive a new Store on the same file, and
// are kept per source.
func TestStorePersists(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state", FileName)
	a := Open(file, nil)
	if err := a.Approve(context.Background(), "k1", "github", []Item{{Entry: "create_issue", Digest: "d1", By: "cli"}}); err != nil {
		t.Fatal(err)
	}
	b := Open(file, nil)
	if !b.Approved("k1", "create_issue", "d1") || b.Approved("k2", "create_issue", "d1") || !b.Known("k1") || b.Known("k2") {
		t.Fatal("approvals did not persist per source")
	}
	if got := b.Approvals("k1", "create_issue"); len(got) != 1 || got[0].By != "cli" || got[0].At.IsZero() {
		t.Fatalf("approvals = %+v", got)
	}
}

// TestStoreSharesStrings: what a listing recorded, read back from the
// file, shares one string for who approved it, and an approval looked up
// takes the caller's copy of its digest, so that the store keeps no copy
// of its own of either (for 100,000 tools, 1.6 and 8 MB).
func TestStoreSharesStrings(t *testing.T) {
	file := filepath.Join(t.TempDir(), FileName)
	items := []Item{{Entry: "a", Digest: "sha256:aa", By: ByFirstListing}, {Entry: "b", Digest: "sha256:bb", By: ByNewTool}}
	if err := Open(file, nil).Approve(context.Background(), "k", "srv", items); err != nil {
		t.Fatal(err)
	}
	s := Open(file, nil)
	for _, look := range []func(entry, digest string) bool{
		func(entry, digest string) bool { return s.Approved("k", entry, digest) },
		func(entry, digest string) bool { return s.Settled("k", entry, digest, 0) },
		func(entry, digest string) bool { return !s.Decide(ModeChanged, "k", entry, digest, false).Held },
	} {
		for _, it := range items {
			digest := strings.Clone(it.Digest)
			if !look(it.Entry, digest) {
				t.Fatalf("%s: not approved", it.Entry)
			}
			s.mu.Lock()
			a := s.d.Sources["k"].Entries[it.Entry][0]
			s.mu.Unlock()
			if unsafe.StringData(a.Digest) != unsafe.StringData(digest) {
				t.Errorf("%s: the store keeps its own copy of the digest looked up", it.Entry)
			}
			if unsafe.StringData(a.By) != unsafe.StringData(it.By) {
				t.Errorf("%s: approved by %q, a string of its own", it.Entry, a.By)
			}
		}
	}
}

// TestStoreReadInBackground: Open reads the file in the background, and
// whatever looks at the approvals, from any goroutine, sees them.
func TestStoreReadInBackground(t *testing.T) {
	file := filepath.Join(t.TempDir(), FileName)
	if err := Open(file, nil).Approve(context.Background(), "k", "github", []Item{{Entry: "t", Digest: "d", By: "cli"}}); err != nil {
		t.Fatal(err)
	}
	s := Open(file, nil)
	cancel := s.Subscribe(func() {}) // needs no approvals, so waits for none
	defer cancel()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if !s.Approved("k", "t", "d") || !s.Known("k") || s.Err() != nil {
				t.Error("an approval in the file was not seen right after Open")
			}
		})
	}
	wg.Wait()
}

// TestStoreBoundsApprovals keeps the newest digests of an entry.
func TestStoreBoundsApprovals(t *testing.T) {
	s := Open(filepath.Join(t.TempDir(), FileName), nil)
	for i := range maxApprovals + 5 {
		if err := s.Approve(context.Background(), "k", "k", []Item{{Entry: "t", Digest: fmt.Sprint("d", i), By: "cli"}}); err != nil {
			t.Fatal(err)
		}
	}
	if got := len(s.Approvals("k", "t")); got != maxApprovals {
		t.Fatalf("%d approvals kept, want %d", got, maxApprovals)
	}
	if s.Approved("k", "t", "d0") || !s.Approved("k", "t", fmt.Sprint("d", maxApprovals+4)) {
		t.Fatal("the oldest approvals must go first")
	}
}

// TestStoreUnreadableFailsClosed: a corrupt file holds everything but off,
// and is never overwritten.
func TestStoreUnreadableFailsClosed(t *testing.T) {
	file := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(file, []byte(`{"version": 1, "sources": [`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := Open(file, nil)
	if s.Err() == nil {
		t.Fatal("a corrupt file must be reported")
	}
	if v := s.Decide(ModeChanged, "k", "t", "d", false); !v.Held || v.Reason != ReasonUnreadable {
		t.Fatalf("got %+v, want held as unreadable", v)
	}
	if err := s.Approve(context.Background(), "k", "k", []Item{{Entry: "t", Digest: "d", By: "cli"}}); err == nil {
		t.Fatal("approving over a corrupt file must fail")
	}
	if data, _ := os.ReadFile(file); string(data) != `{"version": 1, "sources": [` {
		t.Fatal("the corrupt file was overwritten")
	}
}

// A source written as null (by hand) is read as known, with no approvals;
// it used to crash the start.
func TestStoreNullSource(t *testing.T) {
	file := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(file, []byte(`{"version":1,"sources":{"k":null}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := Open(file, nil)
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if !s.Known("k") || s.Approved("k", "t", "d") {
		t.Errorf("known %v, approved %v", s.Known("k"), s.Approved("k", "t", "d"))
	}
}

// TestStoreConcurrentApprovals: two stores on one file (a server and the
// CLI) approving at once lose nothing.
func TestStoreConcurrentApprovals(t *testing.T) {
	file := filepath.Join(t.TempDir(), FileName)
	stores := []*Store{Open(file, nil), Open(file, nil)}
	var wg sync.WaitGroup
	const each = 25
	for i, s := range stores {
		for j := range each {
			wg.Go(func() {
				item := Item{Entry: fmt.Sprintf("tool%d_%d", i, j), Digest: "d", By: "cli"}
				if err := s.Approve(context.Background(), "k", "k", []Item{item}); err != nil {
					t.Error(err)
				}
			})
		}
	}
	wg.Wait()
	check := Open(file, nil)
	for i := range stores {
		for j := range each {
			if !check.Approved("k", fmt.Sprintf("tool%d_%d", i, j), "d") {
				t.Errorf("approval %d/%d was lost", i, j)
			}
		}
	}
}

// TestStoreConcurrentProcesses: approvals written by other processes at the
// same time as this one's all land. The test binary runs itself as the
// other processes.
func TestStoreConcurrentProcesses(t *testing.T) {
	if file := os.Getenv("TRUST_TEST_APPROVE"); file != "" {
		s := Open(file, nil)
		for j := range 20 {
			if err := s.Approve(context.Background(), "k", "k", []Item{{Entry: os.Getenv("TRUST_TEST_PREFIX") + strconv.Itoa(j), Digest: "d", By: "cli"}}); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		os.Exit(0)
	}
	// Also run under Wine (.ci/run), where it found Windows refusing to
	// replace the file while another process read it.
	file := filepath.Join(atomicfiletest.TempDir(t), FileName)
	var cmds []*exec.Cmd
	for i := range 3 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestStoreConcurrentProcesses$")
		cmd.Env = append(os.Environ(), "TRUST_TEST_APPROVE="+file, fmt.Sprintf("TRUST_TEST_PREFIX=p%d_", i))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	local := Open(file, nil)
	for j := range 20 {
		if err := local.Approve(context.Background(), "k", "k", []Item{{Entry: "local" + strconv.Itoa(j), Digest: "d", By: "cli"}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	check := Open(file, nil)
	for _, prefix := range []string{"p0_", "p1_", "p2_", "local"} {
		for j := range 20 {
			if !check.Approved("k", prefix+strconv.Itoa(j), "d") {
				t.Errorf("approval %s%d was lost", prefix, j)
			}
		}
	}
}

// TestStoreWatch: a running store hears of approvals another writes.
func TestStoreWatch(t *testing.T) {
	file := filepath.Join(t.TempDir(), FileName)
	server := Open(file, nil)
	changed := make(chan struct{}, 10)
	server.Subscribe(func() { changed <- struct{}{} })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go server.Watch(ctx)
	cli := Open(file, nil)
	deadline := time.After(10 * time.Second)
	for !server.Approved("k", "t", "d") {
		// The watch may start after the write: write until it is heard.
		if err := cli.Approve(context.Background(), "k", "k", []Item{{Entry: "t", Digest: "d", By: "cli"}}); err != nil {
			t.Fatal(err)
		}
		select {
		case <-changed:
		case <-time.After(200 * time.Millisecond):
		case <-deadline:
			t.Fatal("the running store never saw the approval")
		}
	}
}

// TestStoreInMemory: without a file, approvals live in the process.
func TestStoreInMemory(t *testing.T) {
	s := Open("", nil)
	if err := s.Approve(context.Background(), "k", "k", []Item{{Entry: "t", Digest: "d", By: "cli"}}); err != nil {
		t.Fatal(err)
	}
	if !s.Approved("k", "t", "d") {
		t.Fatal("in-memory approval lost")
	}
}

// Another process's write replaces the file; one of the same size within
// the file system's time granularity (the same modification time) is a new
// version all the same, and is read.
func TestStoreNoticesSameSizeReplace(t *testing.T) {
	ctx := context.Background()
	dir := atomicfiletest.TempDir(t) // also run under Wine (.ci/run), where it found Windows' lazy file IDs
	file := filepath.Join(dir, FileName)
	s := Open(file, nil)
	if err := s.Approve(ctx, "srv", "srv", []Item{{Entry: "t", Digest: "d1", By: "cli"}}); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	// What another process writes: the same file but for the digest.
	mine, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	data := bytes.Replace(mine, []byte(`"d1"`), []byte(`"d2"`), 1)
	replacement := filepath.Join(dir, "replacement")
	if err := os.WriteFile(replacement, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(replacement, before.ModTime(), before.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(replacement, file); err != nil {
		t.Fatal(err)
	}
	if !s.reload(false) || !s.Approved("srv", "t", "d2") {
		t.Error("a replaced file of the same size and time was not read again")
	}
}

// TestStoreReloadOwnWrite: reading the file back after the store's own
// write (which Watch does on the change event) decodes nothing, while a
// file another process rewrote to the same size and time is read again.
// A large server's first listing writes tens of MB of approvals, and
// decoding them back, then comparing both copies encoded, made the peak
// of a start.
func TestStoreReloadOwnWrite(t *testing.T) {
	file := filepath.Join(t.TempDir(), FileName)
	s := Open(file, nil)
	if err := s.Approve(context.Background(), "k", "k", []Item{{Entry: "t1", Digest: "d1", By: "cli"}}); err != nil {
		t.Fatal(err)
	}
	held := s.d
	if s.reload(true) || s.d != held {
		t.Fatal("the store's own write was read back as a change")
	}
	info, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	content, _ := os.ReadFile(file)
	other := []byte(strings.Replace(string(content), `"d1"`, `"d2"`, 1))
	if err := os.WriteFile(file, other, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(file, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	if !s.reload(true) || !s.Approved("k", "t1", "d2") || s.Approved("k", "t1", "d1") {
		t.Fatal("a rewrite of the same size and time was not read")
	}
}

// A change event for the store's own write is told apart by the file's sum alone, taken as
// it is read: reading a large server's approvals whole for it held tens of MB at the peak of
// a first listing.
func TestStoreOwnWriteReadsNoCopy(t *testing.T) {
	file := filepath.Join(t.TempDir(), FileName)
	s := Open(file, nil)
	var items []Item
	for i := range 20_000 {
		items = append(items, Item{Entry: fmt.Sprintf("tool_%05d", i), Digest: fmt.Sprintf("sha256:%064x", i), By: ByFirstListing})
	}
	if err := s.Approve(context.Background(), "k", "k", items); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	changed := s.reload(true)
	runtime.ReadMemStats(&after)
	if changed {
		t.Fatal("the store's own write was read back as a change")
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > uint64(info.Size())/4 {
		t.Errorf("telling its own write of %d bytes apart allocated %d bytes", info.Size(), n)
	}
}

// TestSameData compares contents by what they hold.
func TestSameData(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	mk := func(mod func(*Approval), name string) *data {
		a := Approval{Digest: "d", At: at, By: "cli", Scanner: 1}
		if mod != nil {
			mod(&a)
		}
		return &data{Version: storeVersion, Sources: map[string]*record{"k": {Name: name, Entries: map[string][]Approval{"t": {a}}}}}
	}
	base := mk(nil, "n")
	if !sameData(base, mk(nil, "n")) {
		t.Error("equal contents compare different")
	}
	for i, other := range []*data{
		mk(nil, "m"),
		mk(func(a *Approval) { a.Digest = "e" }, "n"),
		mk(func(a *Approval) { a.At = at.Add(time.Second) }, "n"),
		mk(func(a *Approval) { a.By = "http" }, "n"),
		mk(func(a *Approval) { a.Scanner = 2 }, "n"),
		emptyData(),
	} {
		if sameData(base, other) {
			t.Errorf("%d: different contents compare equal", i)
		}
	}
}

// TestEncodeAsMarshalIndent: the file is written an entry at a time, byte
// for byte as json.MarshalIndent wrote it whole.
func TestEncodeAsMarshalIndent(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	for i, d := range []*data{
		emptyData(),
		{Version: 1},
		{Version: 1, Sources: map[string]*record{"k": nil, "e": {Name: "e"}, "f": {Name: "f", Entries: map[string][]Approval{}}}},
		{Version: 1, Sources: map[string]*record{
			"b<&>": {Name: "srv \"q\" <x>", Entries: map[string][]Approval{
				"t2":      {{Digest: "d1", At: at, By: ByFirstListing, Scanner: 1}, {Digest: "d2", At: at, By: "cli"}},
				"t\u2028": {{Digest: "d3", At: at.Add(time.Hour), By: ByNewTool}},
				"t0":      nil,
			}},
			"a": {Name: "a", Entries: map[string][]Approval{"x": {{Digest: "d", At: at, By: "http"}}}},
		}},
	} {
		want, err := json.MarshalIndent(d, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		w := bufio.NewWriter(&b)
		if err := encode(w, d); err != nil {
			t.Fatal(err)
		}
		w.Flush()
		if got := b.String(); got != string(want)+"\n" {
			t.Errorf("%d: got\n%s\nwant\n%s", i, got, want)
		}
	}
}
