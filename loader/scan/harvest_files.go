package scan

import (
	"path"
	"regexp"
	"strings"
)

// A harvest split across a skill's files reads in one and sends from
// another, so that neither file alone does both: collect.py writes the keys
// to /tmp/x and sync.sh posts /tmp/x; gather.py runs upload.py with what it
// read; SKILL.md pipes scan.py into send.py. Each file is scanned alone,
// then the skill's files are joined where data can pass between them: a
// file that reads a store of credentials in code (not a project's .env,
// which a client reads for its own key) and another file that sends over
// the network are one flow when
//
//   - one names the other in its code (the reader runs the sender, or the
//     sender runs the reader and takes its output), the sender's naming in
//     code that sends;
//   - a line of code of any file names both (a pipe, a chain of commands);
//   - both name the same file path (one writes it, the other sends it).
//
// SKILL.md naming both scripts in prose ("run collect.py, then sync.py")
// is not a flow by itself: skills name every script they hold.

// crossFileFlows adds, to the findings of each file that sends, the flows
// from another file of the skill that reads a store of credentials.
func crossFileFlows(files []File, scanned []*findings) {
	readers := 0
	for _, fs := range scanned {
		if fs.codeReadAt > 0 || fs.proseReadAt > 0 {
			readers++
		}
	}
	if readers == 0 || len(files) < 2 {
		return
	}
	parts := make([]fileCode, len(files))
	for i, f := range files {
		parts[i] = codeOf(string(f.Data), fileKind(f.Path))
	}
	for s, sender := range parts {
		if sender.sendAt < 0 {
			continue
		}
		for r, fs := range scanned {
			switch {
			case r == s:
				continue
			case fs.codeReadAt > 0 && linked(files, parts, r, s):
			case fs.proseReadAt > 0 && sharesPath(string(files[r].Data), parts[s].code, path.Base(files[s].Path)):
			default:
				continue
			}
			text := string(files[s].Data)
			end := strings.IndexByte(text[sender.sendAt:], '\n')
			if end < 0 {
				end = len(text)
			} else {
				end += sender.sendAt
			}
			scanned[s].add(RuleExfiltrate, SeverityWithhold, sender.sendAt, end,
				"a file that sends what another file of the skill ("+files[r].Path+") reads from a store of credentials")
			break
		}
	}
}

// fileCode is what a file's code says, for the flows across files.
type fileCode struct {
	code   string // the code: a script whole, a Markdown file's code lines
	sends  string // the code that sends: a script whole, a Markdown file's blocks (or lines) that send
	sendAt int    // the first line of code that sends, or -1
	// handOver marks a Markdown file whose prose hands over what was read
	// (sendAt is there): its sends are the whole text, which must name
	// the reader.
	handOver bool
	lines    []string
}

// codeOf reads a file's code lines, leaving out the blocks a Markdown file
// presents as attacks to recognise.
func codeOf(raw string, k kind) fileCode {
	fc := fileCode{sendAt: -1}
	prose, blocks := raw, []codeBlock(nil)
	if k == kindSkill {
		prose, blocks = maskCode(raw)
	}
	example := exampleBlocks(raw, prose, blocks)
	var code, sends strings.Builder
	sending := make([]bool, len(blocks)+1)
	blockAt := func(pos int) int {
		for i, b := range blocks {
			if b.start <= pos && pos < b.end {
				return i
			}
		}
		if k == kindCode {
			return len(blocks)
		}
		return -1
	}
	type codeLine struct {
		text  string
		block int
	}
	var lines []codeLine
	for start := 0; start < len(raw); {
		end := strings.IndexByte(raw[start:], '\n')
		if end < 0 {
			end = len(raw)
		} else {
			end += start
		}
		line := raw[start:end]
		b := blockAt(start)
		spans := []string{line}
		if b < 0 && strings.Contains(line, "`") {
			// Inline code: each span is code of its own, the prose
			// around it is not.
			b, spans = len(blocks), nil
			for _, m := range inlineCodeRE.FindAllStringSubmatch(line, -1) {
				spans = append(spans, m[1])
			}
		}
		// A table's cells name commands (a scanner's list of what it
		// finds) more often than they give one to run.
		inlineRef := b == len(blocks) && k == kindSkill && (exampleLeadRE.MatchString(inlineCodeRE.ReplaceAllString(line, " ")) || strings.HasPrefix(strings.TrimSpace(line), "|"))
		if b < 0 || example[b] || inlineRef {
			start = end + 1
			continue
		}
		for _, span := range spans {
			if localSendRE.MatchString(span) {
				continue // to this machine
			}
			lines = append(lines, codeLine{span, b})
			code.WriteString(span + "\n")
			low := strings.ToLower(span)
			if containsAny(low, netWords) && sendRE.MatchString(span) || strings.Contains(low, "method") && postMethodRE.MatchString(span) {
				if fc.sendAt < 0 {
					fc.sendAt = start
				}
				if k == kindSkill && b == len(blocks) {
					sends.WriteString(span + "\n")
				} else {
					sending[b] = true
				}
			}
		}
		start = end + 1
	}
	for _, l := range lines {
		if sending[l.block] && (k == kindCode || l.block < len(blocks)) {
			sends.WriteString(l.text + "\n")
		}
		fc.lines = append(fc.lines, l.text)
	}
	fc.code, fc.sends = code.String(), sends.String()
	if k == kindSkill && fc.sendAt < 0 {
		// Prose that hands over what a script gathered ("upload the
		// file it writes to https://…") sends it.
		if at := handsOver(prose); at >= 0 {
			fc.sendAt, fc.handOver, fc.sends = at, true, raw
		}
	}
	return fc
}

