package upstream

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
)

const (
	// tailSize is how much of an upstream's stderr is kept for LastError:
	// enough for a stack trace's top or a few log lines.
	tailSize = 2 << 10
	// maxLogLine caps the line buffer, so that output without newlines is
	// still logged and memory stays bounded.
	maxLogLine = 8 << 10
)

// A stderrTail takes an upstream process's stderr: it logs every line and
// keeps the last tailSize bytes. As cmd.Stderr it is drained by os/exec,
// so a chatty server never blocks on a full pipe.
type stderrTail struct {
	log *slog.Logger

	mu   sync.Mutex
	tail []byte
	line []byte
}

func newStderrTail(log *slog.Logger) *stderrTail { return &stderrTail{log: log} }

func (w *stderrTail) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.tail = append(w.tail, p...)
	if len(w.tail) > 2*tailSize { // trim in batches, not on every write
		w.tail = append(w.tail[:0], w.tail[len(w.tail)-tailSize:]...)
	}
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.line = append(w.line, p...)
			if len(w.line) >= maxLogLine {
				w.flush()
			}
			break
		}
		w.line = append(w.line, p[:i]...)
		w.flush()
		p = p[i+1:]
	}
	return n, nil
}

func (w *stderrTail) flush() {
	line := strings.TrimRight(string(w.line), "\r")
	w.line = w.line[:0]
	if strings.TrimSpace(line) != "" {
		w.log.Info("stderr", "line", line)
	}
}

// String returns the kept tail, starting at a line boundary when there is
// one, as valid UTF-8.
func (w *stderrTail) String() string {
	if w == nil {
		return ""
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	tail := w.tail
	if len(tail) > tailSize {
		tail = tail[len(tail)-tailSize:]
		if i := bytes.IndexByte(tail, '\n'); i >= 0 && i < len(tail)-1 {
			tail = tail[i+1:]
		}
	}
	return strings.TrimSpace(strings.ToValidUTF8(string(tail), "\uFFFD"))
}
