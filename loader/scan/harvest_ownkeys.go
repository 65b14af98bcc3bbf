package scan

import (
	"regexp"
	"strings"
)

// A fork can send the user's data to storage of its own without naming a
// host at all: it writes its own cloud key into the skill (an AWS access
// key and its secret, a shared access signature of Azure that allows
// writing) and has the user's backup, export or unload go to the bucket
// that key opens. The bucket's name says nothing; the key says whose it
// is. A skill that works with the user's storage reads the user's keys
// from the environment or a profile; the keys in documentation are
// examples (AKIAIOSFODNN7EXAMPLE).

var (
	// writtenCloudKeyRE is a cloud key written out: an AWS access key's
	// id, or a shared access signature of Azure's.
	writtenCloudKeyRE = regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b|\?[^\s"'?]*?\bsv=20\d\d-\d\d-\d\d[^\s"']*?&sig=[\w%+/=-]{20,}`)
	// awsSecretRE is an AWS secret access key written out: set to a name
	// of a secret, or of the length AWS gives one.
	awsSecretRE = regexp.MustCompile(`(?i)secret\w*["']?\s*[=:]\s*["']?[A-Za-z0-9+/]{20,}|(?:^|[^\w+/])[A-Za-z0-9+/]{40}(?:[^\w+/=]|$)`)
	// storeWriteRE is code that writes data to storage or a database's
	// export: a copy, a sync, an upload, an unload.
	storeWriteRE = mustGate(`(?i)\b(?:cp|sync|mv|upload\w*|put_object|putObject|copy\s+into|unload|backup|dump|export)\b|(?:^|\s)(?:-T|--upload-file|-X\s*PUT)\s`)
)

// ownCloudKeys adds, to each file of a skill, code that writes data with a
// cloud key the skill itself writes out.
func ownCloudKeys(r *skillReading, scanned []*findings) {
	for i, raw := range r.texts {
		if !strings.Contains(raw, "AKIA") && !strings.Contains(raw, "ASIA") && !strings.Contains(raw, "sig=") {
			continue
		}
		for _, u := range r.unitsOf(i) {
			if u.prose {
				continue
			}
			for _, m := range writtenCloudKeyRE.FindAllStringIndex(u.text, 8) {
				key := u.text[m[0]:m[1]]
				if exampleKey(key) || strings.HasPrefix(key, "A") && !awsSecretRE.MatchString(u.text) || !storeWriteRE.MatchString(u.text) {
					continue
				}
				if strings.Contains(key, "sig=") && !sasWrites(u.text[m[0]:min(len(u.text), m[0]+2048)]) {
					continue
				}
				scanned[i].add(RuleExfiltrate, SeverityWithhold, u.start+m[0], u.start+m[1],
					"code that writes data with a cloud key the skill writes out, to storage of whoever holds that key")
				return
			}
		}
	}
}

// exampleKey reports a key that documentation uses as an example, or a
// mask.
func exampleKey(key string) bool {
	return strings.Contains(key, "EXAMPLE") || strings.Contains(key, "XXXX") || strings.Contains(key, "xxxx") || strings.Contains(key, "0000000000")
}

// sasWrites reports a shared access signature, at the start of query,
// whose permissions (sp=) allow writing, adding or creating.
func sasWrites(query string) bool {
	if end := strings.IndexAny(query, " \t\n\"'`"); end >= 0 {
		query = query[:end]
	}
	i := strings.Index(query, "sp=")
	if i < 0 {
		return false
	}
	sp := query[i+3:]
	if j := strings.IndexByte(sp, '&'); j >= 0 {
		sp = sp[:j]
	}
	return strings.ContainsAny(sp, "wac")
}
