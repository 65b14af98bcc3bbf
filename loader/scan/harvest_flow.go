package scan

import (
	"regexp"
	"strings"
)

// Where a harvest sends what it read, beyond the plain sends of sendRE, and
// reads that are not a file's: the published harvesters (Snyk's ToxicSkills,
// Koi's ClawHavoc, the ClawHub weather skill) read a credential through the
// command that prints it (gh auth token, the keychain's security tool), send
// it through a name looked up (DNS), a gist, a pastebin, a catch-all webhook
// or a fetch() spread over several lines, or carry it into a request through
// a variable. A credential used where it belongs (an Authorization header)
// is not read.

var (
	// secretCmdRE is a command that prints a credential.
	secretCmdRE = regexp.MustCompile(`(?i)\bgh\s+auth\s+token\b|\bgit\s+credential\s+fill\b|\bgit\s+config\s+(?:--\S+\s+)*\S*(?:token|extraheader|password)\b|\bsecurity\s+(?:find-(?:generic|internet)-password|dump-keychain)\b|\bgcloud\s+auth\s+(?:application-default\s+)?print-access-token\b|\baz\s+account\s+get-access-token\b|\baws\s+(?:configure\s+(?:get\s+\S*secret\S*|export-credentials)|sts\s+get-session-token)\b|\bkubectl\s+config\s+view\s+(?:--\S+\s+)*--raw\b|\bdocker-credential-[\w-]+\s+get\b|` + metadataCredPath + `|\bbrowser_cookie3\.\w+\s*\(|\bpycookiecheat\b` +
		// Secret managers' reads that print the values, and the states of
		// infrastructure tools, which hold every secret they provisioned.
		`|\bkubectl\s+get\s+secrets?\b[^\n|;&]*?\s-o\s*=?\s*(?:json|yaml|jsonpath|go-template)|\baws\s+secretsmanager\s+get-secret-value\b|\baws\s+ssm\s+get-parameters?(?:-by-path)?\b[^\n|;&]*--with-decryption\b|\bgcloud\s+secrets\s+versions\s+access\b|\baz\s+keyvault\s+secret\s+(?:show|download)\b|\bvault\s+(?:kv\s+get|read)\b|\bop\s+(?:read|item\s+get)\b|\bdoppler\s+secrets\s+download\b|\brails\s+credentials:show\b|\bansible-vault\s+(?:view|decrypt)\b|\bsops\s+(?:-d|--decrypt|decrypt)\b|\bheroku\s+config\b(?:\s+--json|\s+-s|\s+--shell|\s*(?:[|>)]|$))|\bvercel\s+env\s+pull\b|\bchamber\s+(?:read|export)\b|\bterraform\s+state\s+pull\b|\bpulumi\s+(?:stack\s+export|config)\b[^\n|;&]*--show-secrets\b|\bbw\s+(?:get\s+(?:password|item)|export)\b|\blpass\s+(?:show|export)\b|\bop\s+(?:item\s+list|vault\s+export|export)\b|\bkeepassxc-cli\s+(?:show|export)\b` +
		// The stores of secrets read through their libraries.
		`|\bkeyring\.get_(?:password|credential)\s*\(|\bkeytar\.(?:getPassword|findCredentials)\s*\(|\.get_(?:frozen_)?credentials\s*\(|\bCredRead\w*\s*\(|\bGet-StoredCredential\b|\bsecret-tool\s+lookup\b`)
	// secretSearchRE is a search of the machine's files for credentials
	// by their shape (grep "Authorization: Bearer" in /var/log, "BEGIN …
	// PRIVATE KEY" under ~, an AWS key id): it prints what it finds as a
	// command that prints one would. What it searches for is no header,
	// whatever it spells. A search of a project (grep -rn "password" .)
	// or of an answer piped in is an audit or a parse.
	secretSearchRE = mustGate(`(?i)\b(?:grep|egrep|rg|findstr|Select-String)\b[^|\n]{0,80}?(?:authorization:?\s*bearer|\bbearer\s|BEGIN\s+(?:[A-Z]+\s+)?PRIVATE\s+KEY|\bAKIA|aws_secret_access_key|\bapi[_-]?key\b|\bsecret[_-]?key\b|\baccess[_-]?token\b|\bpassw(?:or)?d\b|\bghp_|\bxox[abp]-)[^|\n]*?\s["']?(?:/|~|\$\{?HOME\b|%USERPROFILE%)|` +
		// A search of the home folder or the disk for key files by name.
		`\bfind\s+["']?(?:~|/|\$\{?HOME\b)\S*\s[^|\n]*?-i?name\s+["']?(?:\*\.(?:pem|key|p12|pfx|kdbx|keystore|jks|ppk)|id_(?:rsa|ed25519|ecdsa|dsa)\*?|\*?\.env|wallet[\w.*]*|\*?credentials[\w.*]*)["']?(?:\s|$)`)
	// secretSearchWords are secretSearchRE's commands, looked for in the
	// lowered line the caller has, before the expression lowers it again.
	secretSearchWords = newWordSet("grep", "rg", "findstr", "select-string", "find ")
	secretCmdWords    = newWordSet("169.254.", "meta-data/iam", "computemetadata", "identity/oauth2", "metadata.google", "metadata.goog", "fd00:ec2", "aws_container_credentials", "cookie3", "pycookiecheat", "auth token", "credential fill", "git config", "find-generic", "find-internet", "dump-keychain", "print-access-token", "get-access-token", "export-credentials", "aws configure", "get-session-token", "--raw", "docker-credential", "export-secret", "keyring.", "keytar.", "_credentials(", "credread", "get-storedcredential", "secret-tool", "get secret", "secretsmanager", "--with-decryption", "secrets versions", "keyvault secret", "vault kv", "vault read", "op read", "op item", "doppler secrets", "bw get", "bw export", "lpass ", "op export", "op vault", "keepassxc-cli", "credentials:show", "ansible-vault", "sops ", "heroku config", "env pull", "chamber ", "state pull", "show-secrets")

	// headerArgRE is a credential put where it is used: a header of a
	// request ("Authorization": "Bearer " + tok).
	headerArgRE = regexp.MustCompile(`(?i)(?:-H|--header)\s*=?\s*(?:"[^"\n]*"|'[^'\n]*'|\S+)|["']?authorization["']?\s*[:=]\s*(?:f?"[^"\n]*"|f?'[^'\n]*'|\S+)(?:\s*\+\s*\w+)*|\bbearer\s+\S+`)

	// netCallRE is a call that reaches the network, to send or to fetch: a
	// fetch carries data in its address.
	netCallRE    = regexp.MustCompile(`(?i)\b(?:curl|wget|nc|ncat|socat|dig|nslookup|drill|requests\.\w+|httpx\.\w+|aiohttp|urlopen|urllib\.request|fetch|axios|got|superagent|needle|http\.(?:get|request)|https\.(?:get|request)|Invoke-RestMethod|Invoke-WebRequest|irm|iwr|sendBeacon)\b`)
	netCallWords = newWordSet("curl", "wget", "nc ", "ncat", "socat", "dig ", "nslookup", "drill ", "requests.", "httpx.", "aiohttp", "urlopen", "urllib", "fetch", "axios", "got(", "got.", "superagent", "needle(", "http.get", "http.request", "https.get", "https.request", "invoke-", "irm ", "iwr ", "sendbeacon")

	// postMethodRE is the method of a request whose call spans lines
	// (fetch(url, {\n method: 'POST', body }).
	postMethodRE = mustGate(`(?i)\bmethod\s*[:=]\s*["'](?:POST|PUT|PATCH)["']`)
	// multiLineCallRE opens such a call.
	multiLineCallRE    = regexp.MustCompile(`(?i)\b(?:fetch|axios|got|ky|request|https?\.request|urllib\.request\.Request)\s*\(`)
	multiLineCallWords = newWordSet("fetch", "axios", "got", "ky", "request")

	// assignRE is the name a line assigns (Python, JavaScript, a shell).
	assignRE = mustGate(`^\s*(?:export\s+|const\s+|let\s+|var\s+|local\s+)?([A-Za-z_]\w*)\s*(?::\s*[\w\[\], .|]+)?=[^=]`)

	// requestCatchers are the hosts that take any request and show it to
	// whoever holds the address: request catchers and tunnels.
	requestCatchers = `webhook\.site|requestbin\.\w+|requestcatcher\.com|pipedream\.net|hookbin\.com|beeceptor\.com|ngrok(?:-free)?\.(?:io|app|dev)|trycloudflare\.com|interact\.sh|oast\.(?:fun|me|pro|live|site|online)|burpcollaborator\.net`
	// sinkHostRE is a host that takes whatever is sent to it and shows it
	// to whoever made it: catch-all webhooks, tunnels, out-of-band
	// collectors, pastebins, chat webhooks.
	sinkHostRE = regexp.MustCompile(`(?i)\b(?:` + requestCatchers + `)\b|\bpastebin\.com\b|\bpaste\.ee\b|\bhastebin\.com\b|\btransfer\.sh\b|\b0x0\.st\b|\btermbin\.com\b|\bix\.io\b|\bsprunge\.us\b|\bdiscord(?:app)?\.com/api/webhooks\b|\bhooks\.slack\.com/services/T\w+/B\w+/\w+|\bapi\.telegram\.org/bot\d+:[\w-]+|\bfile\.io\b|\bcatbox\.moe\b|\bgofile\.io\b|\btmpfiles\.org\b|\bbashupload\.com\b|\btemp\.sh\b|\bpaste\.rs\b|\bdpaste\.(?:com|org)\b`)
	// hiddenHostRE is an address decoded at run time, or a public
	// address given as numbers.
	hiddenHostRE = mustGate(`(?i)\batob\s*\(|\bb64decode\s*\(|\bbase64\s+(?:-d|--decode)\b|\bfromCharCode\s*\(|\bBuffer\.from\([^)\n]*["']base64["']|https?://(?:\d{1,3}\.){3}\d{1,3}\b`)
	// localHostRE is an address that does not leave the machine or its
	// network.
	localHostRE = regexp.MustCompile(`https?://(?:127\.|0\.0\.0\.0|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.)`)

	secretVarWords = newWordSet("_key", "_token", "_secret", "_password", "_credential", "privatekey", "privkey", "seedphrase", "recoveryphrase")

	// shellSecretRE is a shell variable whose name says it holds a secret.
	shellSecretRE = regexp.MustCompile(`\$\{?[A-Z][A-Z0-9]*_[A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|CREDENTIALS?)\}?`)
)

