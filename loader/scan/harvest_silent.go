package scan

import (
	"regexp"
	"strings"
)

// A fork hides its harvest in a request the skill never mentions: a
// script sends what it holds (a diff, a cache of logins, a file's
// contents) to a fixed host, and throws away whatever comes back, so
// neither the user nor the agent sees it go. An honest script reads its
// answer: it prints it, parses it, fails on it. What marks the hidden
// one is the three together: data sent, to an address written into the
// skill that is neither this machine's nor a placeholder's, with its
// answer and its errors discarded (output to /dev/null, a background
// job, an except that passes, a catch that does nothing). Data sent to a
// catch-all address (a request catcher, a chat's webhook or bot with its
// key written out) goes to whoever holds the address, the skill's
// author, whether or not the answer is read.

var (
	// dataSendRE is a request that carries data: a body, a form, a file,
	// a method that writes.
	dataSendRE = mustGate(`(?i)(?:^|\s)(?:-d|--data(?:-binary|-raw|-urlencode|-ascii)?|-F|--form|-T|--upload-file|--json|--post-data|--post-file|--body-data|--body-file)(?:[\s=]|$)` +
		`|\s-X\s*["']?(?:POST|PUT|PATCH)\b|\b(?:data|json|files|body|content)\s*[=:]|\.(?:post|put|patch)\s*\(|\bUpload(?:String|Data|File)(?:Async)?\s*\(|\bsendBeacon\s*\(|\s-(?:Body|InFile)\b|\s-Method\s+["']?(?:Post|Put|Patch)\b|\bhttp\.Post(?:Form)?\s*\(|\bmethod\s*[:=]\s*["'](?:POST|PUT|PATCH)["']`)
	// discardRunRE is a shell command whose answer no one sees: its
	// output thrown away, run in the background, its failure ignored.
	discardRunRE = mustGate(`(?:&>|[^2]>|^>)\s*/dev/null\b|\s-o\s*/dev/null\b|\|\|\s*(?:true|:)\s*(?:\)|;|$)|[^&]&\s*\)?\s*(?:;|$)|\|\s*Out-Null\b|>\s*\$null\b|^\s*_(?:\s*,\s*_)?\s*=\s*http\.|^\s*go\s+(?:http\.|func\b)`)
	// catchAllRE is an address that takes whatever is sent to it and
	// shows it to whoever holds it: a request catcher, a tunnel, a chat's
	// webhook with its key written out. A skill's code that sends there
	// sends to its author.
	catchAllRE = mustGate(`(?i)\b(?:` + requestCatchers + `)\b|\bdiscord(?:app)?\.com/api/webhooks/\d{6,}/[\w-]{20,}|\bhooks\.slack\.com/services/T\w+/B\w+/\w{8,}|\bapi\.telegram\.org/bot\d+:[\w-]{20,}`)
	// botTokenRE is a Telegram bot's key written out: a request to the
	// bot API built from it sends to the chats of the key's owner.
	botTokenRE = regexp.MustCompile(`\b\d{8,10}:[\w-]{30,}\b`)
	// emptyCatchRE is a handler that does nothing with a failure.
	emptyCatchRE = regexp.MustCompile(`\.catch\(\s*(?:\(\s*\w*\s*\)|\w+)\s*=>\s*(?:\{\s*\}|null|undefined|void\s+0|0|false)\s*\)|\.catch\(\s*function\s*\(\s*\w*\s*\)\s*\{\s*\}\s*\)|\bcatch\s*(?:\(\s*\w*\s*\))?\s*\{\s*\}|\brescue\s+(?:\w+\s+)?nil\b`)
	// passBodyRE is what an except that swallows a failure does.
	passBodyRE = regexp.MustCompile(`^(?:pass|\.\.\.|return(?:\s+None)?|continue|break|None)\s*(?:#.*)?$`)
)

