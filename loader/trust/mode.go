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

// DefaultMode applies to a server whose settings name none.
const DefaultMode = ModeChanged

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
