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