// silentSends adds, to each file of a skill, a request of its code that
// sends data to a fixed host with its answer discarded, or to a
// catch-all address.
func silentSends(r *skillReading, scanned []*findings) {
	// The skill's words are read only for a request that needs them.
	unnamed := func(host string) bool { return !r.named().namesWord(host) }
	for i, raw := range r.texts {
		if !strings.Contains(raw, "://") || !dataSendRE.mayMatch(raw) {
			continue
		}
		for _, u := range r.unitsOf(i) {
			if u.prose || !strings.Contains(u.text, "://") {
				continue
			}
			if at, end, host, catchAll := u.silentSend(unnamed); at >= 0 {
				what := "code that sends data to " + host + " and discards the answer, so no one sees it go"
				if catchAll {
					what = "code that sends data to " + host + ", an address that shows whatever it gets to whoever holds it"
				}
				scanned[i].add(RuleExfiltrate, SeverityWithhold, u.start+at, u.start+min(end, at+200), what)
				break
			}
		}
	}
}

// silentSend returns the first request of the unit that sends data to a
// catch-all address (catchAll), or, with its answer discarded, to a fixed
// host other than this machine's, a placeholder's, its key's service's
// or one the skill names as a word (unnamed), and the host; or -1.
func (u sendUnit) silentSend(unnamed func(host string) bool) (at, end int, host string, catchAll bool) {
	urls := map[string][]string{} // a name set to an address: its hosts
	carries := map[string]bool{}  // a name set to a request that carries data
	catchers := map[string]bool{} // a name set to a catch-all address
	for _, st := range statements(u.text) {
		text := u.text[st[0]:st[1]]
		if commentLine(text) {
			continue
		}
		send := sendCallRE.MatchString(text)
		// A key in a header is data sent as much as a body is.
		data := dataSendRE.MatchString(text) || dataArgument(text) || send && keyInHeader(text)
		// Only a statement that sends, carries data or writes out an
		// address sets a name this reading follows.
		var names []string
		if send || data || strings.Contains(text, "://") {
			names = setNames(text)
		}
		caught := strings.Contains(text, "://") && (catchAllRE.MatchString(text) || strings.Contains(text, "api.telegram.org/bot") && botTokenRE.MatchString(u.text))
		// The hosts a statement names: those a name it sets holds, and
		// those a request it makes goes to.
		var hosts []string
		if len(names) > 0 || send {
			hosts = sendHosts(text, urls, nil, false)
		}
		if len(names) > 0 {
			for _, name := range names {
				if len(hosts) > 0 {
					urls[name] = addWords(urls[name], hosts)
				}
				if data {
					carries[name] = true
				}
				if caught {
					catchers[name] = true
				}
			}
		}
		// A request built (req = Request(url, data=…)) is sent where
		// the name is used.
		if !send || len(names) > 0 && builtOnly(text) {
			continue
		}
		if len(carries) > 0 || len(catchers) > 0 {
			for _, w := range identRE.FindAllString(text, -1) {
				data = data || carries[w]
				caught = caught || catchers[w]
			}
		}
		if !data {
			continue
		}
		if caught && len(hosts) > 0 {
			return st[0], st[1], hosts[0], true
		}
		if !discarded(u.text, st, text, len(names) > 0) {
			continue
		}
		services := secretsIn(text, nil, false).services
		for _, host := range hosts {
			if !ownHost(host, services) && unnamed(host) {
				return st[0], st[1], host, false
			}
		}
	}
	return -1, -1, "", false
}

// dataArgument reports a call of urlopen given data as its second
// argument (urlopen(url, body)), which dataSendRE cannot tell from a
// timeout.
func dataArgument(text string) bool {
	i := strings.Index(text, "urlopen(")
	if i < 0 {
		return false
	}
	args := callArgs(text[i+len("urlopen("):])
	depth := 0
	for j, c := range args {
		switch c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				rest := strings.TrimSpace(args[j+1:])
				return rest != "" && !strings.HasPrefix(rest, "timeout") && !strings.HasPrefix(rest, "context")
			}
		}
	}
	return false
}

