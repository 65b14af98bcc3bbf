package runner

import (
	"fmt"
	"strings"
	"time"
)

// A Result describes a script that ran. A script that failed (see
// [Result.Failed]) still has a Result; only refusals are errors.
type Result struct {
	// Stdout is the script's standard output, cut to Options.OutputLimit
	// bytes; when cut, it ends with a line saying how much was left out.
	// Invalid UTF-8 in it is replaced with U+FFFD.
	Stdout string
	// Stderr is the tail of the script's standard error (the last
	// Options.StderrTail bytes, after "…" if cut), kept only when the
	// script failed: it is there to explain the failure.
	Stderr string
	// ExitCode is the script's exit status, or -1 if a signal killed it.
	ExitCode int
	// Signal names the signal that killed the script, such as "SIGKILL".
	Signal string
	// Duration is the wall time from start until the script's processes
	// were gone and its output read.
	Duration time.Duration
	// Timeout is the time limit that applied, after defaults and clamping.
	Timeout time.Duration
	// StdoutBytes counts all the bytes the script wrote to stdout, kept
	// or not.
	StdoutBytes int64
	// Truncated reports that stdout was cut at the limit.
	Truncated bool
	// TimedOut reports that the script ran out of time and was stopped.
	TimedOut bool
	// Cancelled reports that the caller's context ended the script.
	Cancelled bool
	// InvalidUTF8 reports that stdout was not valid UTF-8 and had bytes
	// replaced.
	InvalidUTF8 bool
}

// Failed reports whether the script did not succeed: it exited non-zero,
// was killed by a signal, ran out of time, or was cancelled.
func (r *Result) Failed() bool {
	return r.ExitCode != 0 || r.Signal != "" || r.TimedOut || r.Cancelled
}

// Text renders the result as the model should see it: stdout, then, if the
// script failed, a status line and the tail of stderr. The server and the
// command line both show this, so that they agree.
func (r *Result) Text() string {
	var b strings.Builder
	b.WriteString(r.Stdout)
	note := func(format string, args ...any) {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, format, args...)
		b.WriteByte('\n')
	}
	if r.InvalidUTF8 {
		note("[the output was not valid UTF-8: invalid bytes were replaced with U+FFFD]")
	}
	if !r.Failed() {
		if r.StdoutBytes == 0 {
			note("[the script succeeded and printed nothing]")
		}
		return b.String()
	}
	note("[script failed: %s]", r.status())
	if r.Stderr != "" {
		note("[stderr]")
		b.WriteString(r.Stderr)
		if !strings.HasSuffix(r.Stderr, "\n") {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// status says in a few words how the script ended.
func (r *Result) status() string {
	var s string
	switch {
	case r.TimedOut:
		s = fmt.Sprintf("timed out after %v and was stopped", r.Timeout)
	case r.Cancelled:
		s = "cancelled and stopped"
	case r.Signal != "":
		return "killed by " + r.Signal
	default:
		return fmt.Sprintf("exit code %d", r.ExitCode)
	}
	if r.Signal != "" {
		return s + " (" + r.Signal + ")"
	}
	return s + fmt.Sprintf(" (exit code %d)", r.ExitCode)
}
