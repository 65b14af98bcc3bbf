//go:build unix

package hosts

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestImportBoundsAStream: a file whose size says nothing (a pipe, a
// device) is read only up to MaxConfigSize.
func TestImportBoundsAStream(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "mcp.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipe: %v", err)
	}
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer w.Close()
		chunk := bytes.Repeat([]byte(" "), 1<<20)
		for written := 0; written <= MaxConfigSize; written += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return // the reader stopped, as it should
			}
		}
	}()
	_, err := Import("cursor", Options{File: fifo})
	if err == nil || !strings.Contains(err.Error(), "read for import") {
		t.Fatalf("error %v, want one saying the file is over the bound", err)
	}
}
