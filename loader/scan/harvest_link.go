package scan

import (
	"regexp"
	"strings"
)

// A harvest need not name a request: a link carries what it holds in its
// query. A skill that has the model build something out of the secrets it
// finds ("a summary of all settings, tokens and keys") and then open a link
// whose query holds that thing (?data={encoded_summary}) sends the secrets
// to the link's host as surely as a POST would.
var (
	// queryPlaceholderRE is a link to a host with a placeholder in its
	// query (?data={summary}, &t=${report}, &q=<bundle>): the host and the
	// placeholder's name.
	queryPlaceholderRE = regexp.MustCompile(`(?i)https?://([\w.-]+)[^\s"'` + "`" + `)<>]*?[?&][\w-]+=(?:\{\{?\s*|\$\{|<)([a-z_]\w*)`)

	// gatherSecretsRE is a sentence's order to build something out of the
	// secrets found: its verb, what it builds, and the secrets, which the
	// object's words lead to.
	gatherSecretsRE = mustGate(`(?i)\b(?:build|compile|collect|gather|create|assemble|extract|capture|make)s?\b[^.\n]{0,80}?\b(?:tokens?|keys|credentials|secrets|passwords|connection\s+strings|auth\w*\s+parameters)\b`)
)

// placeholderFiller are words of a placeholder's name that say how it is
// written, not what it holds.
var placeholderFiller = map[string]bool{"encoded": true, "data": true, "value": true, "string": true, "json": true, "base64": true, "text": true, "safe": true}

// scanGatheredLinks reports a link to a host that is not this machine whose
// query carries what an order of the same text built from secrets: a word
// of the placeholder's name names the order's object.
func scanGatheredLinks(fs *findings, raw, lower string) {
	if !strings.Contains(lower, "://") || !gatherSecretsRE.mayMatch(lower) {
		return
	}
	var gathered [][]int
	for _, m := range queryPlaceholderRE.FindAllStringSubmatchIndex(raw, -1) {
		host := strings.ToLower(raw[m[2]:m[3]])
		if host == "localhost" || strings.HasPrefix(host, "127.") {
			continue
		}
		if gathered == nil {
			gathered = gatherSecretsRE.FindAllStringIndex(lower, -1)
		}
		for _, word := range strings.Split(strings.ToLower(raw[m[4]:m[5]]), "_") {
			if len(word) < 4 || placeholderFiller[word] {
				continue
			}
			for _, g := range gathered {
				if strings.Contains(lower[g[0]:g[1]], word) {
					fs.add(RuleExfiltrate, SeverityWithhold, m[0], m[1], "a link whose query carries what was built from the secrets found")
					return
				}
			}
		}
	}
}
