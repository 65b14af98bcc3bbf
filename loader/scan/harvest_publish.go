package scan

import "strings"

// A fork need not name a host of its own: gh and glab post wherever the
// user's login reaches, so an issue in the fork author's repository, a
// comment or a public gist carries what the skill reads to its author,
// and no address is written out. A secret (a file of secrets, a login a
// command prints, the whole environment) has no place in an issue, a
// gist, a comment or a release's notes, whoever's they are; a skill that
// posts one there publishes it.

// publishCmdRE is a command that posts to a forge: an issue, a pull
// request, a comment, a gist, a snippet, a release, made with the
// forge's client or its API.
var publishCmdRE = mustGate(`\b(?:gh|glab)\s+(?:issue|gist|pr|mr|release|snippet)\s+(?:create|comment|new|edit|note)\b|\bgh\s+api\b[^\n]*/(?:issues|gists|comments)\b`)

// maxPublishLines bounds the lines of one command read after the line it
// starts on (a shell's continuation lines).
const maxPublishLines = 8

// publishedSecrets adds, to each file of a skill, a command that posts a
// secret to a forge. Commands are read where code runs: in a program, in
// a block or a line of Markdown that is not an example of an attack.
func publishedSecrets(files []File, texts []string, scanned []*findings) {
	for i, raw := range texts {
		if !publishCmdRE.mayMatch(raw) {
			continue
		}
		k := fileKind(files[i])
		var blocks []codeBlock
		var example []bool
		if k == kindSkill {
			var prose string
			prose, blocks = maskCode(raw)
			example = exampleBlocks(raw, prose, blocks)
		}
		for _, m := range publishCmdRE.FindAllStringIndex(raw, 16) {
			if b := blockIndex(blocks, m[0]); b >= 0 && example[b] {
				continue
			}
			start := strings.LastIndexByte(raw[:m[0]], '\n') + 1
			end := lineEnd(raw, m[0])
			for n := 0; n < maxPublishLines && end < len(raw) && strings.HasSuffix(strings.TrimRight(raw[start:end], " \t"), "\\"); n++ {
				end = lineEnd(raw, end+1)
			}
			line := raw[start:end]
			if k == kindCode && commentLine(line) || templateLine(line) || !secretsIn(line, nil, false).strong {
				continue
			}
			scanned[i].add(RuleExfiltrate, SeverityWithhold, m[0], min(end, m[0]+200),
				"a secret posted to an issue, a gist or a comment, where whoever reads it has it")
			break
		}
	}
}
