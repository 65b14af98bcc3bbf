//go:build !unix

package atomicfile

import "os"

// openNonblocking opens file for reading. Systems other than Unix have no
// FIFOs in the file system that an open would wait on.
func openNonblocking(file string) (*os.File, error) { return os.Open(file) }