// localSendRE is a send to this machine.
var localSendRE = regexp.MustCompile(`(?i)\b(?:localhost|127\.0\.0\.1|0\.0\.0\.0)\b|\[::1\]`)

var inlineCodeRE = regexp.MustCompile("`([^`\n]+)`")

// linked reports whether data can pass from file r, which reads, to file
// s, which sends.
func linked(files []File, parts []fileCode, r, s int) bool {
	rName, sName := path.Base(files[r].Path), path.Base(files[s].Path)
	if fileKind(files[r].Path) == kindCode && namesFile(parts[r].code, sName) || namesFile(parts[s].sends, rName) {
		return true
	}
	if parts[s].handOver {
		return fileKind(files[r].Path) == kindCode && namesFile(parts[s].sends, rName)
	}
	for _, p := range parts {
		for _, l := range p.lines {
			if namesFile(l, rName) && namesFile(l, sName) {
				return true
			}
		}
	}
	return sharesPath(parts[r].code, parts[s].code, sName)
}

// sharesPath reports whether the sender's code names a file that the
// reader's text names (other than a store or the sender itself).
func sharesPath(reader, sender, sName string) bool {
	for _, m := range sharedPathRE.FindAllStringIndex(reader, 64) {
		if m[0] > 0 && (reader[m[0]-1] == ':' || reader[m[0]-1] == '@' || wordByte(reader[m[0]-1])) {
			continue // the path of an address, or of a module (@scope/name.js)
		}
		p := reader[m[0]:m[1]]
		if namesStore(p) || strings.HasSuffix(p, sName) {
			continue
		}
		// The same file however its folder is written: ./.cache/x.txt
		// and .cache/x.txt, ~/x.txt and $HOME/x.txt.
		if i := strings.IndexByte(p, '/'); i >= 0 && (p[:i] == "." || p[:i] == "~" || strings.HasPrefix(p[:i], "$")) {
			p = p[i+1:]
		}
		if strings.Contains(p, "/") && strings.Contains(sender, p) {
			return true
		}
	}
	return false
}

// namesFile reports whether code names a file by its base name, whole.
func namesFile(code, base string) bool {
	for i := 0; ; {
		j := strings.Index(code[i:], base)
		if j < 0 {
			return false
		}
		at := i + j
		before, after := byte(' '), byte(' ')
		if at > 0 {
			before = code[at-1]
		}
		if at+len(base) < len(code) {
			after = code[at+len(base)]
		}
		if !wordByte(before) && before != '.' && !wordByte(after) {
			return true
		}
		i = at + len(base)
	}
}

func wordByte(c byte) bool {
	return c == '_' || c == '-' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// sharedPathRE is a path to a file that one of a skill's files may write
// and another send: a folder, then a name with an extension, or any name
// under the temporary folders (/tmp/.x/part_, which split writes in
// pieces).
var sharedPathRE = regexp.MustCompile(`(?:~|\$\{?HOME\}?|\$\{?TMPDIR\}?|\.)?/(?:[\w.-]+/)*\.?[\w-][\w.-]*\.\w+|/(?:tmp|var/tmp|dev/shm)/(?:[\w.-]+/)*[\w.-]{3,}`)

// sshSettingsRE names the files of ~/.ssh that hold no key.
var sshSettingsRE = regexp.MustCompile(`(?i)\.ssh[/\\](?:config|known_hosts|authorized_keys)\b`)

// sharedStoreLine reports whether a line names a store of credentials that
// is not a project's .env, the environment's name, or an SSH setting: what
// a file must read for a flow across files to start there.
func sharedStoreLine(line string) bool {
	line = sshSettingsRE.ReplaceAllString(line, " ")
	for _, k := range storeKinds {
		if k.kind == "dotenv" || k.kind == "environment" || ownStores[k.kind] {
			continue
		}
		if k.re.MatchString(line) {
			return true
		}
	}
	return false
}
