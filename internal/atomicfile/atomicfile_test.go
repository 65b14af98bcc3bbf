package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"testing"

	"github.com/toolsearch/toolsearch/internal/atomicfile/atomicfiletest"
)

func TestWriteFileReplaces(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.json")
	if err := os.WriteFile(file, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(file, []byte("new")); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(file)
	if err != nil || string(got) != "new" {
		t.Fatalf("file holds %q, %v; want \"new\"", got, err)
	}
	if runtime.GOOS != "windows" {
		info, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		if mode := info.Mode().Perm(); mode != 0o600 {
			t.Errorf("mode %v, want 0600", mode)
		}
	}
	assertOnly(t, dir, "f.json")
}

func TestWriteFailureKeepsOld(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.json")
	if err := os.WriteFile(file, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	var tempName string
	err := Write(file, func(w io.Writer) error {
		tempName = filepath.Base(w.(*os.File).Name())
		w.Write([]byte("part"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Write returned %v, want the writer's error", err)
	}
	// The name is the one a cleanup of stale temporary files looks for.
	if !regexp.MustCompile(`^` + regexp.QuoteMeta(TempPrefix) + `[0-9]+$`).MatchString(tempName) {
		t.Errorf("temporary file named %q, want %s and digits", tempName, TempPrefix)
	}
	got, err := os.ReadFile(file)
	if err != nil || string(got) != "old" {
		t.Fatalf("file holds %q, %v after a failed write; want \"old\"", got, err)
	}
	assertOnly(t, dir, "f.json")
}

func TestWriteMissingFolder(t *testing.T) {
	file := filepath.Join(t.TempDir(), "absent", "f.json")
	if err := WriteFile(file, []byte("x")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("WriteFile into a missing folder returned %v, want ErrNotExist", err)
	}
}

// assertOnly fails unless dir holds exactly the one file name.
func assertOnly(t *testing.T, dir, name string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != name {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("folder holds %v, want only %s", names, name)
	}
}

func TestVersion(t *testing.T) {
	dir := atomicfiletest.TempDir(t) // also run under Wine (.ci/run)
	file := filepath.Join(dir, "f.json")
	if !Stat(file).Same(Version{}) {
		t.Error("a missing file is not the zero Version")
	}
	if err := WriteFile(file, []byte("one")); err != nil {
		t.Fatal(err)
	}
	v1 := Stat(file)
	if v1.Same(Version{}) || !v1.Same(Stat(file)) {
		t.Error("a file is not the same version as itself, or is the zero one")
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	info, err := f.Stat()
	f.Close()
	if err != nil || !VersionOf(info).Same(v1) {
		t.Errorf("the open file's Stat is another version (%v)", err)
	}
	// Same size, same time: a new version still, being a new file. Also for
	// a version never compared before the file was replaced: on Windows,
	// os.SameFile reads the file's ID on first use, by path.
	fresh := Stat(file)
	if err := WriteFile(file, []byte("two")); err != nil {
		t.Fatal(err)
	}
	old := v1.info.ModTime()
	if err := os.Chtimes(file, old, old); err != nil {
		t.Fatal(err)
	}
	if Stat(file).Same(v1) {
		t.Error("a replaced file of the same size and time is the same version")
	}
	if Stat(file).Same(fresh) {
		t.Error("a replaced file of the same size and time is the same version as one taken before, never compared")
	}
}
