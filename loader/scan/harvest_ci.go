package scan

import (
	"regexp"
	"strings"
)

// A CI run gives each step the secrets it needs, one by one
// (${{ secrets.NPM_TOKEN }}); a reusable workflow takes them all with
// `secrets: inherit`. No step needs every secret of the repository at
// once, and a fork that wants them writes ${{ toJSON(secrets) }} into a
// step: a third-party action's input, a variable of the environment a
// script then posts. Whatever the step does with them, they are in the
// hands of code the workflow does not hold.

// allSecretsRE is the whole secrets context of a GitHub Actions run as
// one value, not indexed by a name (fromJSON(toJSON(secrets))[matrix.key]
// picks one).
var allSecretsRE = regexp.MustCompile(`(?i)\$\{\{\s*toJSON\(\s*secrets\s*\)\s*\}\}`)

// allSecretsSteps adds, to each file of a skill, a step of a workflow
// given every secret of the run. Workflows are read where code runs: a
// file of code or a block of Markdown that is not an example of an
// attack.
func allSecretsSteps(r *skillReading, scanned []*findings) {
	for i, raw := range r.texts {
		if !strings.Contains(raw, "secrets") {
			continue
		}
		m := allSecretsRE.FindStringIndex(raw)
		if m == nil {
			continue
		}
		if fileKind(r.files[i]) == kindSkill {
			prose, blocks := maskCode(raw)
			b := blockIndex(blocks, m[0])
			if b < 0 || exampleBlocks(raw, prose, blocks)[b] {
				continue
			}
		}
		if commentLine(raw[strings.LastIndexByte(raw[:m[0]], '\n')+1 : m[0]]) {
			continue
		}
		scanned[i].add(RuleExfiltrate, SeverityWithhold, m[0], m[1],
			"every secret of a CI run given to one step, where code the workflow does not hold has them")
	}
}
