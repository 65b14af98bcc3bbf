package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/toolsearch/toolsearch/internal/atomicfile/atomicfiletest"
)

// heldOpen writes a file holding "old" and opens it as another program
// would, without sharing it for deletion (os.Open's way: toolsearch's own
// readers too, in this process or another).
func heldOpen(t *testing.T) (file string, f *os.File) {
	t.Helper()
	file = filepath.Join(atomicfiletest.TempDir(t), "approvals.json")
	if err := os.WriteFile(file, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	return file, f
}

// A file that another program holds open is replaced once that program
// lets go of it.
func TestWriteWaitsForHolder(t *testing.T) {
	file, f := heldOpen(t)
	released := make(chan struct{})
	go func() {
		time.Sleep(renameRetry / 10)
		f.Close()
		close(released)
	}()
	err := WriteFile(file, []byte("new"))
	<-released
	if err != nil {
		t.Fatalf("replacing a file another program held open for a moment: %v", err)
	}
	if got, err := ReadFile(file, MaxConfig); err != nil || string(got) != "new" {
		t.Fatalf("file holds %q, %v; want \"new\"", got, err)
	}
}

// A holder that never lets go fails the write, after renameRetry, and the
// file keeps its content.
func TestWriteGivesUp(t *testing.T) {
	file, f := heldOpen(t)
	defer f.Close()
	if err := WriteFile(file, []byte("new")); !transient(err) {
		t.Fatalf("replacing a file held open throughout: %v, want the refusal", err)
	}
	if got, err := os.ReadFile(file); err != nil || string(got) != "old" {
		t.Fatalf("file holds %q, %v; want \"old\"", got, err)
	}
}
