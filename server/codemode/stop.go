package codemode

import (
	"fmt"
	"sync"
)

// Stop names the bound that stopped a script.
type Stop string

// The bounds that stop a script, and the other ways it ends early.
const (
	StopSteps     Stop = "steps"     // Limits.MaxSteps
	StopTime      Stop = "time"      // Limits.Timeout
	StopCalls     Stop = "calls"     // Limits.MaxCalls
	StopResult    Stop = "result"    // Limits.MaxResultBytes
	StopValue     Stop = "value"     // Limits.MaxValueBytes
	StopMemory    Stop = "memory"    // Limits.MaxMemoryBytes
	StopOutput    Stop = "output"    // Limits.MaxOutputBytes
	StopCancelled Stop = "cancelled" // the client cancelled the request
	StopCall      Stop = "call"      // a call failed, and the script did not ask for errors as values
	StopError     Stop = "error"     // the script failed: a syntax or run-time error, fail()
)

// stopper records the first reason a script was stopped for.
type stopper struct {
	mu     sync.Mutex
	reason Stop
	cancel func(string) // Thread.Cancel
}

// stop records why, if nothing has been recorded yet, and cancels the
// thread.
func (s *stopper) stop(why Stop) {
	s.mu.Lock()
	first := s.reason == ""
	if first {
		s.reason = why
	}
	cancel := s.cancel
	s.mu.Unlock()
	if first && cancel != nil {
		cancel(string(why))
	}
}

func (s *stopper) why() Stop {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reason
}

// boundMessage says which bound stopped the script, and how to do the
// work within it.
func boundMessage(why Stop, l Limits, r *Result) string {
	switch why {
	case StopSteps:
		return fmt.Sprintf("the script ran more than %d steps (codeMode.maxSteps): loop over less, or split the work into several scripts", l.MaxSteps)
	case StopTime:
		return fmt.Sprintf("the script ran longer than %v (codeMode.timeout): make fewer calls, or split the work into several scripts", l.Timeout)
	case StopCalls:
		return fmt.Sprintf("the script made more than %d calls (codeMode.maxCalls): split the work into several scripts", l.MaxCalls)
	case StopMemory:
		return fmt.Sprintf("the script grew the heap by more than %d bytes (codeMode.maxMemoryBytes): keep less in memory at once", l.MaxMemoryBytes)
	case StopOutput:
		return fmt.Sprintf("the script printed more than %d bytes (codeMode.maxOutputBytes): print only what answers the question", l.MaxOutputBytes)
	case StopCancelled:
		return "the request was cancelled, and the script and its calls with it"
	}
	return ""
}
