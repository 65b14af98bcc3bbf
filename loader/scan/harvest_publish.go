package scan

import (
	"regexp"
	"slices"
	"strings"
)

// A fork need not name a host of its own: gh and glab post wherever the
// user's login reaches, so an issue in the fork author's repository, a
// comment or a public gist carries what the skill reads to its author,
// and no address is written out. A secret (a file of secrets, a login a
// command prints, the whole environment) has no place in an issue, a
// gist, a comment or a release's notes, whoever's they are; a skill that
// posts one there publishes it.

// publishCmdRE is a command that posts to a forge: an issue, a pull
// request, a comment, a gist, a snippet, a release, made with the
// forge's client or a request to its API.
var publishCmdRE = mustGate(`\b(?:gh|glab)\s+(?:issue|gist|pr|mr|release|snippet)\s+(?:create|comment|new|edit|note)\b|\bgh\s+api\b[^\n]*/(?:issues|gists|comments)\b|://[^\s"'<>]*/(?:issues|gists|comments|notes|snippets)(?:[/?"'\s]|$)`)

// publishWords are what a text that holds a command of publishCmdRE
// holds, looked for before the expression runs.
var publishWords = []string{"gh ", "glab ", "/issues", "/gists", "/comments", "/notes", "/snippets"}

// writtenFileRE is a file a command's output is written to.
var writtenFileRE = regexp.MustCompile(`(?:>>?|\btee\s+(?:-a\s+)?|\s-o\s+|--output[=\s])\s*["']?([~/$\w.{}-][^\s"';|&)>]*)`)

// maxPublishLines bounds the lines of one command read around the line
// it is on (a shell's continuation lines).
const maxPublishLines = 8

// publishedSecrets adds, to each file of a skill, a command that posts a
// secret to a forge: one it reads, or a file a command that prints one
// wrote (kubectl config view --raw > report.txt, then --body-file
// report.txt). Commands are read where code runs: in a program, in a
// block or a line of Markdown that is not an example of an attack.
func publishedSecrets(r *skillReading, scanned []*findings) {
	for i, raw := range r.texts {
		if !containsAny(raw, publishWords) || !publishCmdRE.mayMatch(raw) {
			continue
		}
		k := fileKind(r.files[i])
		var blocks []codeBlock
		var example []bool   // worked out at the first command
		var written []string // files a secret is written to before the first command read
		for _, m := range publishCmdRE.FindAllStringIndex(raw, 16) {
			if k == kindSkill && example == nil {
				var prose string
				prose, blocks = maskCode(raw)
				example = exampleBlocks(raw, prose, blocks)
			}
			if b := blockIndex(blocks, m[0]); b >= 0 && example[b] {
				continue
			}
			start, end := commandAround(raw, m[0])
			line := raw[start:end]
			if k == kindCode && commentLine(line) || templateLine(line) {
				continue
			}
			if strings.Contains(raw[m[0]:m[1]], "://") && !sendCallRE.MatchString(line) {
				continue // a link to an issue, not a request
			}
			if written == nil {
				written = secretFilesWritten(raw[:m[0]])
			}
			// A login used as the request's own credential (a header) is
			// not what it posts.
			posted := headerArgRE.ReplaceAllString(line, " ")
			if !secretsIn(posted, nil, false).strong && !slices.ContainsFunc(written, func(f string) bool { return strings.Contains(posted, f) }) {
				continue
			}
			scanned[i].add(RuleExfiltrate, SeverityWithhold, m[0], min(end, m[0]+200),
				"a secret posted to an issue, a gist or a comment, where whoever reads it has it")
			break
		}
	}
}

// commandAround returns the command the line at pos of text is part of:
// the line with the lines a shell's backslash joins to it.
func commandAround(text string, pos int) (start, end int) {
	start = strings.LastIndexByte(text[:pos], '\n') + 1
	for n := 0; n < maxPublishLines && start > 0; n++ {
		prev := strings.LastIndexByte(text[:start-1], '\n') + 1
		if !strings.HasSuffix(strings.TrimRight(text[prev:start-1], " \t"), "\\") {
			break
		}
		start = prev
	}
	end = lineEnd(text, pos)
	for n := 0; n < maxPublishLines && end < len(text) && strings.HasSuffix(strings.TrimRight(text[start:end], " \t"), "\\"); n++ {
		end = lineEnd(text, end+1)
	}
	return start, end
}

// secretFilesWritten returns the files that lines of text holding a
// secret write their output to; an empty list, not nil, when none does.
func secretFilesWritten(text string) []string {
	out := []string{}
	for _, m := range writtenFileRE.FindAllStringSubmatchIndex(text, 64) {
		start, end := commandAround(text, m[0])
		if f := text[m[2]:m[3]]; len(f) > 3 && f != "/dev/null" && secretsIn(text[start:end], nil, false).strong {
			out = append(out, f)
		}
	}
	return out
}
