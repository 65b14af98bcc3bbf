package scan

import (
	"regexp"
	"strings"
)

// Harvests that the rules of harvest.go lose on the way from the read to
// the send, found on issue 43's development fixtures of other scanners:
//
//   - a command indented as code (four spaces, under a list item or a
//     "run:" line) is run by the model as surely as a fenced one, though
//     markdown.go, which follows the fences, reads it as prose;
//   - what a script reads passes through a loop's name, a with-statement's
//     name, an item of a dict or a list (d[k] = f.read(), out.append(x)),
//     a function that returns it, and into the body of a request whose
//     call spans lines (Request(url, data=payload)), not only through
//     plain assignments;
//   - a command encoded and split into pieces (A = "Y3Vy…"; B = "…";
//     run(b64decode(A + B)), or the pieces written out where they are
//     joined) decodes to nothing until joined;
//   - a CI secret (${{ secrets.X }}) put in a request's body or address to
//     a host that is not the service the secret is named for;
//   - the user's repository pushed to a remote the skill adds at a fixed
//     address (or to the address itself), the push's output thrown away so
//     that no one sees it.

// indentedCommandRE is a line indented as code whose first word is a
// command or a statement: indented prose (a list item's second paragraph)
// is not code.
var indentedCommandRE = regexp.MustCompile(`^(?: {4,}|\t+)(?:sudo\s+)?(?:(?:curl|wget|cat|git|gh|python3?|node|bash|sh|zsh|base64|tar|zip|scp|rsync|nc|ncat|socat|echo|printf|export|cp|mv|find|grep|aws|gcloud|az|kubectl|docker|npm|npx|pip3?|uv|printenv|env|openssl|gpg|ssh|security|sqlite3|dig|nslookup|Invoke-\w+|iwr|irm)\b|\$\s|\./|[A-Za-z_]\w*=\S|[A-Za-z_][\w.]*\()`)

// indentedCommand reports a line of a skill's Markdown that is a command
// indented as code rather than fenced.
func indentedCommand(line string) bool {
	return len(line) > 4 && (line[0] == ' ' || line[0] == '\t') && indentedCommandRE.MatchString(line)
}

// indentedCode returns what tells whether the line of a skill's Markdown
// at start is a command indented as code, or a line of an HTML <pre>
// element, that the skill does not present
// as an attack to recognise (under a heading, or after prose, that names
// one, as exampleBlocks reads fenced blocks). It reads the file once:
// each run of indented commands is judged by the prose before its first
// line and the headings above it.
func indentedCode(raw, prose string, k kind) func(start int, line string) bool {
	if k != kindSkill || !strings.Contains(prose, "\n    ") && !strings.Contains(prose, "\n\t") && !strings.Contains(prose, "<pre") && !strings.Contains(prose, "<PRE") {
		return func(int, string) bool { return false }
	}
	code := map[int]bool{}
	body := frontMatterEnd(raw)
	var headings [7]string
	inRun, example, inPre := false, false, false
	for start := 0; start < len(prose); {
		end := strings.IndexByte(prose[start:], '\n')
		if end < 0 {
			end = len(prose)
		} else {
			end += start
		}
		line := prose[start:end]
		// An HTML <pre> element holds code as a fence does; its lines
		// are read as code whatever their first word.
		pre := inPre
		if low := strings.ToLower(line); strings.Contains(low, "<pre") || strings.Contains(low, "</pre") {
			open, closing := strings.LastIndex(low, "<pre"), strings.LastIndex(low, "</pre")
			inPre = open > closing
			pre = false
		}
		switch {
		case strings.TrimSpace(line) == "":
			// a blank line (or a fenced block's blanked body) keeps a run
		case pre || indentedCommand(line):
			if !inRun && start >= body {
				heads := strings.Join(headings[:], "\n")
				from := min(sectionStart(prose, start, max(start-400, body)), start)
				example = exampleLeadRE.MatchString(dottedRE.ReplaceAllString(prose[from:start], " ")) || exampleLeadRE.MatchString(heads)
			}
			inRun = true
			code[start] = start >= body && !example
		default:
			inRun = false
			if n := len(line) - len(strings.TrimLeft(line, "#")); n > 0 && n < 7 && strings.HasPrefix(line[n:], " ") {
				headings[n] = line
				for i := n + 1; i < 7; i++ {
					headings[i] = ""
				}
			}
		}
		start = end + 1
	}
	return func(start int, _ string) bool { return code[start] }
}

