package scan

import (
	"maps"
	"regexp"
	"slices"
	"strings"
)

// A fork's script can gather the user's logins of several services into
// one report it posts "for the dashboard" (an Apple password and a GitHub
// token in a notarization hook's timing sample), or put one into a
// message to a chat webhook or a paste service. A host takes the login of
// its own service; no host is the service of two, and a catch-all
// webhook is nobody's service. The post may be made by a helper the
// script calls (reportQueue(info) with https.request({host: …}) inside),
// or by a call that names the address and the payload together (fastlane's
// slack(slack_url: …, payload: {…})).

var (
	// hostOptionRE is a host given as an option of a request
	// (https.request({host: 'stats.example.io'})).
	hostOptionRE = regexp.MustCompile(`(?i)\b(?:host|hostname)\s*[:=]\s*["']([a-z0-9][\w-]*(?:\.[\w-]+)+)["']`)
	// funcDefRE starts a function: JavaScript's, Python's, Ruby's,
	// Groovy's, a shell's, a class's method.
	funcDefRE = regexp.MustCompile(`^([ \t]*)(?:(?:export\s+)?(?:async\s+)?function\s+([A-Za-z_]\w*)\s*\(|(?:const|let|var)\s+([A-Za-z_]\w*)\s*=\s*(?:async\s+)?(?:function\b|\([^)\n]*\)\s*=>|[A-Za-z_]\w*\s*=>)|(?:async\s+)?def\s+([A-Za-z_]\w*)|(?:async\s+)?([A-Za-z_]\w*)\s*\([^)\n]*\)\s*\{\s*$)`)
	// callWithAddressRE is a call given an address written out among its
	// arguments (slack(slack_url: "https://…", …)): the call sends there.
	callWithAddressRE = regexp.MustCompile(`(?is)\b[A-Za-z_][\w.]*\s*\(.{0,400}?["']https?://`)
	// sendExtraRE sends in the languages sendCallRE leaves out: a Java or
	// Groovy connection opened to an address.
	sendExtraRE = regexp.MustCompile(`\.openConnection\s*\(|\bHttpRequest\.newBuilder\b`)
)

// controlWords are the keywords funcDefRE's method form would take for a
// name.
var controlWords = newWordSet("if", "for", "while", "switch", "catch", "with", "function", "return", "elif", "else")

// secretBundles adds, to each file of a skill, a statement of code that
// sends logins of two known services or more to one host that is
// neither's and that the skill does not name, or a login to a catch-all
// host.
func secretBundles(r *skillReading, scanned []*findings) {
	for i, raw := range r.texts {
		if !strings.Contains(raw, "//") && !strings.Contains(raw, "host") || !mayReadEnv(raw) {
			continue
		}
	units:
		for _, u := range r.unitsOf(i) {
			// Every bundle starts from a secret read from the
			// environment: a unit that reads none is passed over.
			if u.prose || !mayReadEnv(u.text) || len(envSecretNames(u.text)) == 0 {
				continue
			}
			senders := sendingFuncs(u.text)
			bundles := map[string][]string{} // a name set from secrets: their names
			for _, st := range splitStatements(u.text, true) {
				text := u.text[st[0]:st[1]]
				if commentLine(text) {
					continue
				}
				names := envSecretNames(text)
				for _, w := range identRE.FindAllString(text, -1) {
					names = addWords(names, bundles[w])
				}
				if len(names) == 0 {
					continue
				}
				hosts := bundleHosts(text, senders)
				if len(hosts) == 0 {
					for _, name := range setNames(text) {
						bundles[name] = addWords(bundles[name], names)
					}
					continue
				}
				at, end := u.start+st[0], u.start+min(st[1], st[0]+200)
				if sink := sinkHostRE.FindString(text); sink != "" {
					scanned[i].add(RuleExfiltrate, SeverityWithhold, at, end,
						"a login ("+names[0]+") sent to "+sink+", which shows what it receives to whoever holds the address")
					continue units
				}
				services := servicesOfNames(names)
				if len(services) < 2 || anyOwnHost(hosts) {
					continue // to the user's own host: other addresses are its body's
				}
				for _, host := range hosts {
					if ownHost(host, services) || knownServiceHost(host) || r.named().names(host) {
						continue
					}
					scanned[i].add(RuleExfiltrate, SeverityWithhold, at, end,
						"logins of several services ("+strings.Join(names[:min(len(names), 3)], ", ")+") sent together to "+host+", which is the host of none of them")
					continue units
				}
			}
		}
	}
}

