package trust

import "fmt"

// A Mode says which definitions of a server wait for approval.
type Mode string

// The modes, described in the package documentation.
const (
	ModeOff     Mode = "off"
	ModeChanged Mode = "changed"
	ModeNew     Mode = "new"
	ModeAll     Mode = "all"
)

// DefaultMode applies to a stdio server whose settings name none.
const DefaultMode = ModeChanged

// DefaultRemoteMode applies to a remote server (HTTP, SSE, or a stdio
// bridge to one: upstream.ServerConfig.Remote) whose settings name none:
// every definition waits for a person once, the first listing's included. A stdio server runs a program the user chose and installed,
// whose definitions come with it; a remote server's are whatever answers
// at its URL says today (its operator, a new owner of the name, a proxy on
// the way), and its first listing is the moment nobody has looked at them.
// `toolsearch approve SERVER` approves them all at once; quarantine:
// changed in the server's settings gives it the stdio default.
const DefaultRemoteMode = ModeAll

// ParseMode checks a mode word from configuration; "" is the default.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case "":
		return DefaultMode, nil
	case ModeOff, ModeChanged, ModeNew, ModeAll:
		return m, nil
	}
	return "", fmt.Errorf("unknown quarantine mode %q: want off, new, changed or all", s)
}