// withAsRE is a with-statement's name (with open(p) as f:).
var withAsRE = regexp.MustCompile(`^\s*(?:async\s+)?with\s+(.+?)\s+as\s+([A-Za-z_]\w*)\s*:`)

// itemSetRE is an item of a dict, a list or an object set from a value
// (d[k] = v, d.k = v), or a value added to one (out.append(v)).
var itemSetRE = regexp.MustCompile(`^\s*([A-Za-z_]\w*)(?:\[[^\]\n]*\]|\.[A-Za-z_]\w*)\s*(?:\+=|=[^=])|^\s*([A-Za-z_]\w*)\.(?:append|extend|update|add|push|insert|setdefault|write)\s*\(`)

// codeFlow is what a flow follows for the rules of this file.
type codeFlow struct {
	cont string // a shell command continued on the next line
	fn   string // the function whose body the lines are in
}

// funcRE opens a function in the languages skills use (def name(,
// function name(, async def name(, func name(, func (r T) name(, fn
// name(, const name = (…) =>), its name the group.
var funcRE = regexp.MustCompile(`^\s*(?:export\s+)?(?:async\s+)?(?:(?:def|func|function|fn|sub)\s+(?:\([^)]*\)\s*)?|(?:const|let|var)\s+)([A-Za-z_]\w*)\s*(?:\(|=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>))`)

// returnRE is a line that returns a value from a function.
var returnRE = regexp.MustCompile(`^\s*(?:return|yield)\s+(.+)`)

// readLoop notes, on a line that reads a store, the name its loop takes
// the store's paths in (what is opened through it is what was read), the
// name a with-statement opens it as, and the dict or list the line puts
// what it read in.
func (f *flow) readLoop(line string) {
	// A function that returns what it read hands the read to its
	// callers: the function's name carries it (payload = read_keys()).
	if f.code.fn != "" && returnRE.MatchString(line) {
		f.tainted[f.code.fn] = true
	}
	if m := forVarRE.FindStringSubmatch(line); m != nil {
		f.tainted[m[1]] = true
	}
	if m := withAsRE.FindStringSubmatch(line); m != nil {
		f.tainted[m[2]] = true
	}
	if m := itemSetRE.FindStringSubmatch(line); m != nil {
		f.tainted[m[1]+m[2]] = true
	}
}

// loopNamesRE is the names a loop takes its items in, one or several
// ("for k, v in", "for (const [k, v] of").
var loopNamesRE = regexp.MustCompile(`\bfor\s*\(?\s*(?:const\s+|let\s+|var\s+)?\[?\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*\]?\s+(?:in|of)\b`)

// readLoopNames notes every name of a loop over what a line reads (the
// environment's names and values alike): a request that carries any of
// them carries the read.
func (f *flow) readLoopNames(line string) {
	if m := loopNamesRE.FindStringSubmatch(line); m != nil {
		for _, name := range strings.Split(m[1], ",") {
			f.tainted[strings.TrimSpace(name)] = true
		}
	}
}

// carryMore notes the names a line assigns from a name read from a secret
// in the ways assignRE does not see: a with-statement's name, an item set
// in a dict or a list.
func (f *flow) carryMore(line string) {
	if m := funcRE.FindStringSubmatch(line); m != nil {
		f.code.fn = m[1]
	}
	if len(f.tainted) == 0 {
		return
	}
	if m := returnRE.FindStringSubmatch(line); m != nil && f.code.fn != "" && f.anyTainted(headerArgRE.ReplaceAllString(m[1], " ")) {
		f.tainted[f.code.fn] = true
		return
	}
	if m := withAsRE.FindStringSubmatch(line); m != nil {
		if f.anyTainted(m[1]) {
			f.tainted[m[2]] = true
		}
		return
	}
	if m := itemSetRE.FindStringSubmatchIndex(line); m != nil {
		name, rest := "", line[m[1]:]
		if m[2] >= 0 {
			name = line[m[2]:m[3]]
		} else {
			name = line[m[4]:m[5]]
		}
		if f.anyTainted(headerArgRE.ReplaceAllString(rest, " ")) {
			f.tainted[name] = true
		}
	}
}