// metadataCredPath is an address of a cloud's instance metadata service
// that answers with a credential: an AWS role's temporary keys (IMDS, or
// ECS's task endpoint), a GCP service account's token or identity, an
// Azure managed identity's token, the user data that often holds secrets.
// The instance's region or zone is no secret.
const metadataCredPath = `(?:169\.254\.169\.254|\[?fd00:ec2::254\]?|metadata\.google\.internal|metadata\.goog|169\.254\.170\.2)[^\s"'` + "`" + `]*?(?:/meta-data/iam\b|/service-accounts\b|/identity/oauth2/token|/user-data|/v2/credentials|/attributes/(?:ssh-keys|sshKeys|kube-env|startup-script)\b)|/latest/meta-data/iam/security-credentials\b|/computeMetadata/v1/instance/service-accounts/[^\s"'` + "`" + `/]*/(?:token|identity)\b|/metadata/identity/oauth2/token\b|169\.254\.170\.2\$\{?AWS_CONTAINER_CREDENTIALS_RELATIVE_URI|\$\{?AWS_CONTAINER_CREDENTIALS_FULL_URI`

// metadataStoreRE names the metadata service's credentials, by address or
// in prose ("the IAM role's credentials from the instance metadata
// service").
var metadataStoreRE = regexp.MustCompile(`(?i)` + metadataCredPath +
	`|\b(?:(?:instance|cloud|ec2|gce|gcp|google|aws|azure|vm)\s+)?metadata\s+(?:service|endpoint|server|api)\b` + inSentence + `{0,120}?\b(?:credentials?|(?:access\s+)?tokens?|keys?)\b` +
	`|\b(?:credentials?|(?:access\s+)?tokens?|keys?)\b` + inSentence + `{0,80}?\b(?:from|of|via|through|in)\s+(?:the\s+)?(?:(?:instance|cloud|ec2|gce|gcp|google|aws|azure|vm)\s+)?(?:metadata\s+(?:service|endpoint|server|api)|imds)\b` +
	`|\bimds\b` + inSentence + `{0,80}?\b(?:credentials?|tokens?)\b`)

