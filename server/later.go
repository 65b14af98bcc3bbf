package server

// Token counting runs off the request path: a tokenizer pass over a large
// result costs a few hundred microseconds, which every request would
// otherwise wait for. One worker takes the jobs in order, so that the trace
// keeps the order of requests and a flush sees every earlier count.

// later queues job for the counting worker. After Close, jobs are dropped.
func (s *Server) later(job func()) {
	select {
	case s.jobs <- job:
	case <-s.done:
	}
}

// flushCounts waits until every job queued before it has run.
func (s *Server) flushCounts() {
	ran := make(chan struct{})
	s.later(func() { close(ran) })
	select {
	case <-ran:
	case <-s.done:
	}
}

// countWorker runs the queued jobs until Close.
func (s *Server) countWorker() {
	for {
		select {
		case job := <-s.jobs:
			job()
		case <-s.done:
			return
		}
	}
}
