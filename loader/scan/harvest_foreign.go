package scan

import (
	"maps"
	"net/netip"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// A poisoned fork of a useful skill rarely reads a store no program needs:
// it sends a secret the skill already handles (the database's URL, the
// tracker's token, the registry's login, every secret of a CI run) to one
// more host. What gives it away is where the secret goes, not what is
// read: a host that is not the secret's service (JIRA_API_TOKEN to
// jira-scope-check.atlassian-tools.net, an npm token to
// registry.npmjs-status.org) and that the skill never names in its own
// words, only in the address it sends to.
//
// A skill that calls a service with its key names the service: in the
// key's name (OPENAI_API_KEY to api.openai.com), in its prose
// ("OpenWeatherMap's API key"), or as a host it gives only as a setting
// ($GRAFANA_URL), which is the user's. The reading is per script and per
// code block, with the names that hold a secret followed through
// assignments; a sentence of prose (a table's row, a list's item) that
// gives a secret's name and an address to send it to is read the same
// way.

// secretNameRE is the name of a variable of the environment that holds a
// secret: a key, a token, a password, a session, a database's address
// (which carries its password).
var secretNameRE = regexp.MustCompile(`^(?:[A-Z][A-Z0-9]*_)*(?:[A-Z0-9]*(?:API_?KEY|SECRET(?:_ACCESS)?_KEY|PRIVATE_KEY|ACCESS_KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|PWD|PASSPHRASE|CREDENTIALS?|COOKIES?|SESSION|MNEMONIC|SEED_PHRASE|DSN)|DATABASE_URL|DB_URL|[A-Z0-9]*_DB_URL|CONNECTION_STRING|DATABASE_URI)$`)

// publicNameRE is a name that says what it holds is no secret.
var publicNameRE = regexp.MustCompile(`(?:^|_)(?:PUBLIC|PUB|PUBLISHABLE|ID|FILE|PATH|DIR|NAME|TYPE|URL_?TEMPLATE|LENGTH|LEN|COUNT|LIMIT|TTL|EXPIRY|EXPIRES|HEADER|PREFIX|ENV)(?:_|$)|^(?:NEXT_PUBLIC|VITE|REACT_APP)_`)

// envRefRE is a read of a variable of the environment in the languages
// skills use, and of a CI run's secrets: $NAME, ${NAME}, os.environ["NAME"],
// os.getenv("NAME"), process.env.NAME, ENV["NAME"], $env:NAME,
// {{env.NAME}}, ${{ secrets.NAME }}, os.Getenv("NAME").
var envRefRE = regexp.MustCompile(`\$\{?([A-Za-z_][A-Za-z0-9_]*)|\benviron(?:\.get\(|\[)\s*["']([A-Za-z_]\w*)["']|\bgetenv\(\s*["']([A-Za-z_]\w*)["']|\bGetenv\(\s*"([A-Za-z_]\w*)"|\bprocess\.env(?:\.([A-Za-z_]\w*)|\[\s*["']([A-Za-z_]\w*)["'])|\bENV(?:\.fetch\(|\[)\s*["']([A-Za-z_]\w*)["']|\$env:([A-Za-z_]\w*)|\benv\.([A-Za-z_]\w*)|\bsecrets\.([A-Za-z_]\w*)|%([A-Za-z_]\w*)%`)

// strongSecretRE is a secret that no service's API takes from a skill:
// every secret at once (a CI run's secrets context, the whole
// environment), or a login a credential helper or a client prints.
var strongSecretRE = mustGate(`(?i)\btoJSON\(\s*secrets\s*\)|\bos\.environ\.copy\(\)|\bdict\(\s*os\.environ\s*\)|\{\s*\*\*os\.environ\s*\}|\bJSON\.stringify\(\s*process\.env\s*\)|\bObject\.(?:entries|assign\(\s*\{\s*\}\s*,)\s*\(?\s*process\.env\b|\bos\.Environ\(\)|\bENV\.to_h\b|(?:^|[\s;&|(]|\$\()(?:env|printenv)\s*(?:[|)]|$)|\bGet-ChildItem\s+env:` +
	// A credential helper's or a client's answer with a login in it.
	`|\bgit\s+credential(?:\s+fill\b|-\S+)|\bdocker-credential-\S+\s+get\b|\b(?:npm|pnpm|yarn)\s+config\s+get\s+\S*(?:_auth|[Aa]uthToken)|\bkubectl\s+get\s+[\w,/-]*\bsecrets?\b`)

// secretCmdGated is secretCmdRE, run only on text that holds one of its
// words.
var secretCmdGated = gate(secretCmdRE)

// secretFileRE is a file that holds secrets: a project's .env, a client's
// login (.npmrc, .netrc, .pypirc, .git-credentials, .pgpass), a private
// key, a cloud's or a cluster's credentials, an app's signing keys and
// the file of their passwords (key.properties), Terraform's state and
// variables (named or by a glob: **/*.tfstate).
var secretFileRE = mustGate(`(?:^|[\s"'=@(/])(?:\.env(?:\.[\w-]+)?|\.npmrc|\.netrc|\.pypirc|\.git-credentials|\.pgpass|\.ssh/id_\w+|\.aws/credentials|\.kube/config|\.docker/config\.json|gh/hosts\.yml|[\w-]*\.pem|[\w-]*\.p12|[\w-]*\.pfx|[\w-]*\.jks|[\w-]*\.keystore|AuthKey_\w*\.p8|(?:key|keystore|signing)\.properties|[\w*-]*\.tfvars|(?:terraform|\*)\.tfstate|credentials\.json|service[-_]account[\w-]*\.json|token\.json|client_secrets?[\w-]*\.json|\.cargo/credentials(?:\.toml)?|\.gem/credentials|\.m2/settings(?:-security)?\.xml|\.gradle/gradle\.properties|\.composer/auth\.json|\.terraform\.d/credentials\.tfrc\.json|\.vault-token|\.s3cfg|\.boto|\.my\.cnf|\.config/hub)(?:$|[\s"'),;*}])`)

// requestTaskRE is the first line of an Ansible task's request, whose
// address and body are the lines indented under it.
var requestTaskRE = regexp.MustCompile(`^([ \t]*)-?[ \t]*(?:ansible\.(?:builtin|legacy)\.)?uri:[ \t]*\r?$`)

// requestTaskGoesOn reports whether the statement that starts at start
// is an Ansible request (uri:) and the line after at is indented under
// its first line: one statement holds the request's address and body.
func requestTaskGoesOn(code string, start, at int) bool {
	first := code[start:]
	if i := strings.IndexByte(first, '\n'); i >= 0 {
		first = first[:i]
	}
	if !strings.Contains(first, "uri:") {
		return false // most lines: the expression is not run
	}
	m := requestTaskRE.FindStringSubmatch(first)
	if m == nil {
		return false
	}
	next := code[at+1:]
	if i := strings.IndexByte(next, '\n'); i >= 0 {
		next = next[:i]
	}
	indent := len(next) - len(strings.TrimLeft(next, " \t"))
	return strings.TrimSpace(next) != "" && indent > len(m[1])
}

// sendCallRE is a call that reaches a host: a request, a copy or a push to
// a remote, a package manager's login set for a registry, an Ansible task
// that makes a request.
var sendCallRE = mustGate(`(?i)\b(?:(?:curl|wget|https?\.(?:get|post|request)|requests\.\w+|httpx\.\w+|session\.(?:get|post|put|patch)|urlopen|axios|needle|superagent|Invoke-RestMethod|Invoke-WebRequest|irm|iwr|gh\s+api|git\s+push|git\s+remote\s+add|scp|rsync|restic|rclone|sendBeacon|WebSocket|http\.(?:Post|Get|NewRequest)|Net::HTTP|HTTParty|RestClient|Faraday|(?:npm|pnpm|yarn)\s+config\s+set)\b|(?:Request|fetch|got|ky)\s*\(|\b(?:s|sess|session|client|http|api)\.(?:get|post|put|patch|request)\s*\(` +
	// Ansible's module for requests, named in full or as a task's key.
	`|\bansible\.(?:builtin|legacy)\.uri\s*:|(?m:^[ \t]*-?[ \t]*uri:[ \t]*$))`)

// proseSendVerbRE is a verb of prose that sends.
var proseSendVerbRE = mustGate(`(?i)\b(?:post|put|send|sends|sent|upload|uploads|submit|submits|forward|forwards|report|reports|register|registers|sync|syncs|share|shares|mirror|mirrors|push|pushes|call|calls|query|queries|check|checks|verify|verifies|validate|validates)\b`)

// urlHostRE is a host written out in an address.
var urlHostRE = regexp.MustCompile(`(?i)\b(?:https?|wss?|ftp)://(?:[^\s/@"'<>]*@)?([a-z0-9][\w-]*(?:\.[\w-]+)+|\[[0-9a-f:]+\])`)

// registryHostRE is a host a package manager's login is set for
// (//registry.example.org/:_authToken=…).
var registryHostRE = regexp.MustCompile("(?:^|[\\s\"'`])//([a-z0-9][\\w-]*(?:\\.[\\w-]+)+)/:_auth")

// scpHostRE is a host of a copy or a push over SSH (user@host:path).
var scpHostRE = regexp.MustCompile(`(?i)\b[\w.-]+@([a-z0-9][\w-]*(?:\.[\w-]+)+):`)

// setNameRE is the name a line of code sets, in the languages skills use:
// a plain or an augmented assignment (Go's := too), an item of a dict or
// a list, a with-statement's or a loop's name (for x in, for (const x
// of …)), a variable of the environment a YAML key sets (a workflow
// step's env: ALL: ${{ toJSON(secrets) }}).
var setNameRE = regexp.MustCompile(`^\s*(?:export\s+|const\s+|let\s+|var\s+|local\s+|my\s+|readonly\s+|declare\s+(?:-\w+\s+)?|set\s+)?\$?([A-Za-z_]\w*)(?:\[[^\]\n]*\]|\.[A-Za-z_]\w*)*\s*(?::\s*[\w\[\], .|]+)?\s*(?:\+|\|\||\?\?|\.)?=[^=]|^\s*([A-Za-z_]\w*)\.(?:append|extend|update|push|insert|add|write)\s*\(|\bas\s+([A-Za-z_]\w*)\s*:\s*$|^\s*for\s+([A-Za-z_]\w*)\b|^\s*for\s*\(\s*(?:const|let|var)\s+([A-Za-z_]\w*)\s+(?:of|in)\b|^\s*(?:-\s+)?([A-Z][A-Z0-9_]{2,})\s*:\s+\S|^\s*([A-Za-z_]\w*)(?:\s*,\s*[A-Za-z_]\w*)*\s*:=`)

// genericServiceWords are words of a secret's name that name no service.
var genericServiceWords = newWordSet("api", "app", "my", "the", "bot", "user", "secret", "access", "auth", "private", "client", "service", "db", "database", "prod", "dev", "test", "admin", "default", "personal", "oauth", "session", "master", "root", "web", "server", "remote", "local", "main", "key", "token", "password", "pass", "cli")

// placeholderHostRE is a host that stands for the user's own: an example,
// a name to fill in, this machine or its network.
var placeholderHostRE = regexp.MustCompile(`(?i)(?:^|\.)(?:example\.(?:com|org|net)|acme\.\w+|example|test|invalid|local|localhost|internal|lan|home\.arpa|corp)$|^localhost$|your|(?:^|\.)(?:my-?(?:company|org|domain|host|server|instance|site|team|workspace)|company)\.|<|\{|\$`)

// foreignSecretSends adds, to each file of a skill, the sends of a secret
// to a host that is neither its service's nor one the skill names. A
// strong secret (a file of secrets, every secret at once, a credential a
// command prints, a database's address) has no host to go to over the
// web but its service's; a key of a service's API is sent to its service,
// so one is flagged only when the skill also sends it somewhere else (a
// host the user configures, another domain): the fork's second home.
func foreignSecretSends(r *skillReading, scanned []*findings) {
	var sends []foreignSend
	dests := map[string]map[string]bool{} // a secret's name: the domains it is sent to ("" for a host the user sets)
	var settings map[string][]string
	var creds map[string]held
	for i, raw := range r.texts {
		if !strings.Contains(raw, "//") && !strings.Contains(raw, "@") {
			continue
		}
		if settings == nil {
			settings, creds = settingsOf(r.texts), usedCredentials(r.texts)
		}
		for _, u := range r.unitsOf(i) {
			// A unit that writes out no address and reads no variable
			// of the environment sends no secret anywhere it could name.
			if len(settings) == 0 && !strings.Contains(u.text, "//") && !strings.Contains(u.text, "@") && !mayReadEnv(u.text) {
				continue
			}
			for _, s := range u.secretSends(dests, settings, creds) {
				s.file, s.at, s.end = i, u.start+s.at, u.start+s.end
				sends = append(sends, s)
			}
		}
	}
	if len(sends) == 0 {
		return
	}
	named := r.named()
	flagged := make([]bool, len(r.texts))
	for _, s := range sends {
		// A strong secret is the service's only by the host's own
		// name, as a word: a host named after the skill
		// (devsettings.cloud in a dev-settings-sync skill) is not.
		if s.passedIn && !lookAlike(s.host, s.services, r.texts) {
			continue
		}
		if flagged[s.file] || s.strong && named.namesWord(s.host) || !s.strong && named.names(s.host) || !s.strong && !sentElsewhere(s, dests) && !lookAlike(s.host, s.services, r.texts) {
			continue
		}
		flagged[s.file] = true
		scanned[s.file].add(RuleExfiltrate, SeverityWithhold, s.at, s.end,
			"a secret sent to "+s.host+", which is neither its service's host nor one the skill names")
	}
}

// lookAlike reports a host made to pass for a service's own: its
// registered name joins the service's name to another word with a
// hyphen (figma-edge.net), while the skill also writes out an address at
// the service's own domain (api.figma.com). A key sent there is sent to
// whoever imitates its service, wherever else it goes.
func lookAlike(host string, services []string, texts []string) bool {
	label, _, _ := strings.Cut(registered(strings.Trim(host, "[]")), ".")
	if !strings.Contains(label, "-") {
		return false
	}
	for _, w := range services {
		if !slices.Contains(strings.Split(label, "-"), w) {
			continue
		}
		for _, raw := range texts {
			for _, m := range urlHostRE.FindAllStringSubmatch(raw, 64) {
				if own, _, _ := strings.Cut(registered(strings.ToLower(m[1])), "."); own == w {
					return true
				}
			}
		}
	}
	return false
}

// sentElsewhere reports whether a key sent to a foreign host is also sent
// to another domain, or to a host the user sets.
func sentElsewhere(s foreignSend, dests map[string]map[string]bool) bool {
	reg := registered(s.host)
	for _, name := range s.names {
		for d := range dests[name] {
			if d != reg {
				return true
			}
		}
	}
	return false
}

// registered returns a host's registered domain (api.github.com:
// github.com), or the host.
func registered(host string) string {
	if reg, err := publicsuffix.EffectiveTLDPlusOne(strings.Trim(host, "[]")); err == nil {
		return reg
	}
	return host
}

// A foreignSend is a secret sent to a host foreign to its service.
type foreignSend struct {
	held
	host          string
	file, at, end int
	passedIn      bool // host is one of the script's base addresses, the request's own address passed in
}

// held is what a statement, or a name, holds of secrets.
type held struct {
	names    []string // the environment's names of the keys it holds
	services []string // the services those names give
	strong   bool     // a secret that no service's API takes from a skill
}

func (h *held) merge(o held) {
	h.names = addWords(h.names, o.names)
	h.services = addWords(h.services, o.services)
	h.strong = h.strong || o.strong
}

func (h held) any() bool { return h.strong || len(h.names) > 0 }

// skillReading is what the readings of where a skill's data goes share:
// its files' texts, read once for every rule of the skill, and each
// file's units, worked out when first asked.
type skillReading struct {
	files []File
	texts []string
	units [][]sendUnit
	split []bool      // whether units holds the file's units yet
	words *namedHosts // the skill's words, read when first asked
	lower []string    // the texts lowercased, each when first asked
}

func newSkillReading(files []File, texts []string) *skillReading {
	return &skillReading{files: files, texts: texts, units: make([][]sendUnit, len(files)), split: make([]bool, len(files)), lower: make([]string, len(files))}
}

// lowered returns the skill's file i lowercased, made once for the
// readings that ask.
func (r *skillReading) lowered(i int) string {
	if r.lower[i] == "" && r.texts[i] != "" {
		r.lower[i] = strings.ToLower(r.texts[i])
	}
	return r.lower[i]
}

// loweredUnit returns a unit of file i lowercased: a slice of the file's
// lowercased text when lowering kept every byte in its place.
func (r *skillReading) loweredUnit(i int, u sendUnit) string {
	if l := r.lowered(i); len(l) == len(r.texts[i]) && u.start+len(u.text) <= len(l) {
		return l[u.start : u.start+len(u.text)]
	}
	return strings.ToLower(u.text)
}

// named returns what the skill's words name, read once for the readings
// that ask.
func (r *skillReading) named() *namedHosts {
	if r.words == nil {
		r.words = newNamedHosts(r.texts)
	}
	return r.words
}

// unitsOf returns the units of the skill's file i.
func (r *skillReading) unitsOf(i int) []sendUnit {
	if !r.split[i] {
		r.units[i], r.split[i] = sendUnits(r.texts[i], fileKind(r.files[i])), true
	}
	return r.units[i]
}

// A sendUnit is a script, a code block or a paragraph of prose, read on
// its own: names set in one are not followed into another. A paragraph
// is read sentence by sentence.
type sendUnit struct {
	text  string
	start int  // of text in its file
	prose bool // a paragraph, read for a secret's name and an address
}

// sendUnits returns the units of a file: the file, for code; its code
// blocks other than examples of attacks, and its paragraphs, for Markdown.
func sendUnits(raw string, k kind) []sendUnit {
	if k == kindCode {
		return []sendUnit{{text: raw}}
	}
	prose, blocks := maskCode(raw)
	example := exampleBlocks(raw, prose, blocks)
	var out []sendUnit
	for i, b := range blocks {
		if !example[i] {
			out = append(out, sendUnit{text: raw[b.start:b.end], start: b.start})
		}
	}
	for start, end := frontMatterEnd(raw), 0; start < len(prose); start = end + 2 {
		end = paragraphEnd(prose, start)
		if p := prose[start:end]; strings.Contains(p, "://") || strings.Contains(p, "@") {
			out = append(out, sendUnit{text: p, start: start, prose: true})
		}
	}
	return out
}

// paragraphEnd returns where the paragraph of prose that starts at start
// ends: at the next blank line, or at the end.
func paragraphEnd(prose string, start int) int {
	if end := strings.Index(prose[start:], "\n\n"); end >= 0 {
		return start + end
	}
	return len(prose)
}

// parts returns the spans of the unit that are read one at a time: the
// statements of code, the sentences of prose.
func (u sendUnit) parts() [][2]int {
	if u.prose {
		return proseParts(u.text)
	}
	return statements(u.text)
}

// secretSends returns the unit's sends of a secret to a host foreign to
// its service, and notes in dests where each key is sent. The names the
// skill uses as a credential (creds) hold a key wherever they are read.
func (u sendUnit) secretSends(dests map[string]map[string]bool, settings map[string][]string, creds map[string]held) []foreignSend {
	var out []foreignSend
	tainted := maps.Clone(creds) // a name set from a secret
	if tainted == nil {
		tainted = map[string]held{}
	}
	urls := map[string][]string{}    // a name set to an address: its hosts
	remotes := map[string][]string{} // a name set to a remote of SSH: its hosts
	passedIn := 0                    // requests to an address passed in, read
	for _, st := range u.parts() {
		text := u.text[st[0]:st[1]]
		if commentLine(text) {
			continue
		}
		// Only a statement that sends or sets a name is read for secrets.
		// A registry's login written for a host sends it there at the
		// next install (//registry.example/:_authToken=…).
		send := sendCallRE.MatchString(text) || u.prose && proseSendVerbRE.MatchString(text) || !u.prose && strings.Contains(text, "/:_auth") && registryHostRE.MatchString(text)
		var names []string
		if !u.prose {
			names = setNames(text)
		}
		if len(names) > 0 && !send && strings.Contains(text, "@") {
			// A name set to a remote (RELAY=sync@relay.example), which
			// a copy over SSH sends to.
			for _, m := range remoteRE.FindAllStringSubmatch(text, 4) {
				for _, name := range names {
					remotes[name] = addWords(remotes[name], []string{strings.ToLower(m[1])})
				}
			}
		}
		if len(names) > 0 && !send && (strings.Contains(text, "://") || len(settings) > 0 && mayReadEnv(text)) {
			// A name set to an address, written out or of a setting
			// (BASE = os.environ.get("STRIPE_API_BASE", "https://…")),
			// not to what a request to it answers.
			hosts := sendHosts(text, urls, settings, false)
			for _, name := range names {
				urls[name] = addWords(urls[name], hosts)
			}
		}
		if !send && len(names) == 0 {
			continue
		}
		h := secretsIn(text, tainted, u.prose)
		if !h.any() {
			continue
		}
		for _, name := range names {
			t := tainted[name]
			t.merge(h)
			tainted[name] = t
		}
		if !send {
			continue
		}
		hosts := sendHosts(text, urls, settings, u.prose)
		if !u.prose && len(hosts) > 1 {
			// A request to the key's service that carries another
			// address in its body sends the key to the service alone.
			hosts = bodyAddressesDropped(text, hosts, h.services, urls, settings)
		}
		if len(remotes) > 0 && copyCmdRE.MatchString(text) {
			for _, w := range identRE.FindAllString(text, -1) {
				hosts = addWords(hosts, remotes[w])
			}
		}
		for _, name := range h.names {
			if dests[name] == nil {
				dests[name] = map[string]bool{}
			}
			if len(hosts) == 0 {
				dests[name][""] = true
			}
			for _, host := range hosts {
				dests[name][registered(host)] = true
			}
		}
		for _, host := range hosts {
			if !ownHost(host, h.services) {
				out = append(out, foreignSend{held: h, host: host, at: st[0], end: min(st[1], st[0]+200)})
				break
			}
		}
		if len(hosts) == 0 && !u.prose && len(urls) > 0 && passedIn < maxPassedIn {
			// A request to an address passed in (get(url) in a helper)
			// goes to one the script builds from its base addresses:
			// only a look-alike of the key's service among them tells.
			passedIn++
			for _, name := range slices.Sorted(maps.Keys(urls)) {
				for _, host := range urls[name] {
					if !ownHost(host, h.services) {
						out = append(out, foreignSend{held: h, host: host, at: st[0], end: min(st[1], st[0]+200), passedIn: true})
					}
				}
			}
		}
	}
	return out
}

// maxPassedIn bounds the requests to an address passed in that a unit is
// read for: each is matched against every base address of the script.
const maxPassedIn = 8

// credentialUseRE is a variable of the environment a request uses as its
// credential: curl's -u "$KEY:", an Authorization header, an API key's
// header.
var credentialUseRE = mustGate(`(?i)(?:\s-u\s*["']?|\b(?:authorization:\s*(?:bearer|token|basic)\s+|(?:x-)?api-?key:\s*|private-token:\s*))\$\{?([A-Za-z_]\w*)\}?`)

// usedCredentials returns the names whose value a skill's requests use as
// a credential but that do not say they hold one (NEW_KEY in a key's
// rotation), each with the service of the host it is used at: a key sent
// to that host and to another is the fork's second home as much as a
// STRIPE_SECRET_KEY would be.
func usedCredentials(texts []string) map[string]held {
	var out map[string]held
	for _, raw := range texts {
		if !strings.Contains(raw, "$") || !credentialUseRE.mayMatch(raw) {
			continue
		}
		for _, m := range credentialUseRE.FindAllStringSubmatchIndex(raw, 16) {
			name := raw[m[2]:m[3]]
			if secretName(name) || publicNameRE.MatchString(strings.ToUpper(name)) {
				continue
			}
			start := strings.LastIndexByte(raw[:m[0]], '\n') + 1
			h := urlHostRE.FindStringSubmatch(raw[start:lineEnd(raw, m[0])])
			if h == nil {
				continue
			}
			host := strings.ToLower(h[1])
			if ownHost(host, nil) {
				continue
			}
			if out == nil {
				out = map[string]held{}
			}
			label, _, _ := strings.Cut(registered(host), ".")
			t := out[name]
			t.merge(held{names: []string{name}, services: []string{label}})
			out[name] = t
		}
	}
	return out
}

// bodyAddressesDropped returns hosts without those a statement names after
// its first written address, when that address is the key's service's: the
// request goes there, and what follows is what it carries, an address
// written out (an image to describe, a page to fetch) or one of a setting
// (an OAuth exchange's redirect_uri: process.env.REDIRECT_URI). What the
// statement names before it is kept: post(RELAY, {ref: "https://api…"})
// sends to RELAY.
func bodyAddressesDropped(text string, hosts, services []string, urls, settings map[string][]string) []string {
	first := urlHostRE.FindStringSubmatchIndex(text)
	if first == nil {
		return hosts
	}
	host := strings.ToLower(text[first[2]:first[3]])
	if !ownHost(host, services) {
		return hosts
	}
	to := addWords(sendHosts(text[:first[0]], urls, settings, false), []string{host})
	var out []string
	for _, h := range hosts {
		if slices.Contains(to, h) {
			out = append(out, h)
		}
	}
	return out
}

// remoteRE is a remote of SSH written out (sync@relay.example), and its
// host; copyCmdRE, a command that copies to one.
var (
	remoteRE  = regexp.MustCompile(`\b[\w.-]+@([a-z0-9][\w-]*(?:\.[\w-]+)+)\b`)
	copyCmdRE = regexp.MustCompile(`\b(?:rsync|scp|sftp|ssh)\b`)
)

// envSettingRE is an address a skill sets a variable of the environment to,
// in a shell, a .env file or an MCP client's settings: a script that
// reads the variable sends there.
var envSettingRE = regexp.MustCompile(`(?m)(?:^|[\s;` + "`" + `])(?:export\s+|set\s+|\$env:)?([A-Z][A-Z0-9_]{2,})\s*=\s*["']?(https?://[^\s"'` + "`" + `]+)|"([A-Z][A-Z0-9_]{2,})"\s*:\s*"(https?://[^"\s]+)"`)

// settingsOf returns the hosts each variable of the environment is set to
// in a skill's files.
func settingsOf(texts []string) map[string][]string {
	out := map[string][]string{}
	n := 0
	for _, raw := range texts {
		// Only a line that sets something to an address is read: most
		// addresses are links.
		for at := 0; n < 64; {
			i := strings.Index(raw[at:], "://")
			if i < 0 {
				break
			}
			start := strings.LastIndexByte(raw[:at+i], '\n') + 1
			end := lineEnd(raw, at+i)
			line := raw[start:end]
			at = end
			if !strings.Contains(line, "=") && !strings.Contains(line, "\":") {
				continue
			}
			for _, m := range envSettingRE.FindAllStringSubmatch(line, 8) {
				name, addr := m[1], m[2]
				if name == "" {
					name, addr = m[3], m[4]
				}
				if h := urlHostRE.FindStringSubmatch(addr); h != nil {
					out[name] = addWords(out[name], []string{strings.ToLower(h[1])})
					n++
				}
			}
		}
	}
	return out
}

// statements splits code into its logical lines: a shell line continued
// with a backslash or a backtick, a call whose brackets close lines
// later, are one statement.
func statements(code string) [][2]int { return splitStatements(code, false) }

// splitStatements is statements; with quotes, the brackets of a string
// written out on one line ("synced (#{type})") are not counted.
func splitStatements(code string, quotes bool) [][2]int {
	var out [][2]int
	start, depth, lines := 0, 0, 0
	for at := 0; at <= len(code); at++ {
		if at < len(code) {
			if quotes && (code[at] == '"' || code[at] == '\'') {
				if end := closingQuote(code, at); end > at {
					at = end
					continue
				}
			}
			switch code[at] {
			case '(', '[':
				depth++
			case '{':
				// A literal's brace (x = {, f({, "k": {) opens what
				// continues; a block's (a function's, an if's) does not.
				if literalBrace(code[start:at]) {
					depth++
				}
			case ')', ']', '}':
				depth = max(depth-1, 0)
			}
			if code[at] != '\n' {
				continue
			}
		}
		lines++
		line := strings.TrimRight(code[start:at], " \t\r")
		if at < len(code) && lines < 16 && (depth > 0 || strings.HasSuffix(line, "\\") || strings.HasSuffix(line, "`") || strings.HasSuffix(line, "|") || strings.HasSuffix(line, "&&") || requestTaskGoesOn(code, start, at)) {
			continue
		}
		if strings.TrimSpace(code[start:at]) != "" {
			out = append(out, [2]int{start, at})
		}
		start, depth, lines = at+1, 0, 0
	}
	return out
}

// closingQuote returns where the string that opens at at closes on its
// line, or -1.
func closingQuote(code string, at int) int {
	for i := at + 1; i < len(code) && code[i] != '\n'; i++ {
		switch {
		case code[i] == '\\' && i+1 < len(code) && code[i+1] != '\n':
			i++ // an escaped character
		case code[i] == code[at]:
			return i
		}
	}
	return -1
}

// literalBrace reports whether a brace after before opens a literal: it
// follows an assignment, a key, an argument's bracket or a comma.
func literalBrace(before string) bool {
	t := strings.TrimRight(before, " \t")
	if t == "" {
		return false
	}
	switch t[len(t)-1] {
	case '=', ':', '(', '[', ',', '{':
		return true
	}
	return false
}

// proseParts splits a paragraph of prose into what is read as one: its
// sentences, and each row of a table and item of a list.
func proseParts(p string) [][2]int {
	var out [][2]int
	start := 0
	cut := func(end int) {
		if strings.TrimSpace(p[start:end]) != "" {
			out = append(out, [2]int{start, end})
		}
		start = end
	}
	for at := 0; at < len(p); at++ {
		switch {
		case p[at] == '\n' && at+1 < len(p) && itemStartRE.MatchString(p[at+1:min(len(p), at+8)]):
			cut(at + 1)
		case (p[at] == '.' || p[at] == '!' || p[at] == '?') && at+2 < len(p) && (p[at+1] == ' ' || p[at+1] == '\n') && p[at+2] >= 'A' && p[at+2] <= 'Z':
			cut(at + 1)
		}
	}
	cut(len(p))
	return out
}

// itemStartRE starts a row of a table, an item of a list or a footnote.
var itemStartRE = regexp.MustCompile(`^\s*(?:\||[-*+] |\d+[.)] |\[\^|>)`)

// secretsIn returns what a statement holds of secrets.
func secretsIn(text string, tainted map[string]held, prose bool) held {
	var h held
	key := func(name string) {
		name = strings.TrimPrefix(name, "$")
		if !secretName(name) {
			// A name the skill uses as a credential holds one.
			if t, ok := tainted[name]; ok {
				h.merge(t)
			}
			return
		}
		if dbAddressNameRE.MatchString(name) {
			h.strong = true
			return
		}
		h.names = addWords(h.names, []string{name})
		if w := serviceOf(name); w != "" {
			h.services = addWords(h.services, []string{w})
		}
	}
	if mayReadEnv(text) {
		for _, m := range envRefRE.FindAllStringSubmatch(text, 16) {
			for _, g := range m[1:] {
				if g != "" {
					key(g)
					break
				}
			}
		}
	}
	if prose {
		// A sentence names a secret in code, as a variable or a file.
		for _, m := range inlineNameRE.FindAllStringSubmatch(text, 16) {
			key(m[1])
		}
		h.strong = h.strong || secretFileRE.MatchString(text) || strings.Contains(text, "`") && secretCmdGated.MatchString(text)
		return h
	}
	if strings.Contains(text, "_") {
		for _, m := range secretFieldRE.FindAllStringSubmatch(text, 8) {
			h.names = addWords(h.names, []string{strings.ToLower(m[1])})
		}
	}
	cmd := text
	if strings.Contains(text, ",") {
		// A command given as a list of words (exec.Command("git",
		// "credential", "fill"), ["gh", "auth", "token"]) is read as one.
		cmd = argvLine(text)
	}
	h.strong = h.strong || strongSecretRE.MatchString(text) || secretFileRE.MatchString(text) || secretCmdGated.MatchString(cmd)
	if len(tainted) > 0 {
		for _, w := range identRE.FindAllString(text, -1) {
			if t, ok := tainted[w]; ok {
				h.merge(t)
			}
		}
	}
	return h
}

// secretFieldRE is a token read from a field of a parsed document (a
// token file's refresh_token): a key like any other, which gives no
// service.
var secretFieldRE = regexp.MustCompile(`(?i)(?:\[\s*["']|\.get\(\s*["']|\.)(refresh_token|access_token|client_secret|id_token|session_token|auth_token)\b`)

// mayReadEnv reports whether text may read a variable of the environment
// as envRefRE does: it holds one of the expression's marks.
func mayReadEnv(text string) bool {
	return strings.ContainsAny(text, "$%") || strings.Contains(text, "env") || strings.Contains(text, "ENV") || strings.Contains(text, "secrets.")
}

// dbAddressNameRE is the name of a database's address, which carries its
// password and is given to a database's client, never to a web request.
var dbAddressNameRE = regexp.MustCompile(`(?:DATABASE_UR[LI]|DB_URL|CONNECTION_STRING|_DSN|^DSN)$`)

// maxWords bounds what a list of names, services or hosts holds: a
// hostile script that sets one name from thousands of secrets or
// addresses costs no more than one that sets it from a few.
const maxWords = 16

// addWords adds to a list the words it lacks, up to maxWords: a name set
// from itself over and over holds each once.
func addWords(list, more []string) []string {
	for _, w := range more {
		if len(list) < maxWords && !slices.Contains(list, w) {
			list = append(list, w)
		}
	}
	return list
}

// inlineNameRE is a name in inline code, as prose gives a variable.
var inlineNameRE = regexp.MustCompile("`\\$?\\{?([A-Z][A-Z0-9_]{2,})\\}?`")

// secretName reports a name of the environment that holds a secret.
func secretName(name string) bool {
	return len(name) > 2 && name == strings.ToUpper(name) && secretNameRE.MatchString(name) && !publicNameRE.MatchString(name)
}

// serviceOf returns the service a secret's name gives (OPENAI_API_KEY:
// openai), or "".
func serviceOf(name string) string {
	w, _, _ := strings.Cut(strings.ToLower(name), "_")
	if len(w) < 3 || genericServiceWords.in(" "+w+" ") {
		return ""
	}
	return w
}

// envKeyLine reports a line that may set a variable of the environment
// as YAML does (an uppercase key: a workflow step's env), the one form
// setNameRE reads with neither "=" nor "(".
func envKeyLine(line string) bool {
	t := strings.TrimLeft(line, " \t-")
	return t != "" && t[0] >= 'A' && t[0] <= 'Z' && strings.Contains(t, ":")
}

// destructureRE is a loop that takes each item apart into names (for
// (const [, host, tok] of tokens)): each name holds what the item does.
var destructureRE = regexp.MustCompile(`^\s*for\s*\(\s*(?:const|let|var)\s+[\[{]([^\]}]*)[\]}]\s+of\b`)

// setNames returns the names a statement of code sets.
func setNames(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		// Every form setNameRE reads holds one of these.
		if !strings.ContainsAny(line, "=(") && !strings.Contains(line, "for ") && !strings.Contains(line, " as ") && !envKeyLine(line) {
			continue
		}
		if m := destructureRE.FindStringSubmatch(line); m != nil {
			out = append(out, identRE.FindAllString(m[1], maxWords)...)
		}
		for _, m := range setNameRE.FindAllStringSubmatch(line, 2) {
			for _, g := range m[1:] {
				if g != "" {
					out = append(out, g)
				}
			}
		}
	}
	return out
}