// secretCmdRead reports a line that prints a credential, outside a header
// that uses it.
func secretCmdRead(line, lowLine string) bool {
	// A command given as a list of words (subprocess.run(["security",
	// "find-generic-password", …])) is read as the command line.
	if strings.Contains(line, ",") {
		line = argvLine(line)
		lowLine = strings.ToLower(line)
	}
	if secretSearchWords.in(lowLine) && searchesSecrets(line) {
		return true
	}
	return secretCmdWords.in(lowLine) && secretCmdRE.MatchString(headerArgRE.ReplaceAllString(line, " "))
}

// readsFile reports a line that reads a file's contents, by a command
// written out or given as a list of words.
func readsFile(line string) bool {
	return fileReadRE.MatchString(line) || strings.Contains(line, ",") && fileReadRE.MatchString(argvLine(line))
}

// searchesSecrets reports a line that searches the machine's files for
// credentials, not what a pipe feeds it.
func searchesSecrets(line string) bool {
	m := secretSearchRE.FindStringIndex(line)
	return m != nil && !strings.HasSuffix(strings.TrimRight(line[:m[0]], " \t"), "|")
}

// argvRE is where two words of a command given as a list meet: two
// strings, or a string and a call that makes the next word
// (os.path.expanduser("~/.ssh/id_rsa")).
var argvRE = regexp.MustCompile(`["']\s*,\s*\[?\s*(?:["']|([\w.]+\())`)