// anyTainted reports whether text names a name read from a secret.
func (f *flow) anyTainted(text string) bool {
	for _, w := range identRE.FindAllString(text, -1) {
		if f.tainted[w] {
			return true
		}
	}
	return false
}

// bodyArgRE is an argument that fills the body of a request whose call
// spans lines (data=payload, body: JSON.stringify(x), json=x).
var bodyArgRE = regexp.MustCompile(`(?i)^\s*(?:data|json|body|files|content)\s*[=:]\s*(.*)`)

// sendsInBody reports a line, inside a call that spans lines, that puts a
// name read from a secret in the request's body: urllib's
// Request(url, data=payload) posts it.
func (f *flow) sendsInBody(line string) bool {
	if f.callAt < 0 || len(f.tainted) == 0 {
		return false
	}
	m := bodyArgRE.FindStringSubmatch(line)
	return m != nil && f.anyTainted(m[1])
}

// ciSecretRE is a CI secret written into a command (GitHub Actions).
var ciSecretRE = regexp.MustCompile(`\$\{\{\s*secrets\.([A-Za-z][A-Za-z0-9]*)(?:_[A-Za-z0-9_]*)?\s*\}\}`)

// ciSecretAway reports a command (its continued lines joined) that puts a
// CI secret in a request's body, query or address to a host written out
// that does not bear the name the secret is named for: a secret used in a
// header, or as the address itself (a chat webhook kept as a secret), is
// used where it belongs.
func ciSecretAway(cmd string) bool {
	if !strings.Contains(cmd, "secrets.") {
		return false
	}
	low := strings.ToLower(cmd)
	if !(netWords.in(low) && sendRE.MatchString(cmd) || netCallWords.in(low) && netCallRE.MatchString(cmd)) {
		return false
	}
	hosts := literalHostRE.FindAllStringSubmatch(cmd, 4)
	if len(hosts) == 0 || localHostRE.MatchString(cmd) {
		return false
	}
	bare := authArgRE.ReplaceAllString(headerArgRE.ReplaceAllString(cmd, " "), " ")
	for _, m := range ciSecretRE.FindAllStringSubmatch(bare, 4) {
		service := strings.ToLower(m[1])
		own := false
		for _, h := range hosts {
			own = own || strings.Contains(strings.ToLower(h[1]), service)
		}
		if !own {
			return true
		}
	}
	return false
}