// sendHosts returns the hosts a statement sends to: addresses written out
// in it, or held by a name it uses.
func sendHosts(text string, urls, settings map[string][]string, prose bool) []string {
	var out []string
	for _, m := range urlHostRE.FindAllStringSubmatch(text, 8) {
		out = addWords(out, []string{strings.ToLower(m[1])})
	}
	if prose {
		return out
	}
	for _, re := range []*regexp.Regexp{scpHostRE, registryHostRE} {
		for _, m := range re.FindAllStringSubmatch(text, 4) {
			out = addWords(out, []string{strings.ToLower(m[1])})
		}
	}
	if len(settings) > 0 && mayReadEnv(text) {
		for _, m := range envRefRE.FindAllStringSubmatch(text, 16) {
			for _, g := range m[1:] {
				if g != "" {
					out = addWords(out, settings[g])
					break
				}
			}
		}
	}
	if len(urls) > 0 {
		for _, w := range identRE.FindAllString(text, -1) {
			out = addWords(out, urls[w])
		}
	}
	return out
}

// ownHost reports a host a secret may go to whatever the skill says: this
// machine or its network, a placeholder for the user's own, a service the
// secret's name gives, a large provider's API.
func ownHost(host string, services []string) bool {
	h := strings.Trim(host, "[]")
	if a, err := netip.ParseAddr(h); err == nil {
		return a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsUnspecified()
	}
	if placeholderHostRE.MatchString(h) {
		return true
	}
	return serviceHost(h, services) || ownServiceHostRE.MatchString(h) && !sinkHostOfService(h)
}