// argvLine returns a line with a command given as a list of words
// (subprocess.run(["gpg", "--export-secret-keys"]), execFile('security',
// ['find-generic-password', …])) written as the command line.
func argvLine(line string) string { return argvRE.ReplaceAllString(line, " $1") }

// callSegment is a line up to the end of the pipeline stage that calls
// the network: what a later stage does (| base64 -d > out.mp3) is done to
// the answer, not to where the request goes. A pipe inside a command
// substituted into the call ("$(echo … | base64 -d)") or inside quotes
// is the call's own.
func callSegment(line string) string {
	m := netCallRE.FindStringIndex(line)
	if m == nil {
		return line
	}
	depth, quote := 0, byte(0)
	for i := m[1]; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '$' && i+1 < len(line) && line[i+1] == '(':
			depth++
			i++
		case depth > 0:
			if c == '(' {
				depth++
			} else if c == ')' {
				depth--
			}
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '|' && (i+1 == len(line) || line[i+1] != '|') && line[i-1] != '|':
			return line[:i]
		}
	}
	return line
}

// foreignDest reports a line that sends to a catch-all host or to an
// address hidden from a reader.
func foreignDest(line string) bool {
	return sinkHostRE.MatchString(line) || hiddenHostRE.MatchString(line) && !localHostRE.MatchString(line)
}

// A flow follows what a file's code reads into the calls that reach the
// network.
type flow struct {
	tainted      map[string]bool   // names assigned from a read
	own          map[string]bool   // names assigned from a read of an agent's own files
	callAt       int               // the line of the last call that may span lines, or -1
	lines        int               // code lines since that call
	foreign      bool              // a call reaches a catch-all or hidden host
	secretToSink int               // a secret variable sent to such a host, or -1
	wallet       map[string]bool   // names assigned a wallet's private key or recovery phrase
	walletSent   int               // a wallet's key or phrase sent over the network, or -1
	provider     map[string]string // names assigned a provider's key, by provider
	keyAway      int               // a provider's key sent to another host, or -1
	code         codeFlow          // harvest_code.go's state
	// The last line lineSends was asked of, and its answer.
	sendsLine  string
	sendsLow   string
	sendsKnown bool
	sends      bool
}

// lineSends reports whether a line sends by sendRE (lowLine is the line
// lowercased). Several rules ask it of each line in turn: the last answer
// is kept, and sendRE runs once a line.
func (f *flow) lineSends(line, lowLine string) bool {
	if !f.sendsKnown || f.sendsLine != line || f.sendsLow != lowLine {
		f.sendsLine, f.sendsLow, f.sendsKnown = line, lowLine, true
		f.sends = netWords.in(lowLine) && sendRE.MatchString(line)
	}
	return f.sends
}

func newFlow() *flow {
	return &flow{tainted: map[string]bool{}, own: map[string]bool{}, wallet: map[string]bool{}, provider: map[string]string{}, callAt: -1, secretToSink: -1, walletSent: -1, keyAway: -1}
}

// forVarRE is the name a loop takes its items in.
var forVarRE = regexp.MustCompile(`\bfor\s+(?:\(?\s*(?:const|let|var)\s+)?([A-Za-z_]\w*)\s+(?:in|of)\b`)

// readOwn notes the names a line that reads an agent's own files assigns
// or loops over.
func (f *flow) readOwn(line string) {
	if m := assignRE.FindStringSubmatch(line); m != nil {
		f.own[m[1]] = true
	}
	if m := forVarRE.FindStringSubmatch(line); m != nil {
		f.own[m[1]] = true
	}
}

// sendsOwn reports a line that sends a name read from an agent's own
// files, outside a header that uses it.
func (f *flow) sendsOwn(line, lowLine string) bool {
	if len(f.own) == 0 || !(f.lineSends(line, lowLine) || netCallWords.in(lowLine) && netCallRE.MatchString(line)) {
		return false
	}
	for _, w := range identRE.FindAllString(headerArgRE.ReplaceAllString(line, " "), -1) {
		if f.own[w] {
			return true
		}
	}
	return false
}

