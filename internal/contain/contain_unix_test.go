//go:build !windows

package contain

import "testing"

func TestWithinUnix(t *testing.T) {
	checkCases(t, []containCase{
		{"/s/demo", "/s/demo", true, false},
		{"/s/demo", "/s/demo/", true, false},
		{"/s/demo", "/s/demo/a.txt", true, true},
		{"/s/demo", "/s/demo/sub/../a.txt", true, true},
		{"/s/demo", "/s/demo/..a", true, true}, // a name that starts with two dots
		{"/s/demo", "/s/demo/a:b", true, true},
		{"/s/demo", "/s", false, false},
		{"/s/demo", "/s/demo2/a.txt", false, false},
		{"/s/demo", "/s/demo/../secret", false, false},
		{"/s/demo", "/etc/passwd", false, false},
		{"/s/demo", `/s/demo/..\x`, true, true}, // a backslash is part of a name here
		{"/s/demo", "/S/demo/a.txt", false, false},
		{"/s/demo", "s/demo/a.txt", false, false},
	})
}