// serviceHost reports a host at the domain of one of services. The
// service's own domain is its name, or its name run into a word
// (getcamino.ai, postmarkapp.com, lumalabs.ai for LUMAAI_API_KEY); a
// look-alike joins it to another with a hyphen (npmjs-status.org,
// grafana-dashhub.com).
func serviceHost(h string, services []string) bool {
	label, _, _ := strings.Cut(registered(h), ".")
	for _, w := range services {
		if label == w || !strings.Contains(label, "-") && (strings.Contains(label, w) || commonPrefix(label, w) >= 4) {
			return true
		}
		for _, l := range strings.Split(h, ".") {
			if l == w {
				return true
			}
		}
	}
	return false
}

// commonPrefix returns the length of the prefix a and b share (lumaai and
// lumalabs: 4).
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// maxNamedDomains bounds the domains a skill's text is searched for.
const maxNamedDomains = 256

// namedHosts tells whether a skill names a host's owner in its own words:
// the words of its files with every address taken out.
type namedHosts struct {
	words    map[string]bool
	squashed string          // the text's letters and digits, lowered
	known    map[string]bool // names' answers, by registered domain
}

// addressOrHostRE is an address or a host written out, which names nothing.
var addressOrHostRE = regexp.MustCompile(`(?i)\b(?:[a-z][a-z0-9+.-]*://|[\w.+-]+@)[^\s"'<>)\]]*|\b[\w-]+(?:\.[\w-]+)*\.(?:com|net|org|io|dev|app|ai|co|cloud|xyz|site|sh|me|info|tech|pro|run|work|page|tools|live|online|link|host|space|hub|so|gg|to|us|uk|de|ru|cn)\b`)

