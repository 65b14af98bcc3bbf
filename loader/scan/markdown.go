package scan

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// A skill's fenced code blocks are samples as often as instructions: an
// HTML sample with its comments, a test that holds an injection string, a
// .env template. A block is read for what the prose around it does with
// it: one the skill says to write into the model's instructions (CLAUDE.md,
// AGENTS.md, a system prompt) is read as instructions; a shell block is
// read as the commands it runs; any other is a sample, which only the
// invisible-character and decoding rules read.
type codeBlock struct {
	start, end int // of the block's body in the text
	run        bool
}

// blockIndex returns the index of the block that holds pos, or -1 for
// prose.
func blockIndex(blocks []codeBlock, pos int) int {
	for i, b := range blocks {
		if b.start <= pos && pos < b.end {
			return i
		}
	}
	return -1
}

var (
	fenceRE = regexp.MustCompile("(?m)^[ \t]{0,3}(```+|~~~+)[ \t]*([\\w+#.-]*)[^\n]*\n")
	// memoryRE finds prose that puts a block into the model's standing
	// instructions.
	memoryRE = regexp.MustCompile(`(?i)(?:claude|agents|gemini|copilot-instructions|codex)\.md\b|\.(?:cursorrules|windsurfrules|clinerules)\b|\b(?:system\s+prompt|custom\s+instructions|memory\s+file|your\s+(?:instructions|memory|rules))\b`)
	writeRE  = regexp.MustCompile(`(?i)\b(?:add|append|write|put|paste|insert|save|include|copy|update|place|prepend|store)\b`)
)

// shellLangs are the info strings of blocks of commands.
var shellLangs = map[string]bool{"bash": true, "sh": true, "shell": true, "zsh": true, "console": true, "terminal": true, "powershell": true, "ps1": true, "pwsh": true, "cmd": true, "bat": true, "fish": true, "shell-session": true, "shellsession": true}

// maskCode returns text with the bodies of its sample blocks blanked
// (line breaks kept, so offsets and lines hold), and the blocks.
func maskCode(text string) (string, []codeBlock) {
	if !strings.Contains(text, "```") && !strings.Contains(text, "~~~") {
		return text, nil
	}
	var blocks []codeBlock
	masked := []byte(text)
	pos := 0
	for pos < len(text) {
		m := fenceRE.FindStringSubmatchIndex(text[pos:])
		if m == nil {
			break
		}
		fence, lang := text[pos+m[2]:pos+m[3]], strings.ToLower(text[pos+m[4]:pos+m[5]])
		bodyStart := pos + m[1]
		c := closingFence(fence).FindStringIndex(text[bodyStart:])
		bodyEnd, next := len(text), len(text)
		if c != nil {
			bodyEnd, next = bodyStart+c[0], bodyStart+c[1]
		}
		lead := text[max(pos+m[0]-300, 0) : pos+m[0]]
		if i := strings.LastIndex(lead, "\n\n"); i >= 0 && i < len(lead)-2 {
			lead = lead[i:]
		}
		switch {
		case memoryRE.MatchString(lead) && writeRE.MatchString(lead):
			// read as instructions: left as it is
		default:
			blocks = append(blocks, codeBlock{start: bodyStart, end: bodyEnd, run: shellLangs[lang]})
			for i := bodyStart; i < bodyEnd; i++ {
				if masked[i] != '\n' {
					masked[i] = ' '
				}
			}
		}
		pos = next
	}
	return string(masked), blocks
}

// closingFence returns the expression of the line that closes a block opened
// by fence: the same character, at least as many times. The usual fences'
// expressions are compiled once (closeFences), not once per block of every
// skill file; a longer fence, which only a hostile file has many sizes of,
// is compiled for its block.
func closingFence(fence string) *regexp.Regexp {
	key := fence[:1] + strconv.Itoa(len(fence))
	if re, ok := closeFences.Load(key); ok {
		return re.(*regexp.Regexp)
	}
	re := regexp.MustCompile("(?m)^[ \t]{0,3}" + regexp.QuoteMeta(fence[:1]) + "{" + strconv.Itoa(len(fence)) + ",}[ \t]*$")
	if len(fence) <= maxCachedFence {
		closeFences.Store(key, re)
	}
	return re
}

// closeFences holds closingFence's expressions by fence character and
// length, up to maxCachedFence.
var closeFences sync.Map

const maxCachedFence = 8

// A command that reads a secret file and sends it over the network, on one
// line or one pipeline.
var (
	shellSinkRE = regexp.MustCompile(`(?i)\b(?:curl|wget|nc|ncat|netcat|socat|scp|rsync|ftp|sftp|telnet|invoke-webrequest|invoke-restmethod|iwr|irm)\b|/dev/tcp/|https?://`)
)

// scanShellBlock reports lines of a shell block that send a secret file
// over the network. A secret path alone is setup ("cp .env.example .env").
func scanShellBlock(fs *findings, text string, b codeBlock) {
	body := text[b.start:b.end]
	off := b.start
	for _, line := range strings.SplitAfter(body, "\n") {
		// An echo that only prints, or appends a setting to a file
		// (echo "URL=https://…" >> .env), sends nothing.
		if shellSinkRE.MatchString(line) && !printsText(line) {
			for _, p := range patterns {
				if p.rule != RuleSecretPath {
					continue
				}
				if m := p.re.FindStringIndex(line); m != nil {
					s, e := trimSpan(line, 0, len(line))
					fs.add(RuleExfiltrate, SeverityWithhold, off+s, off+e, "a command that sends a secret file over the network")
					break
				}
			}
		}
		off += len(line)
	}
}
