package trust

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
)

// downBackend serves one read, then is unreachable.
type downBackend struct {
	d     *Data
	reads atomic.Int32
}

func (b *downBackend) Read(context.Context, bool) (*Data, error) {
	if b.reads.Add(1) == 1 {
		return b.d, nil
	}
	return nil, fmt.Errorf("dial: connection refused: %w", ErrUnavailable)
}

func (b *downBackend) Update(context.Context, func(*Data) bool) (*Data, bool, error) {
	return nil, false, fmt.Errorf("dial: connection refused: %w", ErrUnavailable)
}

func (b *downBackend) Watch(context.Context, func(bool)) {}
func (b *downBackend) String() string                    { return "down" }

// TestBackendDownKeepsDeciding: a backend that cannot be reached (a
// database that is down) leaves the approvals held in force, where a file
// that cannot be read holds everything.
func TestBackendDownKeepsDeciding(t *testing.T) {
	d := NewData()
	d.Sources["srv"] = &Record{Name: "srv", Entries: map[string][]Approval{"tool": {{Digest: "d1", By: ByFirstListing}}}}
	s := OpenBackend(&downBackend{d: d}, nil)
	<-s.Loaded()
	s.reload(true) // the backend is down now
	if s.Down() == nil || s.Err() != nil {
		t.Fatalf("Down %v, Err %v; want down, and no error that holds everything", s.Down(), s.Err())
	}
	if v := s.Decide(ModeChanged, "srv", "tool", "d1", false); v.Held {
		t.Errorf("approved definition while down: %+v", v)
	}
	if v := s.Decide(ModeChanged, "srv", "other", "d9", false); v.Trust != ByNewTool {
		t.Errorf("a new tool of a known server while down: %+v, want trusted as new (not as a first listing)", v)
	}
	if err := s.Approve(context.Background(), "srv", "srv", []Item{{Entry: "tool", Digest: "d2", By: "cli"}}); !errors.Is(err, ErrUnavailable) {
		t.Errorf("Approve while down: %v, want ErrUnavailable", err)
	}
}
