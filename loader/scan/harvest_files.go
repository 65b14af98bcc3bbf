package scan

import (
	"iter"
	"math/bits"
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
//   - both name the same file path (one writes it, the other sends it);
//   - the sender imports the reader as a module (from keys import load,
//     require('./lib/creds')): the reader's function returns what it read.
//
// A file of settings (JSON, YAML, TOML…) that lists stores is a reader too
// when a script that reads files and sends names it: the paths are kept
// apart from the code that reads them.
//
// SKILL.md naming both scripts in prose ("run collect.py, then sync.py")
// is not a flow by itself: skills name every script they hold.

// crossFileFlows adds, to the findings of each file that sends, the flows
// from another file of the skill that reads a store of credentials.
//
// What names what is read once per file and line, not once per pair of
// files: a hostile skill of hundreds of files would otherwise cost the
// square of its size (an 8 MB one took minutes).
func crossFileFlows(files []File, scanned []*findings) {
	readers := 0
	lists := make([]bool, len(files)) // the files of settings that list stores
	for i, fs := range scanned {
		lists[i] = listsStores(files[i])
		if fs.codeReadAt > 0 || fs.proseReadAt > 0 || lists[i] {
			readers++
		}
	}
	if readers == 0 || len(files) < 2 {
		return
	}
	parts := make([]fileCode, len(files))
	for i, f := range files {
		parts[i] = codeOf(string(f.Data), fileKind(f))
	}
	ix := newNameIndex(files)
	codeNames := make([]fileSet, len(files)) // the files each file's code names
	sendNames := make([]fileSet, len(files)) // the files each file's sending code names
	together := make([]fileSet, len(files))  // for a file that sends, the files one line names with it
	line := newFileSet(len(files))
	for i, p := range parts {
		if scanned[i].codeReadAt > 0 && fileKind(files[i]) == kindCode {
			codeNames[i] = ix.named(p.code, nil)
		}
		if p.sendAt >= 0 {
			sendNames[i] = ix.named(p.sends, nil)
		}
		for _, l := range p.lines {
			if ix.named(l, line.clear()).count() < 2 {
				continue
			}
			for s := range line.each() {
				if parts[s].sendAt >= 0 {
					if together[s] == nil {
						together[s] = newFileSet(len(files))
					}
					together[s].union(line)
				}
			}
		}
	}
	paths := newSharedPaths()
	// imported reports whether the script s imports the script r, each
	// script's imports read once.
	mods := make([]map[string]bool, len(files))
	imported := func(s, r int) bool {
		if fileKind(files[s]) != kindCode || fileKind(files[r]) != kindCode {
			return false
		}
		if mods[s] == nil {
			mods[s] = importedModules(string(files[s].Data))
		}
		base := path.Base(files[r].Path)
		return mods[s][strings.TrimSuffix(base, path.Ext(base))]
	}
	for s, sender := range parts {
		if sender.sendAt < 0 {
			continue
		}
		for r, fs := range scanned {
			if r == s {
				continue
			}
			// Data passes from r to s: r runs s, s names r where it
			// sends or imports r, a line names both, or both name one
			// file.
			named := codeNames[r].has(s) || sendNames[s].has(r) || imported(s, r)
			switch {
			case fs.codeReadAt > 0 && !sender.handOver && (named || together[s].has(r) || paths.shared(r, parts[r].code, s, parts[s].code, path.Base(files[s].Path))):
			case fs.codeReadAt > 0 && named:
			case named && lists[r] && fileReadRE.MatchString(parts[s].code):
			case fs.proseReadAt > 0 && paths.shared(-1-r, string(files[r].Data), s, parts[s].code, path.Base(files[s].Path)):
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

// maxSettingsFile is the size of the largest file read as settings.
const maxSettingsFile = 16 << 10

// dataExts are the extensions of files that hold settings, not code.
var dataExts = map[string]bool{".json": true, ".yaml": true, ".yml": true, ".toml": true, ".ini": true, ".cfg": true, ".conf": true}

// listsStores reports whether a file of settings names a store of
// credentials of the user's (not an agent's own, nor a project's .env):
// a script that loads it and reads the files it lists reads the store.
func listsStores(f File) bool {
	// A file of settings is small; a large one holds data.
	if len(f.Data) > maxSettingsFile || !dataExts[strings.ToLower(path.Ext(f.Path))] {
		return false
	}
	text := string(f.Data)
	if !storeWords.in(strings.ToLower(text)) {
		return false
	}
	for _, k := range storeKinds {
		if !ownStores[k.kind] && k.kind != "dotenv" && k.re.MatchString(text) {
			return true
		}
	}
	return false
}

// importRE is a script's import of a module of its own: Python's
// "from helpers import load" and "import helpers", JavaScript's
// require('./helpers') and "from './helpers.js'".
var importRE = regexp.MustCompile(`(?m)^\s*from\s+\.*([\w.]+)\s+import\b|^\s*import\s+([\w.]+(?:\s*,\s*[\w.]+)*)\s*$|\brequire\(\s*["']\.{1,2}/([\w./-]+)["']\s*\)|\bfrom\s+["']\.{1,2}/([\w./-]+)["']|\bimport\(\s*["']\.{1,2}/([\w./-]+)["']\s*\)`)

// importedModules returns the last names of the modules a script imports
// (helpers for pkg.helpers, ./lib/helpers.js): a function of a module of
// the skill that reads a store returns what it read to the importer.
func importedModules(code string) map[string]bool {
	mods := map[string]bool{}
	for _, m := range importRE.FindAllStringSubmatch(code, 64) {
		// Python names a module by dots, JavaScript by a path.
		for _, dotted := range strings.Split(m[1]+","+m[2], ",") {
			if dotted = strings.TrimSpace(dotted); dotted != "" {
				mods[dotted[strings.LastIndexByte(dotted, '.')+1:]] = true
			}
		}
		for _, p := range m[3:] {
			if p != "" {
				base := path.Base(p)
				mods[strings.TrimSuffix(base, path.Ext(base))] = true
			}
		}
	}
	return mods
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
		if i := blockIndex(blocks, pos); i >= 0 {
			return i
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
			if netWords.in(low) && sendRE.MatchString(span) || strings.Contains(low, "method") && postMethodRE.MatchString(span) {
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

// sharedPaths finds the file paths a reader's text names in a sender's code
// (other than a store or the sender itself): one writes the file, the
// other sends it. A reader's first 64 paths are looked for, and a skill's
// first maxSharedPaths distinct ones, each in a sender at most once, which
// bounds the work by the skill's size.
type sharedPaths struct {
	of    map[int][]readerPath // by reader (-1-r for the paths of r's prose)
	ids   map[string]int       // distinct normalized paths
	found map[[2]int]bool      // (sender, path id): the sender's code holds the path
}

type readerPath struct {
	raw string // as the reader writes it
	id  int    // of the normalized path, or -1 past maxSharedPaths
}

const maxSharedPaths = 128

func newSharedPaths() *sharedPaths {
	return &sharedPaths{of: map[int][]readerPath{}, ids: map[string]int{}, found: map[[2]int]bool{}}
}

// shared reports whether the sender's code names a file that the reader's
// text names.
func (sp *sharedPaths) shared(r int, reader string, s int, sender, sName string) bool {
	ps, ok := sp.of[r]
	if !ok {
		ps = sp.read(reader)
		sp.of[r] = ps
	}
	for _, p := range ps {
		if p.id < 0 || namesStore(p.raw) || strings.HasSuffix(p.raw, sName) {
			continue
		}
		key := [2]int{s, p.id}
		in, seen := sp.found[key]
		if !seen {
			in = strings.Contains(sender, normalizedPath(p.raw))
			sp.found[key] = in
		}
		if in {
			return true
		}
	}
	return false
}

// read lists the paths a reader's text names.
func (sp *sharedPaths) read(reader string) []readerPath {
	var out []readerPath
	for _, m := range sharedPathRE.FindAllStringIndex(reader, 64) {
		if m[0] > 0 && (reader[m[0]-1] == ':' || reader[m[0]-1] == '@' || wordByte(reader[m[0]-1])) || inAddress(reader, m[0]) {
			continue // the path of an address, or of a module (@scope/name.js)
		}
		raw := reader[m[0]:m[1]]
		n := normalizedPath(raw)
		if !strings.Contains(n, "/") {
			continue
		}
		id, ok := sp.ids[n]
		if !ok {
			id = -1
			if len(sp.ids) < maxSharedPaths {
				id = len(sp.ids)
				sp.ids[n] = id
			}
		}
		out = append(out, readerPath{raw, id})
	}
	return out
}

// inAddress reports whether the text at at lies in a web address: its
// host (//api.example.com) or its path (https://host/v1/files.json,
// https://management.azure.com/…/${RG}/providers/Microsoft.Web). Two files that write out one service's
// address both talk to that service; no file passes between them.
func inAddress(text string, at int) bool {
	start := max(0, at-maxAddressLen)
	if i := strings.LastIndexAny(text[start:at], " \t\r\n\"'`()<>,;|"); i >= 0 {
		start += i + 1
	}
	return strings.Contains(text[start:min(at+1, len(text))], "//")
}

// maxAddressLen bounds how far back inAddress looks for an address's scheme.
const maxAddressLen = 256

// normalizedPath is a path however its folder is written: ./.cache/x.txt
// and .cache/x.txt, ~/x.txt and $HOME/x.txt.
func normalizedPath(p string) string {
	if i := strings.IndexByte(p, '/'); i >= 0 && (p[:i] == "." || p[:i] == "~" || strings.HasPrefix(p[:i], "$")) {
		return p[i+1:]
	}
	return p
}

// A nameIndex finds which of a skill's files a text names by base name,
// whole (namesFile), in one pass over the text: a name is a run of word
// bytes and dots that no word byte or dot comes before, up to a dot or
// the run's end, no longer than the longest name. Base names with other bytes (spaces, "+") are looked for
// one by one, the first maxOddNames of them.
type nameIndex struct {
	byBase map[string][]int
	maxLen int // of the names in byBase: no longer prefix is looked up
	odd    []oddName
}

type oddName struct {
	base  string
	files []int
}

const maxOddNames = 8

func newNameIndex(files []File) *nameIndex {
	ix := &nameIndex{byBase: map[string][]int{}}
	odd := map[string]int{}
	for i, f := range files {
		base := path.Base(f.Path)
		if base != "" && strings.IndexFunc(base, func(r rune) bool { return r >= 0x80 || !wordByte(byte(r)) && r != '.' }) < 0 {
			ix.byBase[base] = append(ix.byBase[base], i)
			ix.maxLen = max(ix.maxLen, len(base))
			continue
		}
		if j, ok := odd[base]; ok {
			ix.odd[j].files = append(ix.odd[j].files, i)
		} else if len(ix.odd) < maxOddNames {
			odd[base] = len(ix.odd)
			ix.odd = append(ix.odd, oddName{base, []int{i}})
		}
	}
	return ix
}

// named adds the files text names to set (a new one when nil) and returns it.
func (ix *nameIndex) named(text string, set fileSet) fileSet {
	if set == nil {
		set = newFileSet(0)
	}
	for i := 0; i < len(text); {
		if !wordByte(text[i]) && text[i] != '.' {
			i++
			continue
		}
		j := i
		for j < len(text) && (wordByte(text[j]) || text[j] == '.') {
			j++
		}
		// Every prefix of the run that ends at a dot or at its end.
		for k := i; k <= j && k-i <= ix.maxLen; k++ {
			if k == j || k > i && text[k] == '.' {
				for _, f := range ix.byBase[text[i:k]] {
					set = set.add(f)
				}
			}
		}
		i = j
	}
	for _, o := range ix.odd {
		if namesFile(text, o.base) {
			for _, f := range o.files {
				set = set.add(f)
			}
		}
	}
	return set
}

// A fileSet is a set of a skill's files, by index.
type fileSet []uint64

func newFileSet(n int) fileSet { return make(fileSet, (n+63)/64) }

func (s fileSet) add(i int) fileSet {
	for len(s) <= i/64 {
		s = append(s, 0)
	}
	s[i/64] |= 1 << (i % 64)
	return s
}

func (s fileSet) has(i int) bool { return i/64 < len(s) && s[i/64]&(1<<(i%64)) != 0 }

func (s fileSet) clear() fileSet {
	clear(s)
	return s
}

func (s fileSet) count() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

func (s fileSet) union(o fileSet) {
	for i := range min(len(s), len(o)) {
		s[i] |= o[i]
	}
}

func (s fileSet) each() iter.Seq[int] {
	return func(yield func(int) bool) {
		for i, w := range s {
			for w != 0 {
				b := bits.TrailingZeros64(w)
				if !yield(i*64 + b) {
					return
				}
				w &^= 1 << b
			}
		}
	}
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
