package profile

import (
	"sync"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// Follow returns a catalog holding the profile's part of main, and keeps it
// in step with main until stop is called. Only the sources that changed in
// main are narrowed again. reserved are the names no source may take, as
// for main.
func Follow(main *catalog.Catalog, p *Profile, reserved ...string) (view *catalog.Catalog, stop func()) {
	view = catalog.New(reserved...)
	f := &follower{p: p, view: view, put: map[string]*catalog.Source{}}
	// Changes are applied under f.mu in the order main makes them; the
	// first sync and the subscription overlap, and the version check keeps
	// a late first sync from undoing a newer change.
	f.mu.Lock()
	cancel := main.Subscribe(func(_, snap *catalog.Snapshot) { f.sync(snap) })
	snap := main.Snapshot()
	f.mu.Unlock()
	f.sync(snap)
	return view, cancel
}

type follower struct {
	p    *Profile
	view *catalog.Catalog

	mu      sync.Mutex
	version uint64
	synced  bool
	put     map[string]*catalog.Source // main's source each view source was made from
}

// sync brings the view to main's snapshot.
func (f *follower) sync(snap *catalog.Snapshot) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.synced && snap.Version <= f.version {
		return
	}
	f.synced, f.version = true, snap.Version
	present := map[string]bool{}
	for _, src := range snap.Sources {
		present[src.Name] = true
		if f.put[src.Name] == src {
			continue
		}
		f.put[src.Name] = src
		if n := f.narrow(src); n != nil {
			f.view.Put(n)
		} else {
			f.view.Remove(src.Name)
		}
	}
	for name := range f.put {
		if !present[name] {
			delete(f.put, name)
			f.view.Remove(name)
		}
	}
}

// narrow is a source as the profile sees it: its entries and refusals
// filtered, its state and problems as they are; nil when the profile
// leaves the whole source out, so that its sessions do not even learn that
// it exists (search notes name servers that are not active).
func (f *follower) narrow(src *catalog.Source) *catalog.Source {
	if !f.p.admitsSource(src) {
		return nil
	}
	out := *src
	out.Entries = nil
	for _, e := range src.Entries {
		if n := f.p.Apply(e); n != nil {
			out.Entries = append(out.Entries, n)
		}
	}
	if len(out.Entries) == 0 && len(src.Entries) > 0 {
		return nil // the profile wants none of its entries
	}
	out.Refused = nil
	for _, r := range src.Refused {
		if f.p.Admits(r.Entry) {
			out.Refused = append(out.Refused, r)
		}
	}
	return &out
}