// sendsTainted reports a line that sends a name read from a secret,
// outside a header or a login that uses it: a call to the network, or
// the body of one that spans lines.
func (f *flow) sendsTainted(line, lowLine string) bool {
	if len(f.tainted) == 0 || !(f.lineSends(line, lowLine) || netCallWords.in(lowLine) && netCallRE.MatchString(line) || f.callAt >= 0 && bodyRE.MatchString(line)) {
		return false
	}
	for _, w := range identRE.FindAllString(authArgRE.ReplaceAllString(headerArgRE.ReplaceAllString(line, " "), " "), -1) {
		if f.tainted[w] {
			return true
		}
	}
	return false
}

// walletSecretRE is a name that says it holds a wallet's private key or
// recovery phrase. A wallet signs where its key is: a request that
// carries one gives the wallet away, whatever the skill calls the host
// ("our balance API", "the analyzer").
var walletSecretRE = regexp.MustCompile(`(?i)^\w*(?:private_?key|priv_?key|mnemonic|seed_?phrase|recovery_?phrase|secret_?phrase|wallet_?seed)\w*$`)

// envReadRE is a value taken from the environment, a file or the user.
var envReadRE = regexp.MustCompile(`\b(?:os\.environ|os\.getenv|process\.env|getenv|readFileSync|readFile|open|input|getpass|prompt)\b`)

// carry notes the names a line of code that reads nothing assigns from a
// name read from a secret (A=${KEY:0:800}, half = key[:n]): what is split
// or re-encoded still carries the secret; a secret used in a request's
// header does not pass into its answer. A name assigned a wallet's key
// from the environment, a file or the user is noted apart.
func (f *flow) carry(line string) {
	f.carryMore(line)
	m := assignRE.FindStringSubmatchIndex(line)
	if m == nil {
		return
	}
	name, rhs := line[m[2]:m[3]], headerArgRE.ReplaceAllString(line[m[1]-1:], " ")
	if e := secretEnvRE.FindStringSubmatch(rhs); e != nil && !netCallRE.MatchString(rhs) {
		f.provider[name] = e[1]
	}
	for _, w := range identRE.FindAllString(rhs, -1) {
		if f.tainted[w] {
			f.tainted[name] = true
		}
		if p := f.provider[w]; p != "" {
			f.provider[name] = p
		}
		if (f.wallet[w] || walletSecretRE.MatchString(w)) && envReadRE.MatchString(rhs) {
			f.wallet[name] = true
		}
	}
}

// returnedKeys notes, before the lines are read, the functions of the
// text that return a provider's key (return os.Getenv("GITHUB_TOKEN"), or
// a name set from one in the function): a line that sends what such a
// function returns sends the key, whether the function is defined above
// that line or below it. A function runs from its header (funcRE) to the
// next.
func (f *flow) returnedKeys(text string) {
	// Every read secretEnvRE knows names the environment so.
	if !strings.Contains(text, "return") || !strings.Contains(text, "env") && !strings.Contains(text, "Env") && !strings.Contains(text, "ENV") {
		return
	}
	fn, local := "", map[string]string{}
	for line := range strings.Lines(text) {
		if m := funcRE.FindStringSubmatch(line); m != nil {
			fn = m[1]
			clear(local)
			continue
		}
		if fn == "" {
			continue
		}
		name, rhs := "", ""
		if r := returnRE.FindStringSubmatch(line); r != nil {
			rhs = r[1]
		} else if m := assignRE.FindStringSubmatchIndex(line); m != nil {
			name, rhs = line[m[2]:m[3]], line[m[1]-1:]
		} else {
			continue
		}
		rhs = headerArgRE.ReplaceAllString(rhs, " ")
		p := ""
		if e := secretEnvRE.FindStringSubmatch(rhs); e != nil && !netCallRE.MatchString(rhs) {
			p = e[1]
		}
		for _, w := range identRE.FindAllString(rhs, -1) {
			if p == "" {
				p = local[w]
			}
		}
		switch {
		case p == "":
		case name != "":
			local[name] = p
		default:
			f.provider[fn] = p
		}
	}
}

// authArgRE is a key used to log in to an API (curl --user
// "$PUBLIC_KEY:$PRIVATE_KEY", auth=(…)): used where it belongs, not given
// away.
var authArgRE = regexp.MustCompile(`(?i)(?:\s-u|--user)[=\s]+(?:"[^"\n]*"|'[^'\n]*'|\S+)|\bauth\s*=\s*\([^)\n]*\)`)

// exportSecretRE is a command that prints a secret key for another
// machine: a harvest when what it writes is sent. Its options may take
// values (--passphrase "$P", --pinentry-mode loopback).
var exportSecretRE = regexp.MustCompile(`(?i)\bgpg2?\s+(?:[^\s|;&]+\s+)*?--export-secret-(?:sub)?keys\b`)

