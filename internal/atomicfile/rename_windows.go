package atomicfile

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// renameRetry is how long replace keeps trying a rename that another
// program's open handle refuses: the time cmd/go's robustio gives the same
// failure (an antivirus scan, a search indexer or an editor that has the
// file open briefly).
const renameRetry = 2 * time.Second

// replace renames tmp over file. Windows refuses to replace a file that is
// open without FILE_SHARE_DELETE (os.Open's way, and most programs'), with
// ERROR_ACCESS_DENIED or ERROR_SHARING_VIOLATION; such a holder lets go
// within moments, so the rename is tried again until renameRetry has
// passed. toolsearch's own readers are such holders too: a read of the
// approvals takes milliseconds.
func replace(tmp, file string) error {
	deadline := time.Now().Add(renameRetry)
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		err := os.Rename(tmp, file)
		if err == nil || !transient(err) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(wait)
	}
}

// transient reports whether err is a refusal that another open handle causes.
func transient(err error) bool {
	return errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_SHARING_VIOLATION) ||
		errors.Is(err, windows.ERROR_LOCK_VIOLATION)
}