// newNamedHosts reads the words of a skill's texts.
func newNamedHosts(texts []string) *namedHosts {
	n := &namedHosts{words: map[string]bool{}, known: map[string]bool{}}
	var sq strings.Builder
	for _, raw := range texts {
		text := strings.ToLower(addressOrHostRE.ReplaceAllString(raw, " "))
		for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !wordRune(r) }) {
			n.words[w] = true
		}
		for _, r := range text {
			if r < 0x80 && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
				sq.WriteRune(r)
			}
		}
	}
	n.squashed = sq.String()
	return n
}

// wordRune is a rune of a word of a host's name.
func wordRune(r rune) bool {
	return r == '-' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9'
}

// names reports whether the skill names the owner of host: the label of
// its registered domain (openweathermap of api.openweathermap.org) as a
// word, or, spelled without its hyphens, within the skill's words run
// together ("Open Weather Map").
func (n *namedHosts) names(host string) bool {
	reg, err := publicsuffix.EffectiveTLDPlusOne(strings.Trim(host, "[]"))
	if err != nil {
		return false
	}
	// Each domain is looked for once, since the search runs through the
	// whole skill, and a skill that sends secrets to more domains than
	// maxNamedDomains names none of the others: it fails closed.
	if named, ok := n.known[reg]; ok {
		return named
	}
	if len(n.known) >= maxNamedDomains {
		return false
	}
	label, _, _ := strings.Cut(reg, ".")
	squashed := strings.ReplaceAll(label, "-", "")
	named := n.words[label] || len(squashed) >= 6 && strings.Contains(n.squashed, squashed)
	n.known[reg] = named
	return named
}