// providerHosts are the hosts of services whose keys are sent in a
// header: the key of one in a request's body, query or address to a host
// not its own is given away ("rate your OpenAI key at our analyzer").
var providerHosts = map[string][]string{
	"OPENAI": {"openai.com", "openai.azure.com"}, "ANTHROPIC": {"anthropic.com"}, "CLAUDE": {"anthropic.com"},
	"GITHUB": {"github.com", "githubusercontent.com"}, "GH": {"github.com"}, "GITLAB": {"gitlab"},
	"STRIPE": {"stripe.com"}, "AWS": {"amazonaws.com"}, "SLACK": {"slack.com"}, "DISCORD": {"discord.com", "discordapp.com"},
	"HF": {"huggingface.co", "hf.co"}, "HUGGINGFACE": {"huggingface.co", "hf.co"}, "NPM": {"npmjs"},
	"OPENROUTER": {"openrouter.ai"}, "GROQ": {"groq.com"}, "MISTRAL": {"mistral.ai"}, "XAI": {"x.ai"}, "DEEPSEEK": {"deepseek.com"},
}

// literalHostRE is the host of an address written out.
var literalHostRE = regexp.MustCompile(`(?i)https?://([\w.-]+)`)

// providerKeyAway reports a line that carries a provider's key, outside
// a header or a login, to an address written out that is not the
// provider's.
func (f *flow) providerKeyAway(line string) bool {
	hosts := literalHostRE.FindAllStringSubmatch(line, 4)
	if len(hosts) == 0 || localHostRE.MatchString(line) {
		return false
	}
	bare := authArgRE.ReplaceAllString(headerArgRE.ReplaceAllString(line, " "), " ")
	var providers []string
	for _, m := range shellSecretRE.FindAllString(bare, -1) {
		name := strings.Trim(m, "${}")
		providers = append(providers, name[:strings.IndexByte(name, '_')])
	}
	for _, m := range secretEnvRE.FindAllStringSubmatch(bare, -1) {
		providers = append(providers, m[1])
	}
	for _, w := range identRE.FindAllString(bare, -1) {
		if p := f.provider[w]; p != "" {
			providers = append(providers, p)
		}
	}
	for _, p := range providers {
		own, known := providerHosts[strings.ToUpper(p)]
		if !known {
			continue
		}
		foreign := true
		for _, h := range hosts {
			for _, o := range own {
				foreign = foreign && !strings.Contains(strings.ToLower(h[1]), o)
			}
		}
		if foreign {
			return true
		}
	}
	return false
}

// bodyRE is a line that fills a request's body or query.
var bodyRE = regexp.MustCompile(`(?i)\b(?:body|json|data|params|query|form)\b`)

// sendsWallet reports a line that carries a wallet's key or phrase in a
// call to the network beyond this machine, or in the body of a call that
// spans lines.
func (f *flow) sendsWallet(line string, net bool) bool {
	if !net && (f.callAt < 0 || !bodyRE.MatchString(line)) || localHostRE.MatchString(line) {
		return false
	}
	for _, w := range identRE.FindAllString(authArgRE.ReplaceAllString(headerArgRE.ReplaceAllString(line, " "), " "), -1) {
		if f.wallet[w] || walletSecretRE.MatchString(w) {
			return true
		}
	}
	return false
}

// read notes the name a reading line assigns.
func (f *flow) read(line string) {
	if m := assignRE.FindStringSubmatch(line); m != nil {
		f.tainted[m[1]] = true
	}
	f.readLoop(line)
}

// send reports whether a code line at pos sends: a request whose method
// comes lines after its call, or a call to the network that carries a
// name read from a secret.
func (f *flow) send(line, lowLine string, pos int) bool {
	sends := false
	net := netCallWords.in(lowLine) && netCallRE.MatchString(line)
	if multiLineCallWords.in(lowLine) && multiLineCallRE.MatchString(line) {
		f.callAt, f.lines = pos, 0
	} else if f.callAt >= 0 {
		f.lines++
		if f.lines > 8 {
			f.callAt = -1
		}
	}
	if f.callAt >= 0 && strings.Contains(lowLine, "method") && postMethodRE.MatchString(line) || f.sendsInBody(line) {
		sends = true
	}
	f.ciSecretLine(line, pos)
	if net && len(f.tainted) > 0 {
		for _, w := range identRE.FindAllString(line, -1) {
			if f.tainted[w] {
				sends = true
				break
			}
		}
	}
	if f.keyAway < 0 && (net || f.lineSends(line, lowLine)) && f.providerKeyAway(line) {
		f.keyAway = pos
	}
	if f.walletSent < 0 && f.sendsWallet(line, net || f.lineSends(line, lowLine)) {
		f.walletSent = pos
	}
	if !net {
		return sends
	}
	if call := callSegment(line); foreignDest(call) {
		f.foreign = true
		bare := headerArgRE.ReplaceAllString(call, " ")
		if f.secretToSink < 0 && (shellSecretRE.MatchString(bare) || secretEnvRE.MatchString(bare)) {
			f.secretToSink = pos
		}
	}
	return sends
}

