package atomicfile

import (
	"fmt"
	"io"
	"os"
)

// MaxConfig bounds what is read of a configuration or state file a person
// writes or toolsearch writes for itself (.mcp.json, toolsearch.yaml, a
// token file): a few MiB is far more than any such file holds.
const MaxConfig = 4 << 20

// MaxState bounds what is read of a state file that grows with the
// catalogs of the servers (the approvals, a server's last known catalog):
// far more than 100,000 tools take, and still a bound.
const MaxState = 1 << 30

// NotRegularError is the error for a path that names something other than
// a regular file: a device such as /dev/zero (endless), a FIFO (a read that
// waits for ever for a writer), a folder. Such a file is a broken edit, not
// a configuration.
type NotRegularError struct {
	File string
	Mode os.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is not a regular file (it is a %s), so it is not read", e.File, kind(e.Mode))
}

// TooLargeError is the error for a file over the bound it is read within.
type TooLargeError struct {
	File  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %s, the most toolsearch reads of it", e.File, size(e.Limit))
}

// Open opens file for reading if it is a regular file, and returns it with
// what Stat says of it (its Version, for a file Write replaces). The path
// may be a symbolic link to a regular file. Opening never waits: a FIFO is
// opened without blocking and refused. A missing file's error matches
// os.ErrNotExist.
func Open(file string) (*os.File, os.FileInfo, error) {
	f, err := openNonblocking(file)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, &NotRegularError{File: file, Mode: info.Mode()}
	}
	return f, info, nil
}

// ReadFile reads a regular file whole, if it holds at most limit bytes. A
// file that is no regular file gives a *NotRegularError, one over limit a
// *TooLargeError, a missing one an error matching os.ErrNotExist.
func ReadFile(file string, limit int64) ([]byte, error) {
	data, _, err := ReadVersion(file, limit)
	return data, err
}

// ReadVersion is ReadFile that also returns the version read.
func ReadVersion(file string, limit int64) ([]byte, Version, error) {
	f, info, err := Open(file)
	if err != nil {
		return nil, Version{}, err
	}
	defer f.Close()
	data, err := ReadLimited(f, file, limit)
	if err != nil {
		return nil, Version{}, err
	}
	return data, VersionOf(info), nil
}

// ReadLimited reads r to its end if it gives at most limit bytes, else
// fails with a *TooLargeError naming file.
//
// A file's content is read into a buffer of the file's size, as os.ReadFile
// does, rather than one grown by doubling, which allocated more than twice
// the file (the approvals of 100,000 tools are a file of 24 MB).
func ReadLimited(r io.Reader, file string, limit int64) ([]byte, error) {
	lr := LimitReader(r, file, limit)
	f, ok := r.(interface{ Stat() (os.FileInfo, error) })
	if !ok {
		return io.ReadAll(lr)
	}
	size := int64(512)
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() && info.Size() < limit {
		size = max(size, info.Size()+1) // one more, to see the end without growing
	}
	data := make([]byte, 0, size)
	for {
		n, err := lr.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return data, err
		}
		if len(data) == cap(data) { // the file grew meanwhile
			data = append(data, 0)[:len(data)]
		}
	}
}

// LimitReader returns a reader of r that fails with a *TooLargeError naming
// file once r gives more than limit bytes, for a file decoded as it is read.
func LimitReader(r io.Reader, file string, limit int64) io.Reader {
	return &limitedReader{r: r, left: limit, err: &TooLargeError{File: file, Limit: limit}}
}

type limitedReader struct {
	r    io.Reader
	left int64 // bytes that may still be read
	err  *TooLargeError
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, l.err
	}
	// Read one byte past the bound, to tell a file of exactly the bound
	// from a longer one.
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	if int64(n) > l.left {
		n, l.left = int(l.left), -1
		return n, l.err
	}
	l.left -= int64(n)
	return n, err
}

func kind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "folder"
	case m&os.ModeNamedPipe != 0:
		return "named pipe (FIFO)"
	case m&os.ModeSocket != 0:
		return "socket"
	case m&os.ModeCharDevice != 0:
		return "character device"
	case m&os.ModeDevice != 0:
		return "device"
	}
	return "special file"
}

func size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
