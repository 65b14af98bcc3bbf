package trust

import "context"

// Watch follows the backend until ctx ends, so that approvals another
// process writes (`toolsearch approve` beside a running server, another
// replica's status page) take effect at once; subscribers hear of each
// change. While one Watch runs, another returns at once.
func (s *Store) Watch(ctx context.Context) {
	if s.backend == nil || !s.watching.CompareAndSwap(false, true) {
		return
	}
	defer s.watching.Store(false)
	s.backend.Watch(ctx, func(force bool) {
		if s.reload(force) {
			s.notify()
		}
	})
}
