package runner

import (
	"errors"
	"fmt"
)

// Errors a refused request unwraps to, for use with [errors.Is]. A missing
// script or skill folder unwraps to [io/fs.ErrNotExist].
var (
	// ErrDisabled means scripts are turned off, for all skills or this one.
	ErrDisabled = errors.New("scripts are disabled")
	// ErrBadPath means the script path is absolute, contains "..", or
	// leads out of the skill folder through a symbolic link.
	ErrBadPath = errors.New("script path not allowed")
	// ErrNotRegular means the path names a folder or another non-file.
	ErrNotRegular = errors.New("not a regular file")
	// ErrNoInterpreter means the interpreter the script needs is missing,
	// or there is no way to tell how to run the script.
	ErrNoInterpreter = errors.New("no interpreter")
	// ErrStdinTooLarge means Request.Stdin is longer than MaxStdin.
	ErrStdinTooLarge = errors.New("stdin too large")
	// ErrNestedSkill means the script is in the folder of a skill nested
	// in the one named, and runs only as that skill's.
	ErrNestedSkill = errors.New("script of a nested skill")
	// ErrShutDown means the Runner is shutting down (see Runner.Shutdown).
	ErrShutDown = errors.New("runner shut down")
)

// An Error explains why a script was refused before it ran. Its message is
// written to be shown to the model as it is.
type Error struct {
	Skill  string
	Script string
	Err    error  // one of the Err values above, or fs.ErrNotExist
	Reason string // what was wrong and, where it helps, what to do instead
}

func (e *Error) Error() string {
	return fmt.Sprintf("cannot run script %q of skill %q: %s", e.Script, e.Skill, e.Reason)
}

func (e *Error) Unwrap() error { return e.Err }

// refusal is an Error before the skill and script names are filled in, so
// the helpers that find the problem need not carry them around.
func refusal(err error, format string, args ...any) *Error {
	return &Error{Err: err, Reason: fmt.Sprintf(format, args...)}
}
