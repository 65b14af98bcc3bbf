package contain

import "testing"

// TestWithinWindows: `..\`, drives, UNC shares, device names and case, as
// Windows has them. .ci/run runs it under Wine.
func TestWithinWindows(t *testing.T) {
	checkCases(t, []containCase{
		{`C:\s\demo`, `C:\s\demo`, true, false},
		{`C:\s\demo`, `C:\s\demo\a.txt`, true, true},
		{`C:\s\demo`, `C:/s/demo/sub/a.txt`, true, true},
		{`C:\s\demo`, `c:\S\Demo\a.txt`, true, true}, // the file system ignores case
		{`C:\s\demo`, `C:\s\demo\..\secret.txt`, false, false},
		{`C:\s\demo`, `C:\s\secret.txt`, false, false},
		{`C:\s\demo`, `C:\s\demo2\a.txt`, false, false},
		{`C:\s\demo`, `D:\s\demo\a.txt`, false, false},
		{`C:\s\demo`, `\\host\share\s\demo\a.txt`, false, false},
		{`\\host\share\s\demo`, `\\host\share\s\demo\a.txt`, true, true},
		{`\\host\share\s\demo`, `\\host\share\s\a.txt`, false, false},
		{`\\host\share\s\demo`, `\\other\share\s\demo\a.txt`, false, false},
		{`C:\s\demo`, `C:\s\demo\NUL`, false, false},
		{`C:\s\demo`, `C:\s\demo\a.txt:stream`, false, false},
	})
}
