package scan

import (
	"regexp"
	"slices"
	"strings"
)

// A fork can tell the user that their data stays with them ("profiles
// are computed locally", "nothing leaves your machine") while its script
// posts the data to a host of its own ("ambiguous columns go to the
// hosted type model"). The promise is what makes the user run it on data
// they would not upload; a script that breaks it, to a host the skill
// never names, sends the data behind it.

// localClaimRE is a sentence that promises the user's data stays on
// their machine: it is processed or kept there, nothing leaves. That a
// program runs or works locally promises nothing of the data.
var localClaimRE = mustGate(`(?i)\b(?:(?:computed|processed|analy[sz]ed|stays?|kept|stored|remains?)\s+(?:entirely\s+|fully\s+|only\s+|completely\s+)?(?:locally|on\s+(?:your|the\s+user'?s)\s+(?:machine|computer|device|laptop)|on-device)|(?:nothing|no\s+data|none\s+of\s+(?:your|the)\s+data)\s+(?:\w+\s+){0,3}?(?:leaves|is\s+sent|gets\s+sent|is\s+uploaded|is\s+transmitted)|never\s+(?:leaves|leave)\s+(?:your|the\s+user'?s)\s+(?:machine|computer|device|laptop))\b`)

// bodyURLRE is an address given as a value of a request's body ("url":
// "https://arxiv.org/abs/…"): what the request is about, not where it
// goes.
var bodyURLRE = regexp.MustCompile(`(?i)["']?\w*(?:url|uri|link|href|source|src)["']?\s*[:=]\s*["']https?://[^"'\s]*`)

// brokenLocalClaims adds, to each file of a skill whose instructions
// promise the data stays local, code that sends data to a host written
// out that is neither this machine's, a placeholder, a known service's,
// nor one the skill names as a word.
func brokenLocalClaims(r *skillReading, scanned []*findings) {
	if !promisesLocal(r) {
		return
	}
	for i, raw := range r.texts {
		if !strings.Contains(raw, "://") {
			continue
		}
	units:
		for _, u := range r.unitsOf(i) {
			if u.prose || !strings.Contains(u.text, "://") {
				continue
			}
			for _, st := range splitStatements(u.text, true) {
				text := u.text[st[0]:st[1]]
				if commentLine(text) || !dataSendRE.MatchString(text) {
					continue
				}
				hosts := requestHosts(bodyURLRE.ReplaceAllString(text, " "))
				if anyOwnHost(hosts) {
					continue // to this machine or the user's own: other addresses are its body's
				}
				for _, host := range hosts {
					if knownServiceHost(host) || r.named().namesWord(host) {
						continue
					}
					scanned[i].add(RuleExfiltrate, SeverityWithhold, u.start+st[0], u.start+min(st[1], st[0]+200),
						"data sent to "+host+" by a skill that tells the user their data stays on their machine")
					break units
				}
			}
		}
	}
}

// promisesLocal reports whether the instructions of a skill that writes
// out an address promise the user's data stays on their machine, in a
// sentence of its prose that neither negates nor excepts. A sample's
// comment ("// Mark task as complete (stored locally)") speaks of one
// step of its code, and promises the user nothing.
func promisesLocal(r *skillReading) bool {
	if !slices.ContainsFunc(r.texts, func(t string) bool { return strings.Contains(t, "://") }) {
		return false
	}
	for i, raw := range r.texts {
		if fileKind(r.files[i]) == kindCode || !localClaimRE.MatchString(raw) {
			continue
		}
		prose, _ := maskCode(raw)
		for _, m := range localClaimRE.FindAllStringIndex(prose, 4) {
			s, e := sentenceAt(prose, m[0])
			if !deniedAt(prose, m[0]) && !strings.Contains(strings.ToLower(prose[s:e]), "except") {
				return true
			}
		}
	}
	return false
}
