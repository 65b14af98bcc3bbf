package scan

import (
	"net/netip"
	"strings"
)

// A skill that has its reader run what no one can read hides it from
// every review, this scanner's included: a command decoded at run time
// and handed to a shell, a script downloaded from an address given as
// numbers and piped to one, a program in an archive locked with a
// password the skill gives. No installer a skill honestly needs takes any
// of these forms; the ClawHavoc campaign on ClawHub shipped its stealer in
// each of them ("paste this into Terminal: echo '…' | base64 -D | bash",
// "extract using pass: `openclaw` and run the executable").
var (
	// decodedRunRE is text decoded and run: piped from a decoder into a
	// shell or an interpreter, evaluated in a program, or given to
	// PowerShell encoded.
	decodedRunRE = mustGate(`(?i)(?:\bbase64\s+(?:-d|--decode)|\bxxd\s+-r|\bopenssl\s+(?:base64|enc)\b[^|\n]*\s-d\b|\bcertutil\s+-decode)[^\n|]{0,40}\|\s*(?:sudo\s+)?(?:(?:ba|z|da|k)?sh|python3?|perl|ruby|node)\b` +
		`|\b(?:exec|eval)\s*\(\s*(?:compile\s*\(\s*)?(?:base64\.b64decode|zlib\.decompress|atob|Buffer\.from|codecs\.decode|bytes\.fromhex|marshal\.loads)\b` +
		`|\s-(?:enc|encodedcommand|ec)\s+[a-z0-9+/=]{24,}` +
		`|\b(?:iex|invoke-expression)\b[^\n]{0,80}\bfrombase64string\b|\bfrombase64string\b[^\n]{0,160}\|\s*(?:iex|invoke-expression)\b` +
		`|\b(?:eval|(?:ba|z)?sh\s+-c)\s+["']?\$\((?:echo|printf)\b[^)\n]*\|\s*base64\b`)
	// bareRunRE is a download from an address given as numbers, piped to
	// a shell or an interpreter; its first group is the address.
	bareRunRE = mustGate(`(?i)\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^\n|]*?https?://(\d{1,3}(?:\.\d{1,3}){3})\b[^\n|]*\|\s*(?:sudo\s+)?(?:(?:ba|z|da|k)?sh|python3?|perl|ruby|node|iex|invoke-expression)\b`)
	// lockedArchiveRE is an archive to open with a password the text
	// gives, written out.
	lockedArchiveRE = mustGate("(?i)\\b(?:extract|extracting|unzip|unpack|decompress|unrar)\\b[^\\n.]{0,40}\\b(?:password|pass|passcode)\\b\\s*(?::|is)?\\s*[`\"'*]+[^\\s`\"'*]{2,40}[`\"'*]")
	// runProgramRE is a program to run after it is extracted.
	runProgramRE = mustGate(`(?i)\.(?:exe|msi|app|dmg|pkg|bat|cmd|scr)\b|\b(?:run|launch|execute|open|install)\b`)
)

// hiddenRunAt returns where a file has its reader run what is hidden, and
// what it is, or -1. Commands are read where code runs (a program, a
// fenced or indented block not presented as an example); a locked
// archive is read in prose, paragraph by paragraph, where installers are
// described. lower is raw lowercased, for the gates.
func hiddenRunAt(raw, lower, prose string, code func(start int, line string) bool) (int, int, string) {
	decoded := decodedRunRE.mayMatchFolded(lower)
	bare := strings.Contains(lower, "://") && bareRunRE.mayMatchFolded(lower)
	for at := 0; (decoded || bare) && at < len(raw); {
		end := lineEnd(raw, at)
		line := raw[at:end]
		if code(at, line) {
			if decoded && decodedRunRE.MatchString(line) {
				return at, end, "a command decoded at run time and run, which no one reviewing the skill can read"
			}
			if bare {
				for _, m := range bareRunRE.FindAllStringSubmatch(line, 4) {
					if a, err := netip.ParseAddr(m[1]); err == nil && a.IsGlobalUnicast() && !a.IsPrivate() {
						return at, end, "a script downloaded from an address given as numbers and run, which no one reviewing the skill can read"
					}
				}
			}
		}
		at = end + 1
	}
	if !lockedArchiveRE.mayMatchFolded(lower) {
		return -1, -1, ""
	}
	for start, end := frontMatterEnd(raw), 0; start < len(prose); start = end + 2 {
		end = paragraphEnd(prose, start)
		p := prose[start:end]
		if loc := lockedArchiveRE.FindStringIndex(p); loc != nil && runProgramRE.MatchString(p) {
			return start + loc[0], start + loc[1], "a program to run from an archive locked with a password the skill gives, a lock that keeps scanners from reading it"
		}
	}
	return -1, -1, ""
}