// builtOnly reports a statement that builds a request and sends nothing.
func builtOnly(text string) bool {
	return strings.Contains(text, "Request(") && !strings.Contains(text, "urlopen") && !strings.Contains(text, "fetch(")
}

// discarded reports whether the answer to the request at st of code is
// thrown away: by the command itself, or, when the statement keeps no
// answer in a name, by the try or promise around it.
func discarded(code string, st [2]int, text string, kept bool) bool {
	// A beacon is sent for no answer at all.
	if discardRunRE.MatchString(text) || strings.Contains(text, "sendBeacon(") {
		return true
	}
	if kept {
		return false
	}
	if emptyCatchRE.MatchString(text) {
		return true
	}
	// A promise's catch may follow on the next lines.
	after := code[st[1]:]
	if n := nthLine(after, 3); emptyCatchRE.MatchString(after[:n]) {
		return true
	}
	return swallowedInTry(code, st[0])
}

// nthLine returns the offset of the end of the n-th line of s.
func nthLine(s string, n int) int {
	at := 0
	for ; n > 0; n-- {
		i := strings.IndexByte(s[at:], '\n')
		if i < 0 {
			return len(s)
		}
		at += i + 1
	}
	return at
}

// maxTryLines bounds how far from a request its try and except are
// looked for: a script of thousands of requests in one long block costs
// a bounded look around each.
const maxTryLines = 64

// swallowedInTry reports whether the line at pos of Python code sits in a
// try whose except does nothing, or in a with that suppresses failures.
func swallowedInTry(code string, pos int) bool {
	lineStart := strings.LastIndexByte(code[:pos], '\n') + 1
	indent := indentOf(code[lineStart:])
	// Up: the nearest line less indented than the request's opens its
	// block, read within maxTryLines.
	for at, n := lineStart-1, 0; at > 0 && indent > 0 && n < maxTryLines; n++ {
		start := strings.LastIndexByte(code[:at], '\n') + 1
		line := code[start:at]
		at = start - 1
		if strings.TrimSpace(line) == "" {
			continue
		}
		ind := indentOf(line)
		if ind >= indent {
			continue
		}
		head := strings.TrimSpace(line)
		if strings.HasPrefix(head, "with ") && strings.Contains(head, "suppress(") {
			return true
		}
		if head != "try:" {
			return false
		}
		return exceptPasses(code[lineEnd(code, pos):], ind)
	}
	return false
}

// exceptPasses reports whether the first except at indentation ind in
// code does nothing.
func exceptPasses(code string, ind int) bool {
	for at, n := 0, 0; at < len(code) && n < maxTryLines; n++ {
		end := lineEnd(code, at)
		line := code[at:end]
		at = end + 1
		if strings.TrimSpace(line) == "" || indentOf(line) > ind {
			continue
		}
		head := strings.TrimSpace(line)
		if indentOf(line) < ind || !strings.HasPrefix(head, "except") {
			return false
		}
		_, body, _ := strings.Cut(head, ":")
		if body = strings.TrimSpace(body); body != "" {
			return passBodyRE.MatchString(body)
		}
		if at >= len(code) {
			return false
		}
		next := code[at:lineEnd(code, at)]
		return indentOf(next) > ind && passBodyRE.MatchString(strings.TrimSpace(next))
	}
	return false
}

// indentOf returns how far a line is indented, a tab counting as four.
func indentOf(line string) int {
	n := 0
	for _, c := range line {
		switch c {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n
		}
	}
	return n
}

// keyInHeader reports a request that carries a secret of the environment
// in a header (-H "Authorization: $CARGO_REGISTRY_TOKEN").
func keyInHeader(text string) bool {
	for _, m := range headerArgRE.FindAllString(text, 4) {
		if len(secretsIn(m, nil, false).names) > 0 {
			return true
		}
	}
	return false
}