// envSecretNames returns the variables of the environment a statement
// reads whose names say they hold a secret.
func envSecretNames(text string) []string {
	var out []string
	for _, m := range envRefRE.FindAllStringSubmatch(text, 16) {
		for _, g := range m[1:] {
			if g != "" {
				if secretName(g) {
					out = addWords(out, []string{g})
				}
				break
			}
		}
	}
	return out
}

// servicesOfNames returns the known services the names of secrets give,
// by their first words (APPLE_APP_SPECIFIC_PASSWORD, GH_TOKEN: apple, gh).
// A first word that names no service (FROM_TOKEN, a swap's token) gives
// none.
func servicesOfNames(names []string) []string {
	var out []string
	for _, n := range names {
		w, _, _ := strings.Cut(n, "_")
		if _, known := providerHosts[w]; known || len(servicesByEnv[w]) > 0 {
			out = addWords(out, []string{strings.ToLower(w)})
		}
	}
	return out
}

// knownServiceHost reports a host of a service of knownServices or a large
// provider's API: a platform that holds the secrets of other services
// (a host's settings, a CI's secrets) is given several at once.
func knownServiceHost(host string) bool {
	reg := registered(host)
	for _, s := range knownServices {
		if s.owns(host, reg) {
			return true
		}
	}
	return ownServiceHostRE.MatchString(host)
}

// bundleHosts returns the hosts a statement sends to: a request's
// addresses and host options, a call given an address, a call of a
// function of the unit that sends.
func bundleHosts(text string, senders map[string][]string) []string {
	var out []string
	if sendCallRE.MatchString(text) || sendExtraRE.MatchString(text) || callWithAddressRE.MatchString(text) {
		out = requestHosts(text)
	}
	for _, name := range slices.Sorted(maps.Keys(senders)) { // in one order, so that a finding names the same host each time
		if at := strings.Index(text, name+"("); at >= 0 && (at == 0 || !wordByte(text[at-1])) && !funcDefRE.MatchString(text) {
			out = addWords(out, senders[name])
		}
	}
	return out
}

// requestHosts returns the addresses (as sendHosts reads them) and host
// options a text writes out.
func requestHosts(text string) []string {
	out := sendHosts(text, nil, nil, true)
	for _, m := range hostOptionRE.FindAllStringSubmatch(text, 4) {
		out = addWords(out, []string{strings.ToLower(m[1])})
	}
	return out
}

// anyOwnHost reports whether one of a request's hosts is this machine's
// or a placeholder for the user's own: the request goes there, and the
// other addresses it writes out are its body's.
func anyOwnHost(hosts []string) bool {
	return slices.ContainsFunc(hosts, func(h string) bool { return ownHost(h, nil) })
}

// maxSenders bounds the functions of a unit read for what they send.
const maxSenders = 32

// sendingFuncs returns the functions a unit of code defines whose bodies
// send to an address written out, with its hosts. A body runs from its
// definition to the next definition indented no deeper.
func sendingFuncs(code string) map[string][]string {
	type def struct {
		name   string
		indent int
		at     int
	}
	var defs []def
	for at := 0; at < len(code) && len(defs) < maxSenders; {
		end := strings.IndexByte(code[at:], '\n')
		if end < 0 {
			end = len(code)
		} else {
			end += at
		}
		if m := funcDefRE.FindStringSubmatch(code[at:end]); m != nil {
			name := m[2] + m[3] + m[4] + m[5]
			if !controlWords.in(" " + name + " ") {
				defs = append(defs, def{name, len(m[1]), at})
			}
		}
		at = end + 1
	}
	out := map[string][]string{}
	for k, d := range defs {
		stop := len(code)
		for _, e := range defs[k+1:] {
			if e.indent <= d.indent {
				stop = e.at
				break
			}
		}
		body := code[d.at:stop]
		if !sendCallRE.MatchString(body) && !sendExtraRE.MatchString(body) {
			continue
		}
		if hosts := requestHosts(body); len(hosts) > 0 {
			out[d.name] = hosts
		}
	}
	return out
}
