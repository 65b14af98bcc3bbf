//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// TestReadFileRefusesWhatIsNoRegularFile: a configuration swapped for a link
// to /dev/zero grew memory without end, a FIFO hung its reader for good.
func TestReadFileRefusesWhatIsNoRegularFile(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "ok.json")
	if err := os.WriteFile(regular, []byte(`{"a":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	large := filepath.Join(dir, "large.json")
	if err := os.WriteFile(large, []byte(strings.Repeat("x", 101)), 0o600); err != nil {
		t.Fatal(err)
	}
	toRegular := filepath.Join(dir, "link.json")
	if err := os.Symlink(regular, toRegular); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, file string
		want       func(error) bool
	}{
		{"regular", regular, func(err error) bool { return err == nil }},
		{"link to regular", toRegular, func(err error) bool { return err == nil }},
		{"missing", filepath.Join(dir, "none"), func(err error) bool { return errors.Is(err, os.ErrNotExist) }},
		{"over the bound", large, func(err error) bool { var e *TooLargeError; return errors.As(err, &e) }},
		{"folder", dir, isNotRegular},
	}
	if runtime.GOOS != "windows" {
		zero := filepath.Join(dir, "zero.json")
		if err := os.Symlink("/dev/zero", zero); err != nil {
			t.Fatal(err)
		}
		fifo := filepath.Join(dir, "fifo.json")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
		cases = append(cases,
			struct {
				name, file string
				want       func(error) bool
			}{"link to /dev/zero", zero, isNotRegular},
			struct {
				name, file string
				want       func(error) bool
			}{"fifo without a writer", fifo, isNotRegular})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data, err := ReadFile(c.file, 100)
			if !c.want(err) {
				t.Fatalf("ReadFile(%s) = %q, %v", c.file, data, err)
			}
			if err != nil && !strings.Contains(err.Error(), c.file) {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}

func isNotRegular(err error) bool {
	var e *NotRegularError
	return errors.As(err, &e)
}

// A file is read into one buffer of its size: grown by doubling, one allocated more
// than twice the file.
func TestReadFileTakesItsSize(t *testing.T) {
	for _, size := range []int{0, 1, 511, 512, 4096, 1<<20 + 3} {
		file := filepath.Join(t.TempDir(), "state.json")
		if err := os.WriteFile(file, []byte(strings.Repeat("x", size)), 0o600); err != nil {
			t.Fatal(err)
		}
		f, _, err := Open(file)
		if err != nil {
			t.Fatal(err)
		}
		data, err := ReadLimited(f, file, MaxState)
		f.Close()
		if err != nil || len(data) != size {
			t.Fatalf("%d bytes: read %d, %v", size, len(data), err)
		}
		if c := cap(data); c > max(size+1, 512) {
			t.Errorf("%d bytes read into a buffer of %d", size, c)
		}
	}
	// A reader of unknown size is still read whole, and bounded.
	if data, err := ReadLimited(strings.NewReader(strings.Repeat("y", 3000)), "r", 5000); err != nil || len(data) != 3000 {
		t.Errorf("a reader of 3,000 bytes: %d, %v", len(data), err)
	}
	var tooLarge *TooLargeError
	if _, err := ReadLimited(strings.NewReader(strings.Repeat("y", 3000)), "r", 2999); !errors.As(err, &tooLarge) {
		t.Errorf("a reader over the bound: %v, want a *TooLargeError", err)
	}
}
