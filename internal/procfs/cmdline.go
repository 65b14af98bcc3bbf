package procfs

import (
	"bytes"
	"io"
	"os"
	"strconv"
)

// maxArgv0 bounds what Argv0 reads of a command line: a program's name
// is short, and a command line may be megabytes.
const maxArgv0 = 4096

// Argv0 returns the first word of /proc/PID/cmdline, the name the process
// was started under (which a program may set to anything, unlike its
// executable). An error that wraps fs.ErrNotExist means there is no such
// process, or no /proc.
func Argv0(pid int) (string, error) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxArgv0))
	if err != nil {
		return "", err
	}
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b), nil
}