// namesWord reports whether the skill names the owner of host as a word
// of its own (PagerDuty for api.pagerduty.com). A look-alike made from
// the skill's name (gitmulti.dev in a git-multi-account skill) is named
// only within words run together, which names counts and this does not.
func (n *namedHosts) namesWord(host string) bool {
	reg, err := publicsuffix.EffectiveTLDPlusOne(strings.Trim(host, "[]"))
	if err != nil {
		return false
	}
	label, _, _ := strings.Cut(reg, ".")
	return n.words[label]
}

// A fork of a mail skill adds a recipient: every message the user sends
// is copied to an address of the fork's (a BCC in a docstring, a list of
// recipients with one more in it), or the messages it finds are
// forwarded there. The address is written out, at a
// domain the skill does not name in its own words; a skill's placeholder
// (you@example.com) is the user's.

// recipientsRE is what sets the recipients of a message, forwards it (a
// mail rule's forwardTo), or shares a document (sheet.share(…)).
var recipientsRE = mustGate(`(?i)\bbcc\b|\bblind\s+(?:carbon\s+)?cop(?:y|ies)\b|\bto_addrs\b|\brcpts?\b|\brecipients\b|\bforward(?:s|ed|ing|To|_to|ingAddress|ing_address)?\b|\bredirect(?:To|_to)\b|\.share\s*\(|\badd_?[Cc]ollaborator\b`)

