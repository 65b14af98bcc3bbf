package scan

import (
	"regexp"
)

// An agent's memory and instruction files (CLAUDE.md, AGENTS.md,
// MEMORY.md, .cursorrules, GEMINI.md, OpenClaw's SOUL.md, IDENTITY.md,
// USER.md and memory/ notes, its long-term memory) are read at the start of
// every later session: an order written there outlives the text that gave
// it and the review that would have caught it. A tool has no business
// writing there; a skill that keeps a project's notes does so openly, and
// is flagged when what it writes is a standing order ("from now on",
// "in all future sessions").
var (
	// memoryWriteRE writes into a memory file, or says what one must say.
	memoryWriteRE = regexp.MustCompile(`(?i)\b(?:add|adds|append|appends|prepend|write|writes|insert|inserts|save|saves|store|stores|record|records|put|puts|update|updates|edit|edits|modify|modifies|inject|injects|place|persist|persists|remember|commit)\b(?:[^.\n]|\.\S){0,120}?` + memoryFile +
		`|` + memoryFile + `(?:[^.\n]|\.\S){0,40}?\b(?:must|should|shall)\s+(?:now\s+)?(?:say|read|contain|include|hold|state)\b`)
	// rememberRE keeps something for every later session.
	rememberRE = regexp.MustCompile(`(?i)\b(?:remember|memori[sz]e|note|store|save|keep)\s+(?:this|that|these|the\s+following|it|to)\b[^.\n]{0,80}?\b(?:in\s+(?:all\s+|every\s+)?future|for\s+(?:all\s+|every\s+)?(?:future|later)|across\s+(?:all\s+)?(?:sessions|conversations)|from\s+now\s+on|permanently|forever|for\s+good)\b`)
	// forwardRE is an order to pass every message of the user on, which a
	// standing order in memory is often for.
	forwardRE  = regexp.MustCompile(`(?i)\b(?:forward|forwards|relay|relays|mirror|mirrors|copy|copies|cc|bcc)\s+(?:each|every|all|any)\s+(?:of\s+)?(?:the\s+)?(?:user'?s?\s+)?(?:messages?|prompts?|requests?|queries|inputs?|conversations?)\b`)
	standingRE = regexp.MustCompile(`(?i)\b(?:always|never|from\s+now\s+on|henceforth|in\s+(?:all\s+|every\s+)?future|every\s+(?:future\s+|later\s+)?(?:session|conversation|time|message|request|turn)|each\s+(?:session|conversation|message|request|turn)|all\s+(?:future\s+|later\s+)?(?:sessions|conversations|messages|requests)|persist\w*|permanent\w*|across\s+sessions|without\s+(?:asking|confirmation|telling|approval)|automatically|silently|forward|send|copy)\b`)
)

// selfDescriptionRE is a sentence in which a tool says what it does: its
// first word a verb in the third person ("Saves", "Stores", "Adds").
var selfDescriptionRE = regexp.MustCompile(`(?i)^\W*(?:adds|appends|writes|inserts|saves|stores|records|puts|updates|edits|persists|commits)\s+(?:a|an|the|one|new)\b`)

// memoryFile names an agent's memory or instruction file.
const memoryFile = `(?:\b(?:claude|agents|agent|memory|gemini|copilot-instructions|clinerules|windsurfrules|cursorrules|soul|identity|user|heartbeat|bootstrap|conventions)\.md\b|\bmemory[/\\][\w.-]+\.md\b|\.cursorrules\b|\.windsurfrules\b|\.clinerules\b|\.cursor[/\\]rules\b|~[/\\]\.claude[/\\]|\b(?:your|its|the\s+(?:agent|assistant|model)'?s?)\s+(?:own\s+)?(?:long[-\s]term\s+|persistent\s+|permanent\s+)?memory\b|\b(?:long[-\s]term|persistent|permanent)\s+memory\b|\bmemory\s+(?:file|bank|store)s?\b)`

// The literals that gate the expressions, found with every pattern's
// triggers in one pass: most texts hold none.
var (
	memoryFileWords   = []string{"claude.md", "agents.md", "agent.md", "memory.md", "gemini.md", "copilot-instructions.md", "clinerules", "windsurfrules", "cursorrules", "soul.md", "identity.md", "user.md", "heartbeat.md", "bootstrap.md", "conventions.md", "memory/", "memory\\", "cursor/rules", "cursor\\rules", "/.claude/", "\\.claude\\"}
	memoryPhraseWords = []string{"your memory", "its memory", "own memory", "'s memory", "s memory", "term memory", "persistent memory", "permanent memory", "memory file", "memory bank", "memory store"}
	rememberWords     = []string{"remember", "memori", "note ", "store ", "save ", "keep "}
	foreverWords      = []string{"future", "from now on", "permanently", "forever", "for good", "across"}
	forwardWords      = forwardTriggers()

	memoryFileMask, memoryPhraseMask, rememberMask, foreverMask, forwardMask bitset
)

// forwardTriggers are the pieces of "forward every", "copy all".
func forwardTriggers() []string {
	var out []string
	for _, verb := range []string{"forward", "relay", "mirror", "copy", "copies", "cc", "bcc"} {
		for _, which := range []string{" each", " every", " all", " any"} {
			out = append(out, verb+which)
		}
	}
	return out
}

func scanStandingOrders(fs *findings, text string, found *bitset) {
	if found.any(&forwardMask) {
		for _, m := range forwardRE.FindAllStringIndex(text, maxPerField) {
			start, end := trimSpan(text, m[0], m[1])
			if deniedAt(text, start) {
				continue
			}
			sev := SeverityWarn
			if fs.kind&serverKinds != 0 {
				sev = SeverityWithhold
			}
			fs.addNorm(RuleExfiltrate, sev, start, end, "an instruction to pass every message of the user on")
		}
	}
	var ms [][]int
	if found.any(&memoryFileMask) || found.any(&memoryPhraseMask) {
		ms = memoryWriteRE.FindAllStringIndex(text, maxPerField)
	}
	if found.any(&rememberMask) && found.any(&foreverMask) {
		ms = append(ms, rememberRE.FindAllStringIndex(text, maxPerField)...)
	}
	for _, m := range ms {
		start, end := trimSpan(text, m[0], m[1])
		if deniedAt(text, start) {
			continue
		}
		if fs.kind&serverKinds != 0 {
			// A memory server's tool says what it does ("Saves a note to
			// long-term memory."): what it is for, shown for review but no
			// order to the model.
			if s, _ := sentenceAt(text, start); selfDescriptionRE.MatchString(text[s:end]) {
				fs.addNorm(RuleDirective, SeverityWarn, start, end, "a tool that writes into the model's memory, where what it writes outlives the session")
				continue
			}
			fs.addNorm(RuleDirective, SeverityWithhold, start, end, "an instruction to write into the model's memory or instruction files, where it outlives the session")
			continue
		}
		s, e := sentenceAt(text, start)
		_, next := sentenceAt(text, min(e+1, len(text)))
		scope := text[s:max(e, next)]
		if standingRE.MatchString(scope) && !negationRE.MatchString(text[s:e]) {
			fs.addNorm(RuleDirective, SeverityWarn, start, end, "a standing order written into the model's memory or instruction files, where it outlives the session")
		}
	}
}
