package scan

import (
	"regexp"
	"strings"
)

// A skill's script is read as a program, whatever its language: one file
// or block that reads a store of credentials, walks the whole environment
// or captures the clipboard or the screen, and also sends data to a host
// it names, is a harvest, however its data flows from the one to the
// other (a dict, a buffer, a form, a loop, a function). The line-by-line
// rules of harvest.go follow a flow only in the forms they know; the
// program does not need to be followed when it holds both ends, so long
// as the ends are strong: a store no program reads to call a service in
// its own name (an SSH key, a browser's cookies, a wallet, a shell's
// history; not a .env file, a CLI's login or the agent's own, which a
// skill's client reads for its key), and a host written out that is not
// the store's own service.

// scriptStoreKinds are the stores a script has no reason to read and send
// from: what harvesters take. A CLI's own login (~/.pgpass, doctl's,
// heroku's) is left out: a skill's client reads it to call that service
// and others beside it.
var scriptStoreKinds = map[string]bool{
	"ssh": true, "aws": true, "gcloud": true, "azure": true, "kube": true, "docker": true,
	"registry": true, "git": true, "gpg": true, "browser": true, "keychain": true,
	"wallet": true, "history": true, "messages": true, "search": true,
}

var (
	// envWalkRE walks or serializes the whole environment, in the
	// languages scripts are written in (a child process given a copy of
	// it, {...process.env}, env={**os.environ}, is not a walk).
	envWalkRE = mustGate(`(?i)\bfor\s+[^\n]{0,40}\bin\s+os\.environ\b|\bos\.environ\.items\(\)|\bdict\(\s*os\.environ\s*\)|\bjson\.dumps\(\s*(?:dict\()?\s*os\.environ\b|\brange\s+os\.Environ\(\)|\bObject\.(?:entries|keys|values)\(\s*process\.env\s*\)|\bJSON\.stringify\(\s*process\.env\b|\bENV\.(?:to_h|to_a|each|select|filter|map)\b|\bkeys\s*\(?\s*%ENV\b|\beach\s*\(?\s*%ENV\b|\bstd::env::vars\(\)|\bGet-ChildItem\s+env:|(?:^|[\s;&|(])(?:env|printenv)\s*\||\$\(\s*(?:env|printenv)\s*\)`)
	// scriptSendRE is a send over the network in any of the languages: an
	// HTTP request with a body, a form, a socket written to, mail.
	scriptSendRE = mustGate(`(?is)\bhttp\.(?:Post|PostForm)\s*\(|\bhttp\.NewRequest\s*\(\s*"(?:POST|PUT)"|\bnet\.Dial(?:Timeout)?\s*\(|\bTcpStream::connect\b|\bUdpSocket::bind\b|\bIO::Socket::INET\b|\bLWP::UserAgent\b|->post\s*\(|\bNet::HTTP\.post(?:_form)?\b|\bNet::SMTP\b|\bdns\.(?:lookup|resolve\w*)\s*\(\s*` + "`" + `[^` + "`" + `\n]*\$\{|\bsocket\.gethostbyname\s*\(\s*f["']|\b(?:gsutil|gcloud\s+storage)\s+(?:-\w+\s+)*cp\b[^\n]*[\s"']gs://|\baws\s+s3\s+cp\b[^\n]*[\s"']s3://|\bNet::HTTP::Post\b|\bsocket\.(?:socket|create_connection)\b|\.sendall\s*\(|\bsmtplib\b|\bnodemailer\b|\bnet\.(?:connect|createConnection)\s*\(|\bdgram\b|\brequests\.(?:post|put|patch)\s*\(|\bhttpx\.(?:post|put|patch)\s*\(|\burlopen\s*\([^)]{0,200}?\b(?:data|req|request)\b|\bRequest\s*\([^)]{0,200}?\bdata\s*=|\bfetch\s*\([^;]{0,300}?\bmethod\s*:\s*["'](?:POST|PUT)|\baxios\.(?:post|put)\s*\(|\bhttps?\.request\s*\(|\bcurl\b[^\n]*\s(?:-d|--data\S*|-F|--form|-T|--upload-file)\b|\bInvoke-(?:RestMethod|WebRequest)\b[^\n]*-(?:Method\s+(?:Post|Put)|Body|InFile)\b|\bURI\.open\s*\(\s*"https?://[^"\n]*#\{`)
	// scriptHostRE is a host a script names: in an address, or a socket's
	// host and port.
	scriptHostRE = regexp.MustCompile(`(?i)https?://([\w-]+(?:\.[\w-]+)+)|["']([\w-]+(?:\.[\w-]+)*\.[a-z]{2,})(?::\d{2,5})["']|\bPeerAddr\s*=>\s*["']([\w-]+(?:\.[\w-]+)+)` +
		// A request's options, a mail server, a cloud bucket, the domain a
		// lookup's name ends in.
		`|\bhost(?:name)?\s*:\s*["']([\w-]+(?:\.[\w-]+)+)["']|\b(?:SMTP|SMTP_SSL|Net::SMTP->new|create_connection)\s*\(\s*["']([\w-]+(?:\.[\w-]+)+)["']|\b(?:gs|s3)://([\w.-]+)|\.([\w-]+\.(?:com|net|org|io|dev|app|xyz|site|top|cloud|co|me|info|sh|ai|ru|cn|cc|live|online|link|tech|host|pro|icu|shop))` + "`")
	// ownServiceHostRE is a host of the services whose logins the stores
	// hold, and this machine: a script that reads the AWS credentials to
	// call AWS sends them nowhere else.
	ownServiceHostRE = regexp.MustCompile(`(?i)(?:^|\.)(?:amazonaws\.com|aws\.amazon\.com|github\.com|githubusercontent\.com|googleapis\.com|google\.com|azure\.com|microsoft\.com|microsoftonline\.com|windows\.net|docker\.io|docker\.com|npmjs\.org|npmjs\.com|pypi\.org|rubygems\.org|crates\.io|gitlab\.com|bitbucket\.org|localhost)$|^127\.|^0\.0\.0\.0$`)
)