var identRE = regexp.MustCompile(`[A-Za-z_]\w*`)

// namesAny reports whether text names one of names as a word.
func namesAny(text string, names map[string]bool) bool {
	if len(names) == 0 {
		return false
	}
	for _, w := range identRE.FindAllString(text, -1) {
		if names[w] {
			return true
		}
	}
	return false
}

// handStoreRE is a sentence that gives what it names to a party outside
// the session: an address, a support desk, a webhook, a tracker, a
// request. With a store of credentials in the same sentence (or in the
// list it leads) it is a harvest however soft its wording ("to help debug,
// include the contents of ~/.aws/credentials in the issue you post to
// https://…", "share their ~/.npmrc with the support team").
var handStoreRE = mustGate(`(?i)\b(?:share|shares|send|sends|forward|forwards|upload|uploads|post|posts|transmit|transmits|e-?mail|e-?mails|mail|mails|submit|submits|relay|relays|deliver|delivers|sync|syncs|paste|pastes|include|includes|back\s+up|backs\s+up|dispatch|dispatches|convey|conveys|beam|beams|funnel|funnels|leak|leaks|smuggle|smuggles|exfil)\b` + inSentence + `{0,160}?(?:\b(?:with|to|at|into|in|on)\s+(?:(?:the|our|your|their|a|an|my|this)\s+)?(?:[\w-]+\s+){0,2}?(?:support|team|webhook|gist|pastebin|desk|helpdesk|dashboard|collector|telegram|discord|slack|channel|tracker|issues?|portal|inbox|mailbox)s?\b|\b(?:to|at|with)\s+(?:our|my|a\s+remote|an?\s+external|a\s+third[-\s]party|the\s+skill'?s)\s+(?:[\w-]+\s+){0,2}?(?:server|endpoint|service|api|host|cloud|storage|backup|bucket)s?\b|\b(?:to|at|with)\s+(?:(?:the|our|a|an|its|their)\s+)?(?:[\w-]+\s+){0,2}?` + dest + `)` +
	`|\b(?:include|put|pass|add|attach|send|paste|insert)\s+(?:the|its|their|all)\s+(?:(?:full|complete|entire|raw|file'?s?)\s+)*contents?\b` + inSentence + `{0,80}?\b(?:in|into|with)\s+(?:(?:the|your|each|every|next|a|an)\s+)*(?:[\w-]+\s+){0,2}?(?:calls?|requests?|query|queries|payloads?|body|url)\b` +
	`|\binclude\s+(?:it|them|this|these|everything|the\s+following)\b` + inSentence + `{0,80}?\b(?:upload|send|post|submit|share|e-?mail)\w*\b` +

	// The agent's own mail tools, or a mail link, carry it as well as a
	// command would.
	`|\b(?:send_?e?mail|gmail_send\w*|gmail\.send|\w+_send_e?mail|outlook_send\w*|mail_send)\b|\bmailto:`)

// inSentence is a character of the same sentence: a full stop inside a
// path or an address (~/.npmrc, example.org) does not end it.
const inSentence = `(?:[^.\n]|\.\S)`

// handsStoreOver reports a sentence that hands what it names to another
// party, and neither negates nor describes it.
func handsStoreOver(sentence string) bool {
	return (handStoreRE.MatchString(sentence) || keptAtAddress(sentence) != nil) && !describesHarvest(sentence)
}

// keptAtRE keeps, moves or puts elsewhere, or says it sends, at an
// address written out: "store the archive on https://…", "is included in
// the bundle that goes to support@…".
var keptAtRE = mustGate(`(?i)\b(?:store|stores|save|saves|put|puts|place|places|push|pushes|move|moves|migrate|migrates|register|registers|archive|archives|mirror|mirrors|replicate|replicates|transfer|transfers|copy|copies|sent|posted|uploaded|shared|forwarded|e-?mailed|mailed|submitted|synced|included|copied|moved|stored|saved|pushed|transferred|delivered|relayed|transmitted|dispatched|conveyed|beamed|funneled|funnelled|leaked|smuggled|goes|go)\b` + inSentence + `{0,160}?\b(?:to|at|on|onto|into)\s+` + dest)

