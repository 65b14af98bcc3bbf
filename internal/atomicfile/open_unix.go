//go:build unix

package atomicfile

import (
	"os"
	"syscall"
)

// openNonblocking opens file for reading with O_NONBLOCK, which makes the
// open of a FIFO with no writer return at once instead of waiting; for a
// regular file the flag changes nothing.
func openNonblocking(file string) (*os.File, error) {
	return os.OpenFile(file, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