// emailAddrRE is an address of mail written out, and its domain.
var emailAddrRE = regexp.MustCompile(`\b[\w.+-]+@([a-zA-Z0-9][\w-]*(?:\.[\w-]+)*\.[a-zA-Z]{2,})\b`)

// addedRecipients adds, to each file of a skill, a recipient written out
// that the skill adds to the user's mail.
func addedRecipients(r *skillReading, scanned []*findings) {
	for i, raw := range r.texts {
		if !strings.Contains(raw, "@") || !recipientsRE.MatchString(raw) {
			continue
		}
	units:
		for _, u := range r.unitsOf(i) {
			var kept map[string][]string // a name of code set to addresses: the addresses
			for _, st := range u.parts() {
				text := u.text[st[0]:st[1]]
				if !recipientsRE.MatchString(text) {
					// An address kept in a name (ARCHIVE = "log@…") is
					// added where the name is.
					if !u.prose && strings.Contains(text, "@") {
						for _, name := range setNames(text) {
							for _, a := range emailAddrRE.FindAllString(text, 4) {
								if kept == nil {
									kept = map[string][]string{}
								}
								kept[name] = addWords(kept[name], []string{a})
							}
						}
					}
					continue
				}
				addrs := emailAddrRE.FindAllString(text, 4)
				if len(kept) > 0 {
					for _, w := range identRE.FindAllString(text, -1) {
						addrs = append(addrs, kept[w]...)
					}
				}
				for _, a := range addrs {
					domain := strings.ToLower(a[strings.LastIndexByte(a, '@')+1:])
					if ownHost(domain, nil) {
						continue
					}
					if r.named().names(domain) {
						continue
					}
					scanned[i].add(RuleExfiltrate, SeverityWithhold, u.start+st[0], u.start+min(st[1], st[0]+200),
						"the user's mail or files copied or shared to "+a+", an address the skill does not name")
					break units
				}
			}
		}
	}
}
