package trust

import (
	"context"
	"maps"
	"slices"
	"time"
)

// Adopt moves the approvals a source has under older keys (those old
// accepts, of records named name) to key, once: when key has a record
// already, or no older record exists, nothing changes. It is how approvals
// keyed the way an older toolsearch keyed them follow a change of keys.
//
// Every approval a person gave is kept. What listings trusted on their
// own (ByFirstListing, ByNewTool) is kept from the oldest record only:
// under the older keys a new folder or a changed command made a listing
// count as a first one, which trusted whatever the server served then,
// and those trusts are exactly what must not carry over.
func (s *Store) Adopt(ctx context.Context, key, name string, old func(key string) bool) error {
	if !s.adoptable(key, name, old) {
		return nil
	}
	return s.write(ctx, func(d *data) bool {
		if d.Sources[key] != nil {
			return false
		}
		var keys []string
		for k, r := range d.Sources {
			if k != key && r != nil && r.Name == name && old(k) {
				keys = append(keys, k)
			}
		}
		if len(keys) == 0 {
			return false
		}
		// Oldest record first: the one whose earliest approval is oldest.
		slices.SortFunc(keys, func(a, b string) int {
			return d.Sources[a].since().Compare(d.Sources[b].since())
		})
		merged := &record{Name: name, Entries: map[string][]Approval{}}
		for i, k := range keys {
			for entry, list := range d.Sources[k].Entries {
				for _, a := range list {
					if i > 0 && !byPerson(a) {
						continue
					}
					have := merged.Entries[entry]
					if !slices.ContainsFunc(have, func(b Approval) bool { return b.Digest == a.Digest }) {
						merged.Entries[entry] = append(have, a)
					}
				}
			}
			delete(d.Sources, k)
		}
		for entry, list := range merged.Entries {
			slices.SortStableFunc(list, func(a, b Approval) int { return a.At.Compare(b.At) })
			if len(list) > maxApprovals {
				list = slices.Delete(list, 0, len(list)-maxApprovals)
			}
			merged.Entries[entry] = list
		}
		d.Sources[key] = merged
		return true
	})
}

// adoptable reports, from what the store holds now, whether Adopt has
// anything to do, so that most starts take no lock.
func (s *Store) adoptable(key, name string, old func(string) bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.d.Sources[key] != nil {
		return false
	}
	for k, r := range s.d.Sources {
		if k != key && r != nil && r.Name == name && old(k) {
			return true
		}
	}
	return false
}

// since is when the record's earliest approval was given.
func (r *record) since() (t time.Time) {
	for _, list := range r.Entries {
		for _, a := range list {
			if t.IsZero() || a.At.Before(t) {
				t = a.At
			}
		}
	}
	return t
}

// Forget removes every approval of a source, and the record that it was
// ever listed, so that its next listing counts as its first: the
// operator's fresh start (`toolsearch trust reset`). It reports whether
// there was anything to forget.
func (s *Store) Forget(ctx context.Context, key string) (bool, error) {
	forgot := false
	err := s.write(ctx, func(d *data) bool {
		_, forgot = d.Sources[key]
		delete(d.Sources, key)
		return forgot
	})
	return forgot, err
}

// Keys returns the keys of the sources the store holds, sorted.
func (s *Store) Keys() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Sorted(maps.Keys(s.d.Sources))
}