// scanScriptHarvest reports a script (a file of code, or a block a skill
// runs, at off in its text) that reads a store of credentials, walks the
// environment or captures the clipboard or the screen, and sends to a
// host that is not the store's own service.
func scanScriptHarvest(fs *findings, raw string, off int) {
	if !scriptSendRE.mayMatch(raw) {
		return
	}
	read := -1
	for at := 0; at < len(raw) && read < 0; at = lineEnd(raw, at) + 1 {
		line := raw[at:lineEnd(raw, at)]
		if !commentLine(line) && (scriptReadsStore(line) || envWalkRE.MatchString(line) || strings.Contains(line, "process.env") && envInField(line) || captureWords.in(strings.ToLower(line)) && captureRE.MatchString(line)) && !showsText(line) {
			read = at
		}
	}
	if read < 0 {
		read = storeReadViaName(raw)
	}
	// A command continued over lines sends from the line it starts on.
	sends := raw
	if strings.Contains(raw, "\\\n") {
		sends = continuedRE.ReplaceAllString(raw, " ")
	}
	if read < 0 || !scriptSendRE.MatchString(sends) || !namesForeignHost(raw, serviceWords(raw[read:lineEnd(raw, read)])) {
		return
	}
	fs.add(RuleExfiltrate, SeverityWithhold, off+read, off+lineEnd(raw, read), "a script that reads a store of credentials, the whole environment or a capture and sends data to a host it names")
}

// storeReadViaName returns where a script puts a store's path in a name
// (D="$HOME/.azure", CFG = "~/.kube/config") that a later line reads a
// file or sends through, or -1. A name set so and never used is a
// setting (AWS_CONFIG_FILE=~/.aws/config for a tool to find).
func storeReadViaName(raw string) int {
	names := map[string]int{}
	for at := 0; at < len(raw); at = lineEnd(raw, at) + 1 {
		line := raw[at:lineEnd(raw, at)]
		if commentLine(line) {
			continue
		}
		// A line reads through a name set before it, then may set one.
		if len(names) > 0 && (fileReadRE.MatchString(line) || scriptSendRE.MatchString(line)) {
			for _, w := range identRE.FindAllString(line, -1) {
				if at, ok := names[w]; ok {
					return at
				}
			}
		}
		if name := storeAssigned(line); name != "" {
			names[name] = at
		}
	}
	return -1
}

// storeAssigned returns the name a line of a script puts a store's path
// in, other than a public key's, or "".
func storeAssigned(line string) string {
	if !strings.Contains(line, "=") {
		return ""
	}
	m := assignRE.FindStringSubmatch(line)
	if m == nil {
		return ""
	}
	path := pathPieces(line)
	if !storeWords.in(strings.ToLower(path)) {
		return ""
	}
	folded := gateFold(path)
	for _, k := range storeKinds {
		if !scriptStoreKinds[k.kind] || !k.re.mayMatchFolded(folded) {
			continue
		}
		for _, s := range k.re.Regexp.FindAllStringIndex(path, 4) {
			if !storeIsPublic(path, s[1]) {
				return m[1]
			}
		}
	}
	return ""
}

// scriptReadsStore reports a line that names a store of scriptStoreKinds,
// other than as a setting's value or a public key.
func scriptReadsStore(line string) bool {
	line = pathPieces(line)
	folded := gateFold(line)
	for _, k := range storeKinds {
		if !scriptStoreKinds[k.kind] || !k.re.mayMatchFolded(folded) {
			continue
		}
		if namesStoreKind(line, k.re) {
			return true
		}
	}
	return false
}

