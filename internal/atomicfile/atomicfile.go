// Package atomicfile replaces a file so that its readers, other processes
// included, see the old content or the new, never a part of either. The new
// content goes to a temporary file in the same folder, reaches the disk, and
// is renamed over the old: a crash of the machine cannot leave an empty or
// half-written file under the real name. A Version tells a reader whether
// the file was replaced since it read it.
package atomicfile

import (
	"io"
	"os"
	"path/filepath"
)

// TempPrefix begins the names of the temporary files: a process killed while
// writing leaves one behind, named TempPrefix and digits, which a later
// cleanup may recognize by that name and remove once it is old.
const TempPrefix = ".tmp-"

// Write replaces file with what write writes. The file's folder must exist.
// The new file has mode 0600 (that of os.CreateTemp): the files written this
// way hold tokens and approvals, for the user alone. When write or any step
// after it fails, file is left as it was and the temporary file is removed.
// On Windows, a rename that a reader of the old file refuses is tried again
// for a moment (see replace).
func Write(file string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(file), TempPrefix+"*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename, there is nothing to remove
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return replace(tmp.Name(), file)
}

// WriteFile replaces file with data, as Write does.
func WriteFile(file string, data []byte) error {
	return Write(file, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// A Version identifies one version of a file that Write replaces, so that
// a reader tells with one stat whether the file changed since it read it.
// Every write renames a new file into place, so a new version is a new file
// (os.SameFile) even when its size and modification time are the old's,
// as two writes within the file system's time granularity may leave them.
// The zero Version stands for no file.
type Version struct{ info os.FileInfo }

// VersionOf returns the version info describes, from a Stat of the file or
// of the file opened.
func VersionOf(info os.FileInfo) Version {
	// On Windows, what os.Stat returns reads the file's ID only when
	// os.SameFile first needs it, by path: a version compared only after
	// the file was replaced would take the new file's ID, and a new file of
	// the same size and time would pass for the old. Reading it now leaves
	// a window of microseconds, not one until the next comparison. Elsewhere
	// the ID is read with the rest, and this costs nothing.
	os.SameFile(info, info)
	return Version{info}
}

// Stat returns the file's current version, the zero Version when it cannot
// be read.
func Stat(file string) Version {
	info, err := os.Stat(file)
	if err != nil {
		return Version{}
	}
	return VersionOf(info)
}

// Same reports whether a and b are one version of the file.
func (a Version) Same(b Version) bool {
	if a.info == nil || b.info == nil {
		return a.info == nil && b.info == nil
	}
	return os.SameFile(a.info, b.info) && a.info.ModTime().Equal(b.info.ModTime()) && a.info.Size() == b.info.Size()
}