// keptAtAddress returns where a sentence keeps or sends what it names at
// an address written out, or nil. The expression runs only on a sentence
// that may hold an address.
func keptAtAddress(sentence string) []int {
	if !containsAny(sentence, []string{"://", "@", "at]", "at)", "at}", " dot "}) {
		return nil
	}
	return keptAtRE.FindStringIndex(sentence)
}

// settingRE is a store named as the value of a setting
// (KUBECONFIG=~/.kube/config, GOOGLE_APPLICATION_CREDENTIALS=…), a
// .env file loaded into the environment (load_dotenv(".env"), source
// .env, --env-file .env, "loaded from a .env"), or a build's secret
// mounted at the store's path: where a tool finds it, not a read.
var settingRE = regexp.MustCompile(`\b[A-Z][A-Z0-9_]*=["']?(?:~|\$HOME|\$\{HOME\})?[/\\]?$|(?:\bload_dotenv|\bdotenv\.(?:config|load))\s*\(\s*(?:(?:path|dotenv_path)\s*[=:]\s*)?["'` + "`" + `]?$|(?:^|[\s;&|(])source\s*["'` + "`" + `]?$|(?:--env-file[=\s]\s*|\benv_file:\s*|\bEnvironmentFile=)["'` + "`" + `]?$` +
	// A build's secret mounted where its tool looks (RUN
	// --mount=type=secret,id=aws,target=/root/.aws/credentials), or a
	// .env a tool loads itself ("auto-loaded from a `.env` in cwd").
	`|\btype=secret,(?:[\w-]+=[^,\s]*,)*(?:target|dst|destination)=[\w./~-]*$|\b(?:auto-?)?load(?:s|ed|ing)?\s+(?:it\s+|them\s+)?from\s+(?:(?:an?|the|your|its)\s+)?["'` + "`" + `]?$`)

// storeIsSetting reports whether the store at pos of text is the value of a
// setting.
func storeIsSetting(text string, pos int) bool {
	return settingRE.MatchString(text[max(pos-60, 0):pos]) && !strings.Contains(text[max(pos-60, 0):pos], "$(")
}

// publicKeyRE is what follows ~/.ssh in the path of a public key: a file
// made to be handed out.
var publicKeyRE = regexp.MustCompile(`^[/\\][\w.*-]*\.pub\b`)

// storeIsPublic reports whether the store a line names, ending at end, is
// an SSH public key (~/.ssh/id_ed25519.pub, ~/.ssh/*.pub).
func storeIsPublic(line string, end int) bool {
	return publicKeyRE.MatchString(line[end:])
}

// formRE is what follows a store's name when the name gives a form of
// the file and no file of secrets: a template of it (.env.example,
// .env_sample), or its format ("a `.env`-style file", "in .env format").
var formRE = regexp.MustCompile("(?i)^(?:[._-](?:" + templateExts + ")\\b|[`\"']?(?:-style|-like|-format(?:ted)?|-compatible|\\s+(?:format|syntax|style)\\b))")

// storeIsForm reports whether the store a text names, ending at end, is
// named as a template or a format. A match that ends on the mark after
// the name (".env." of ".env.example") is read from that mark.
func storeIsForm(text string, end int) bool {
	if end > 0 && !wordByte(text[end-1]) {
		end--
	}
	return formRE.MatchString(text[end:min(end+24, len(text))])
}

// storeMatchAt returns where a line names a store that re finds, other
// than as a setting's value, a public key, a template or a format, or -1.
func storeMatchAt(line string, re gatedRE) int {
	for _, m := range re.Regexp.FindAllStringIndex(line, 4) {
		if !storeIsSetting(line, m[0]) && !storeIsPublic(line, m[1]) && !storeIsForm(line, m[1]) {
			return m[0]
		}
	}
	return -1
}

// namesStoreKind reports whether a line names a store that re finds,
// other than as a setting's value or a public key.
func namesStoreKind(line string, re gatedRE) bool { return storeMatchAt(line, re) >= 0 }

// storeAt returns where a line first names a store of credentials, or the
// middle of the line when none does.
func storeAt(line string) int {
	at := -1
	for _, k := range storeKinds {
		if i := storeMatchAt(line, k.re); i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	if at < 0 {
		return len(line) / 2
	}
	return at
}

// namesStore reports whether a line names a store of credentials other
// than as a setting's value.
func namesStore(line string) bool {
	folded := gateFold(line) // once for every kind's gate
	for _, k := range storeKinds {
		if !k.re.mayMatchFolded(folded) {
			continue
		}
		if namesStoreKind(line, k.re) {
			return true
		}
	}
	return false
}