// pathPiecesRE is where a path is given in pieces: the arguments of a
// join (path.join(home, '.config', 'gh', 'hosts.yml')), a shell
// variable's default (${DOCKER_CONFIG:-$HOME/.docker}/config.json).
var (
	pathPiecesRE   = regexp.MustCompile(`["']\s*,\s*["']`)
	shellDefaultRE = regexp.MustCompile(`\$\{\w+:-([^}\n]*)\}`)
)

// pathPieces joins the pieces of a path a line gives in pieces.
func pathPieces(line string) string {
	if strings.Contains(line, ":-") {
		line = shellDefaultRE.ReplaceAllString(line, "$1")
	}
	if strings.Contains(line, "oin(") || strings.Contains(line, "Path(") {
		line = pathPiecesRE.ReplaceAllString(line, "/")
	}
	return line
}

// messageLineRE is a line that shows the user a message (warn "…",
// console.log("…"), print("…")). An echo or printf is printsText's.
var messageLineRE = regexp.MustCompile(`^\s*(?:warn|info|error|die|log|say|puts|print|println|console\.(?:log|warn|error|info)|logger\.\w+|Write-(?:Host|Output|Warning))\s*\(?\s*["'` + "`" + `]`)

// showsText reports a line of a script that only shows text: the store it
// names is words to read, not a file it reads. A message that reads a
// file as it shows it (print("k", open(key).read())) reads it.
func showsText(line string) bool {
	return printsText(line) || messageLineRE.MatchString(line) && !fileReadRE.MatchString(line) && !strings.Contains(line, "$(")
}

// envFieldRE is the whole environment put in a field of what is sent
// ({ctx: process.env}); a child process's {env: process.env} is not.
var envFieldRE = regexp.MustCompile(`\b(\w+)\s*:\s*process\.env\s*(?:[,}]|$)`)

// envInField reports a line that puts the whole environment in a field
// other than a child process's env.
func envInField(line string) bool {
	for _, m := range envFieldRE.FindAllStringSubmatch(line, 4) {
		if m[1] != "env" {
			return true
		}
	}
	return false
}

// namesForeignHost reports whether a script names a host that is not this
// machine, the stores' own services, or a service its read names (the
// Solana CLI's ~/.config/solana/id.json, sent to a solana.com node).
func namesForeignHost(raw string, service []string) bool {
	for _, m := range scriptHostRE.FindAllStringSubmatch(raw, 64) {
		for _, host := range m[1:] {
			if host == "" || ownServiceHostRE.MatchString(host) && !sinkHostOfService(host) {
				continue
			}
			own := false
			for _, w := range service {
				own = own || strings.Contains(strings.ToLower(host), w)
			}
			if !own {
				return true
			}
		}
	}
	return false
}

// sinkHostOfService reports a host of one of the stores' services that
// serves anyone's content rather than the service's own API: a form, a
// bucket a link names, a chat's incoming hook. No store's login is sent
// there to call the service.
func sinkHostOfService(host string) bool {
	h := strings.ToLower(host)
	return h == "docs.google.com" || h == "forms.gle" || h == "hooks.slack.com" || strings.HasSuffix(h, ".blob.core.windows.net") || strings.HasSuffix(h, ".firebaseio.com") || strings.HasSuffix(h, ".appspot.com")
}

// serviceWordRE is a word of a path under a configuration folder: the
// program, and so the service, whose file it is.
var serviceWordRE = regexp.MustCompile(`(?i)\.config[/\\]([a-z][a-z0-9-]{3,})[/\\]`)

// serviceWords returns the services a line's store belongs to, by the
// folder it is under.
func serviceWords(line string) []string {
	var out []string
	for _, m := range serviceWordRE.FindAllStringSubmatch(line, 4) {
		out = append(out, strings.ToLower(m[1]))
	}
	return out
}

// commentLine reports a line that is a comment in the languages scripts
// are written in.
func commentLine(line string) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, "#") || strings.HasPrefix(t, "//") || strings.HasPrefix(t, "*") || strings.HasPrefix(t, "/*")
}

// scriptHarvest reads a file of code as one script, and each block of a
// skill that it runs (not one its prose shows as an attack to recognise)
// as another.
func scriptHarvest(fs *findings, raw string, blocks []codeBlock, examples func() []bool) {
	if fs.kind == kindCode {
		scanScriptHarvest(fs, raw, 0)
		return
	}
	for i, b := range blocks {
		if b.run && !examples()[i] {
			scanScriptHarvest(fs, raw[b.start:b.end], b.start)
		}
	}
}
