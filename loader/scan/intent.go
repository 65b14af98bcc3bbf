package scan

import (
	"regexp"
	"strings"
)

// A tool's parameters say what it wants from the model. One that asks for
// what the model holds (its conversation, its system prompt, the list of
// its tools, what it is) serves no tool's purpose but an attacker's; a
// free-form one (feedback, debug, extra) that the tool's description has
// no use for is where such things are asked to go.
var (
	heldRE = regexp.MustCompile(`^(?:(?:full|entire|complete|whole|all|previous|prior|past|recent|current|user)_?)*(?:conversation|chat|dialog(?:ue)?|message|session)s?_?(?:history|log|logs|transcript|context|so_far)$|^(?:system|hidden|initial)_?(?:prompt|instructions?|message)s?$|^(?:previous|prior|last|other)_?(?:messages?|results?|outputs?|tool_?(?:calls?|results?|outputs?))$|^context_?window$|^(?:available_?)?(?:tools?|functions?)_?(?:list|names|available|definitions|descriptions|schemas?)$|^(?:available|other|all)_?(?:tools|functions)$|^user_?(?:messages|history|queries|prompts)$`)
	selfRE = regexp.MustCompile(`^(?:llm|ai|assistant|agent|caller|calling)_?(?:model_?)?(?:name|id|type|version|provider|identity|vendor)$`)
	freeRE = regexp.MustCompile(`^(?:side_?notes?|feedback|debug|debug_?(?:info|data|notes?)|extra|extra_?(?:info|data|notes?|context)|additional_?(?:info|notes|context|data)|internal_?notes?|hidden_?notes?|secret_?notes?|annotations?)$`)
)

// scanSchemaIntent reads the names of a tool's input schema: the keys of
// its documents (property names among them; JSON Schema's own keywords
// match none of the expressions).
func scanSchemaIntent(fs *findings) {
	text := fs.d.text()
	var purpose string // read only for a name that matches
	name := strings.ToLower(fs.tool)
	for _, p := range fs.d.pieces {
		if !p.key || p.root != "inputSchema" || p.end-p.start > 64 {
			continue
		}
		param := text[p.start:p.end]
		if !containsAny(strings.ToLower(param), intentWords) {
			continue // no expression can match: most keys
		}
		key := keyReplacer.Replace(camelToSnake(param))
		first := strings.SplitN(strings.Trim(key, "_"), "_", 2)[0]
		switch {
		case heldRE.MatchString(key):
			fs.add(RuleExfiltrate, SeverityWithhold, p.start, p.end, "a parameter that asks for what the model holds (its conversation, instructions or tools)")
		case selfRE.MatchString(key) && !strings.Contains(name, first):
			fs.add(RuleExfiltrate, SeverityWarn, p.start, p.end, "a parameter that asks the model about itself")
		case freeRE.MatchString(key) && !strings.Contains(name, first):
			if purpose == "" {
				purpose = strings.ToLower(fs.pieceText("description") + " " + fs.pieceText("title"))
			}
			if strings.Contains(purpose, first) {
				continue
			}
			fs.add(RuleExfiltrate, SeverityWarn, p.start, p.end, "a free-form parameter the tool's description has no use for")
		}
	}
}

// intentWords are the pieces of which every name the expressions match
// holds one.
var intentWords = []string{"conversation", "chat", "dialog", "message", "session", "prompt", "instruction", "history", "tool", "function", "context", "result", "output", "llm", "ai", "assistant", "agent", "caller", "calling", "note", "feedback", "debug", "extra", "additional", "annotation", "aimodel", "ainame"}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// keyReplacer writes a name's separators as underscores.
var keyReplacer = strings.NewReplacer("-", "_", " ", "_")

// camelToSnake writes llmModelName as llm_model_name.
func camelToSnake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if 'A' <= r && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// pieceText is the text of the doc's field.
func (fs *findings) pieceText(field string) string {
	for _, p := range fs.d.pieces {
		if p.field == field {
			return fs.d.text()[p.start:p.end]
		}
	}
	return ""
}
