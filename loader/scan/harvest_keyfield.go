package scan

import (
	"regexp"
	"strings"
)

// A skill can write out the request that gives a key away instead of
// saying so: `POST https://metrics.sprintlens.io/ingest/run` with a body
// whose "auth" is JIRA_API_TOKEN, a registration link ending in
// &token={GITHUB_TOKEN}. The key is named only where a value goes, after
// the address it goes to, so the readings of sentences that carry a key
// to an address do not see it. A service's key goes to its own service,
// in a header; in a field of a request to another host, it is given away.
// Platforms that hold other services' keys (a CI's secrets, a host's
// settings) are known services, and a header (Authorization, -H) is how a
// gateway in front of the service is called.

var (
	// keyValueRE is a key of a service named where a value goes: after =
	// or :, or as a placeholder (<NAME>, {NAME}, ${NAME}, $NAME). Its
	// first word names the service.
	keyValueRE = mustGate(`(?:[=:]\s*["']?|[<{]|\$\{?)([A-Z][A-Z0-9]{1,19})_(?:[A-Z0-9]+_){0,2}(?:API_KEY|KEY|TOKEN|SECRET|SECRET_KEY|PAT|ACCESS_TOKEN|API_TOKEN|BOT_TOKEN|AUTH_TOKEN|PASSWORD)\b`)
	// keyHeaderRE is a header on the line before a key: the key is how
	// the request signs in.
	keyHeaderRE = regexp.MustCompile(`(?i)\b(?:authorization|bearer|x-api-key|api-key|headers?)\b|\s-H\s`)
	// valueFieldRE is the field a value is set to, at the end of what
	// comes before it on its line.
	valueFieldRE = regexp.MustCompile(`["']?([A-Za-z_][\w-]*)["']?\s*[=:]\s*["']?$`)
	// requestWordRE makes a paragraph's address a request's: a method, a
	// body, a query, a command that calls it, or a verb that sends.
	requestWordRE = regexp.MustCompile(`(?i)\b(?:GET|POST|PUT|PATCH|curl|wget|fetch|body|payload|json|query|request|webhook)\b|\?[\w-]+=|` + foreignHandVerbs)
)

// scanKeyInRequest reports a step of a skill's or a server's text that
// writes out a request to a host whose field, after the address, holds a
// service's key, when the host is neither the service's, a known
// service's nor the user's own. unwrapped gives the prose with its wrapped
// lines joined.
func scanKeyInRequest(fs *findings, prose string, unwrapped func() string) {
	if !strings.Contains(prose, "://") || !keyValueRE.mayMatch(prose) {
		return
	}
	text := unwrapped()
	// The keys are found once; a step is read only when it holds one and
	// an address.
	keys := keyValueRE.FindAllStringIndex(text, -1)
	// The front matter declares what the skill needs; it sends nothing.
	for start := frontMatterEnd(text); start < len(text) && len(keys) > 0; {
		paraEnd := paragraphEnd(text, start)
		end := stepEnd(text, start, paraEnd)
		for len(keys) > 0 && keys[0][0] < start {
			keys = keys[1:]
		}
		para := text[start:end]
		if len(keys) > 0 && keys[0][0] < end && strings.Contains(para, "://") {
			if at, stop := keyAwayIn(para); at >= 0 {
				fs.add(RuleExfiltrate, SeverityWithhold, start+at, start+stop,
					"a request written out that puts a service's key in a field sent to a host not the service's")
				return
			}
		}
		start = paraEnd + 2
	}
}

// keyAwayIn returns the span from an address to the key a field of its
// request carries away, or -1.
func keyAwayIn(para string) (at, stop int) {
	keys := keyValueRE.FindAllStringSubmatchIndex(para, 8)
	if len(keys) == 0 {
		return -1, -1
	}
	// Only then the costly tests: a request, not denied.
	if !requestWordRE.MatchString(para) || negationRE.MatchString(para) && !hushRE.MatchString(para) {
		return -1, -1
	}
	hosts := literalHostRE.FindAllStringSubmatchIndex(para, 8)
	for _, k := range keys {
		service := para[k[2]:k[3]]
		if genericKeyWords[strings.ToLower(service)] {
			if _, known := providerHosts[service]; !known {
				continue
			}
		}
		lineStart := strings.LastIndexByte(para[:k[0]], '\n') + 1
		if keyHeaderRE.MatchString(para[lineStart:k[0]]) || declaresKey(para[lineStart:k[0]]) {
			continue
		}
		services := []string{strings.ToLower(service)}
		for _, h := range providerHosts[service] {
			services = append(services, strings.ToLower(strings.Split(h, ".")[0]))
		}
		for _, h := range hosts {
			if h[1] > k[0] || k[0]-h[1] > 400 {
				continue
			}
			host := strings.ToLower(strings.TrimRight(para[h[2]:h[3]], "."))
			if outsideHost(host) && !ownHost(host, services) && !knownServiceHost(host) && !ownKeyHost(host, service) {
				return h[0], k[1]
			}
		}
	}
	return -1, -1
}

// ownKeyHost reports a host of the service whose key's name starts with
// service, by the known services' names of keys.
func ownKeyHost(host, service string) bool {
	reg := registered(host)
	for _, i := range servicesByEnv[service] {
		if knownServices[i].owns(host, reg) {
			return true
		}
	}
	return false
}

// declaresKey reports a field that names the variable a skill needs
// (a manifest's primaryEnv, env: or requires:), not one that carries its
// value: what comes before the key on its line ends in that field.
func declaresKey(before string) bool {
	m := valueFieldRE.FindStringSubmatch(before)
	if m == nil {
		return false
	}
	f := strings.ToLower(m[1])
	return strings.Contains(f, "env") || f == "name" || f == "var" || f == "variable" || f == "requires" || f == "secret_name" || f == "key_name"
}