// continued returns the command a line ends, joined with the lines before
// it that a backslash continued, and the command carried to the next line
// when this one continues.
func continued(carried, line string) (cmd, carry string) {
	cmd = line
	if carried != "" {
		cmd = carried + " " + strings.TrimSpace(line)
	}
	if t := strings.TrimRight(line, " \t\r"); strings.HasSuffix(t, `\`) && len(cmd) < 4096 {
		return cmd, strings.TrimSuffix(strings.TrimRight(cmd, " \t\r"), `\`)
	}
	return cmd, ""
}

// remoteAddRE adds a git remote at an address; pushRE pushes to a named
// remote; discardRE throws a command's output away.
var (
	remoteAddRE = regexp.MustCompile(`\bgit\s+remote\s+add\s+(?:-\S+\s+)*([\w.-]+)\s+["']?(\S+?)["']?(?:\s|$|[;&|])`)
	pushRE      = regexp.MustCompile(`\bgit\s+push\b([^\n;&|]*)`)
	discardRE   = regexp.MustCompile(`(?:&>|>)\s*/dev/null|\|\s*Out-Null\b|>\s*\$null\b`)
	// placeholderRE is an address a reader fills in (<owner>, {repo},
	// YOUR_ORG, $GITHUB_USER, my-org): the user's own remote.
	placeholderRE = regexp.MustCompile(`(?i)[<{\[]|your[-_]|(?:^|[/:])(?:user(?:name)?|owner|org|organi[sz]ation|my-?[\w-]*)(?:[/.]|$)|\$\{?(?:USER|GITHUB_\w+|GH_\w+|OWNER|ORG|REPO\w*)\b`)
)

// fixedRemote reports an address of a remote written out, not one the
// reader fills in, nor this machine.
func fixedRemote(addr string) bool {
	return (strings.Contains(addr, "://") || strings.Contains(addr, "@") && strings.Contains(addr, ":")) && !placeholderRE.MatchString(addr) && !localSendRE.MatchString(addr)
}

// hiddenPushAt returns where code pushes the repository, with the push's
// output thrown away, to a fixed address: a remote it adds, or the
// address itself.
func hiddenPushAt(raw string, code func(start int, line string) bool) int {
	if !strings.Contains(raw, "git") || !strings.Contains(raw, "push") {
		return -1
	}
	added := map[string]bool{}
	for start := 0; start < len(raw); {
		end := strings.IndexByte(raw[start:], '\n')
		if end < 0 {
			end = len(raw)
		} else {
			end += start
		}
		line := raw[start:end]
		if code(start, line) {
			for _, m := range remoteAddRE.FindAllStringSubmatch(line, 4) {
				if fixedRemote(m[2]) {
					added[m[1]] = true
				}
			}
			if strings.Contains(line, "push") && discardRE.MatchString(line) {
				for _, m := range pushRE.FindAllStringSubmatch(line, 4) {
					for _, w := range strings.Fields(m[1]) {
						if added[w] || !strings.HasPrefix(w, "-") && fixedRemote(strings.Trim(w, `"'`)) {
							return start
						}
					}
				}
			}
		}
		start = end + 1
	}
	return -1
}

// pieceRE is a name assigned a string of base64 or hex letters (quoted,
// or bare in a shell) alone on its line: a piece of an encoded text when joined with others.
var pieceRE = regexp.MustCompile(`(?m)^[ \t]*(?:const\s+|let\s+|var\s+|export\s+|readonly\s+|local\s+|final\s+|static\s+)*([A-Za-z_]\w*)\s*(?::\s*\w+\s*)?=\s*[bru]?["']?([A-Za-z0-9+/_=-]{8,})["']?\s*;?[ \t]*$`)

// joinRE is where pieces are joined: A + B (+ …), [A, B] given to a
// join, "$A$B" or "${A}${B}" in a shell.
var joinRE = mustGate(`[A-Za-z_]\w*(?:\s*\+\s*[A-Za-z_]\w*)+|\[\s*[A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)+\s*,?\s*\]|(?:\$\{?[A-Za-z_]\w*\}?){2,}`)

// literalsRE is pieces written out where they are joined: "Y3Vy" +
// "bCAt…", or a list of them (["Y3Vy", "bCAt…"]) given to a join.
var literalsRE = mustGate(`["'][A-Za-z0-9+/_=-]{4,}["'](?:\s*[+,]\s*["'][A-Za-z0-9+/_=-]{4,}["'])+`)

// quotedPieceRE is one piece of literalsRE.
var quotedPieceRE = regexp.MustCompile(`["']([A-Za-z0-9+/_=-]+)["']`)

// maxPieces bounds the pieces and the joins a file is read for.
const maxPieces = 256

// scanJoinedPieces decodes the encoded texts a file splits into named
// pieces and joins at run time, and reports what they decode to at the
// join: each piece alone decodes to nothing, so scanEncoded, which reads
// runs as they stand, does not see the command they make.
func scanJoinedPieces(fs *findings, raw string, depth int) {
	if depth >= maxDecodeDepth || fs.kind&(kindSkill|kindCode) == 0 {
		return
	}
	pieces := map[string]string{}
	for _, m := range pieceRE.FindAllStringSubmatch(raw, maxPieces) {
		pieces[m[1]] = m[2]
	}
	type join struct {
		at    [2]int
		parts []string
	}
	var joins []join
	if len(pieces) >= 2 {
		for _, j := range joinRE.FindAllStringIndex(raw, maxPieces) {
			var parts []string
			for _, w := range identRE.FindAllString(raw[j[0]:j[1]], -1) {
				p, ok := pieces[w]
				if !ok {
					parts = nil
					break
				}
				parts = append(parts, p)
			}
			joins = append(joins, join{[2]int{j[0], j[1]}, parts})
		}
	}
	for _, j := range literalsRE.FindAllStringIndex(raw, maxPieces) {
		var parts []string
		for _, m := range quotedPieceRE.FindAllStringSubmatch(raw[j[0]:j[1]], -1) {
			parts = append(parts, m[1])
		}
		joins = append(joins, join{[2]int{j[0], j[1]}, parts})
	}
	// The pieces may be joined many ways: what is decoded in all is
	// bounded, by the file's size and by maxEncodedLen, since each text
	// decoded is read twice (a hostile file of 800 kB of joins cost
	// seconds).
	seen, budget := map[string]bool{}, min(len(raw), maxEncodedLen)
	for _, jn := range joins {
		j, n := jn.at, len(jn.parts)
		s := strings.Join(jn.parts, "")
		if n < 2 || seen[s] || len(s) > maxEncodedLen || len(s) > budget {
			continue
		}
		seen[s], budget = true, budget-len(s)
		decoded, how := decodeRun(s)
		if decoded == "" {
			continue
		}
		// A joined text is there to be used: read it as the prose it may
		// be and as the command it may be.
		for _, k := range []kind{kindText, kindCode} {
			sub := &doc{}
			sub.add("decoded", decoded)
			inner := &findings{d: sub, kind: k}
			inner.scanText(sub.text(), depth+1)
			for _, f := range inner.list {
				fs.prefix = how + " text joined from pieces that decodes to a finding: "
				fs.add(f.Rule, f.Severity, j[0], j[1], f.Message)
				fs.prefix = ""
			}
		}
	}
}

// scanHarvestCode runs the harvest rules of this file that read a file
// whole rather than line by line in scanHarvest.
func scanHarvestCode(fs *findings, raw, prose string, blocks []codeBlock, examples func() []bool, depth int) {
	scanJoinedPieces(fs, raw, depth)
	if fs.kind&(kindSkill|kindCode) == 0 {
		return
	}
	example := examples()
	indented := indentedCode(raw, prose, fs.kind)
	// fenced reports a line of a program, or of a fenced block the prose
	// does not present as an example; code adds commands indented as
	// code (a fenced block's lines are blank in prose, never indented).
	fenced := func(start int, line string) bool {
		if fs.kind == kindCode {
			return true
		}
		i := blockIndex(blocks, start)
		return i >= 0 && !example[i]
	}
	code := func(start int, line string) bool { return fenced(start, line) || indented(start, line) }
	if at := hiddenPushAt(raw, code); at >= 0 {
		e := strings.IndexByte(raw[at:], '\n')
		if e < 0 {
			e = len(raw) - at
		}
		fs.add(RuleExfiltrate, SeverityWithhold, at, at+e, "code that pushes the repository to a remote it adds at a fixed address, with the push's output thrown away")
	}
	lower := strings.ToLower(raw)
	// What a script runs is read in its programs and the skill's fenced
	// blocks; an indented line of a reference is more often an example.
	if at := remoteCodeAt(raw, lower, fenced); at >= 0 { // remote_code.go
		fs.add(RuleHidden, SeverityWithhold, at, lineEnd(raw, at), "code that runs what it downloads, which no one reviewing the skill sees")
	}
	if s, e, what := hiddenRunAt(raw, lower, prose, code); s >= 0 { // hidden_install.go
		fs.add(RuleHidden, SeverityWithhold, s, e, what)
	}
	if s, e := hiddenFileSendAt(raw, lower, code); s >= 0 {
		fs.add(RuleExfiltrate, SeverityWithhold, s, e, "code that sends a file to an address hidden from a reader (given as numbers or decoded at run time)")
	}
	if s, e := dnsTunnelAt(raw, lower, code); s >= 0 {
		fs.add(RuleExfiltrate, SeverityWithhold, s, e, "code that encodes data into the names of DNS lookups of a fixed domain, a way out that no request shows")
	}
}

var (
	// encodeRE is code that encodes data as text a name can carry: the
	// shell's encoders, and the libraries of Python, JavaScript, Go, Java,
	// C#, Ruby and PHP.
	encodeRE = mustGate(`(?i)(?:^|[\s|;&($])(?:base64|base32|basenc|xxd|hexdump|od\s+-A)\b|\bb(?:32|64|16)encode\s*\(|\.hex\(\)|toString\(\s*["'](?:hex|base64)["']\s*\)|\bbtoa\s*\(` +
		`|\bEncodeToString\s*\(|\bBase(?:32|64)\.(?:get(?:Url)?Encoder|(?:strict_|urlsafe_)?encode(?:32|64))\b|\bConvert\.To(?:Base64|Hex)String\s*\(|\bbin2hex\s*\(|\bbase64_encode\s*\(|\.unpack1?\(\s*["'](?:H\*|m0?)["']`)
	// dnsLookupCall is a call that looks a name up, in the languages
	// encodeRE knows.
	dnsLookupCall = `\b(?:gethostbyname(?:_ex)?|getaddrinfo|(?:dns|resolver)\.(?:resolve\w*|lookup|query)|net\.Lookup(?:Host|IP|IPAddr|TXT|CNAME|MX|NS|SRV)|\.Lookup(?:Host|IPAddr|TXT|CNAME)|net\.Resolve(?:IP|TCP|UDP)Addr|InetAddress\.get(?:All)?ByName|Dns\.(?:GetHost(?:Addresses|Entry)(?:Async)?|Resolve)|Resolv\.get(?:address|addresses)|dns_get_record|checkdnsrr)\s*\(\s*(?:ctx\s*,\s*|"(?:ip|tcp|udp)\d?"\s*,\s*)?`
	// dataName is a name made of values, the first of them a label of
	// its own, and at least two more labels, written out or values too:
	// f"{c}.{n}.{ZONE}", fmt.Sprintf("%s.%d.%s", …), `${c}.x.io`,
	// $"{chunk}.{i}.x.io".
	dataName = `(?:f|\$|@\$|\$@)?["'` + "`" + `](?:\{[^{}\n]*\}|\$\{[^{}\n]*\}|%[-+# 0-9.]*[sdvxXq])(?:\.(?:\{[^{}\n]*\}|\$\{[^{}\n]*\}|%[-+# 0-9.]*[sdvxXq]|[a-z0-9-]+)){2,}["'` + "`" + `]`
	// concatName is a value joined to a dot and a domain, written out or
	// held in a variable: blob[i:i+60] + '.x.example.net',
	// hex.EncodeToString(k) + "." + zone.
	concatName = `[\w.]+(?:\((?:[^()\n]|\((?:[^()\n]|\([^()\n]*\))*\))*\))?(?:\[[^\]\n]*\])?\s*\+\s*["']\.(?:(?:[a-z0-9-]+\.)+[a-z]{2,}\b|["']\s*\+)`
	// dnsLabelRE is a lookup whose name begins with a value (or a few)
	// and ends in a domain written out: dig "${CHUNK}.data.example.net",
	// dig "${chunk}.${n}.${id}.x.example.net", f"{c}.x.io"
	// to a resolver, dns.resolve(part + '.x.io'), socket.gethostbyname;
	// or a name of values made in the call (net.LookupHost(fmt.Sprintf(
	// "%s.%d.%s", …))).
	dnsLabelRE = mustGate(`(?i)(?:^|[\s|;&(])(?:dig|nslookup|host|drill|Resolve-DnsName)\s+(?:[+-]\S+\s+)*["']?(?:\$\{?\w+\}?|\$\([^()\n]*\))\.(?:(?:\$\{?\w+\}?|\$\([^()\n]*\))\.){0,4}(?:[a-z0-9-]+\.)+[a-z]{2,}\b|` + dnsLookupCall + `(?:(?:f["'{]\{\w+\}|\w+\s*\+\s*["'])\.?(?:[a-z0-9-]+\.)+[a-z]{2,}\b|` + concatName + `|(?:fmt\.Sprintf\(\s*|String\.format\(\s*)?` + dataName + `)`)
	// dnsNameVarRE is a lookup of a name held in a variable, and
	// dataNameAssignRE a variable given a name of values, to be looked
	// up on a later line: name := fmt.Sprintf("%s.%d.%s.%s", …), then
	// net.LookupHost(name).
	dnsNameVarRE     = regexp.MustCompile(`(?i)` + dnsLookupCall + `([A-Za-z_]\w*)\s*[),]`)
	dataNameAssignRE = mustGate(`(?i)(?:^|[\s;(])\$?([A-Za-z_]\w*)\s*:?=\s*(?:(?:fmt\.Sprintf\(\s*|String\.format\(\s*)?` + dataName + `|` + concatName + `)`)
)

// dnsTunnelAt returns the line of code that looks up names made of data
// it encoded, under a domain written out or made at run time: DNS
// tunnelling, which carries a file out through the resolver however the
// network is watched. -1 when there is none.
func dnsTunnelAt(raw, lower string, code func(int, string) bool) (int, int) {
	if !dnsWords.in(lower) || !encodeWords.in(lower) {
		return -1, -1
	}
	encoded := false
	var names map[string]bool // variables given a name of values
	for at, end := 0, 0; at < len(raw); at = end + 1 {
		end = lineEnd(raw, at)
		low := lineOf(lower, raw, at, end)
		enc, lookup := encodeWords.in(low), dnsWords.in(low)
		if !enc && !encoded || !code(at, raw[at:end]) {
			continue
		}
		line := raw[at:end]
		// The data is encoded on this line or one before it.
		if enc && encodeRE.MatchString(line) {
			encoded = true
		}
		if !encoded {
			continue
		}
		if name := dataNameAssigned(line); name != "" {
			if names == nil {
				names = map[string]bool{}
			}
			names[name] = true
		}
		if lookup && (dnsLabelRE.MatchString(line) || names[lookupVar(line)]) {
			return at, end
		}
	}
	return -1, -1
}

// dataNameAssigned is the variable a line gives a name of values, or "".
func dataNameAssigned(line string) string {
	if !strings.Contains(line, "=") || !strings.ContainsAny(line, "{%+") {
		return ""
	}
	if m := dataNameAssignRE.FindStringSubmatch(line); m != nil {
		return m[1]
	}
	return ""
}

// lookupVar is the variable whose value a line looks up, or "".
func lookupVar(line string) string {
	if m := dnsNameVarRE.FindStringSubmatch(line); m != nil {
		return m[1]
	}
	return ""
}

// The words, in lower case, that every match of encodeRE and of
// dnsLabelRE holds, and that a hidden address holds: a line or a text
// without them is passed over without running the expressions.
var (
	encodeWords     = newWordSet("base64", "base32", "basenc", "xxd", "hexdump", "od", "encode", ".hex()", "tostring(", "btoa", "tohexstring", "bin2hex", "unpack")
	dnsWords        = newWordSet("dig", "nslookup", "host", "drill", "resolve-dnsname", "gethostbyname", "getaddrinfo", "dns.", "resolver.", "lookup", "resolveipaddr", "resolvetcpaddr", "resolveudpaddr", "byname", "resolv.", "dns_get_record", "checkdnsrr")
	hiddenHostWords = newWordSet("atob", "b64decode", "base64", "fromcharcode", "buffer.from")
)

// numericHost reports a text that holds an address given as numbers
// (://203.0.113.7), as hiddenHostRE's last branch needs.
func numericHost(lower string) bool {
	for i := strings.Index(lower, "://"); i >= 0; {
		if j := i + 3; j < len(lower) && '0' <= lower[j] && lower[j] <= '9' {
			return true
		}
		next := strings.Index(lower[i+3:], "://")
		if next < 0 {
			return false
		}
		i += 3 + next
	}
	return false
}

// fileSentRE is a request that carries a file of the machine: curl's
// @file and uploads, wget's posted file, a client's files=.
var fileSentRE = mustGate(`(?i)\s(?:-d|--data(?:-binary|-raw|-urlencode)?|-F|--form)\s*[=\s]\s*["']?(?:\w+=)?@["']?[^\s"'@-]|\s(?:-T|--upload-file)[=\s]+\S|--post-file[=\s]+\S|\bfiles\s*=`)

// hiddenFileSendAt returns the command line of code that sends a file to
// an address a reader cannot see: a public address given as numbers, or
// one decoded at run time. A skill that names its hosts has no reason to
// hide where its files go; -1 when there is none.
func hiddenFileSendAt(raw, lower string, code func(int, string) bool) (int, int) {
	if !containsAny(lower, []string{"@", "-t", "upload-file", "post-file", "files"}) || !hiddenHostWords.in(lower) && !numericHost(lower) {
		return -1, -1
	}
	for at, end := 0, 0; at < len(raw); at = end + 1 {
		end = lineEnd(raw, at)
		end = continuedLineEnd(raw, end)
		line := continuedRE.ReplaceAllString(raw[at:end], " ")
		if !netCallWords.in(lineOf(lower, raw, at, end)) || !netCallRE.MatchString(line) || !code(at, line) {
			continue
		}
		call := callSegment(line)
		if hiddenHostRE.MatchString(call) && !localHostRE.MatchString(call) && fileSentRE.MatchString(call) {
			return at, end
		}
	}
	return -1, -1
}

// ciSecretLine notes, at the line that ends a command, a CI secret the
// command sends to a host not its service's.
func (f *flow) ciSecretLine(line string, pos int) {
	var cmd string
	cmd, f.code.cont = continued(f.code.cont, line)
	if f.keyAway < 0 && f.code.cont == "" && ciSecretAway(cmd) {
		f.keyAway = pos
	}
}
