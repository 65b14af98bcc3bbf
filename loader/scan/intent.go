package scan

import (
	"encoding/json"
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
	// selfDescRE is a description that asks the model about itself.
	selfDescRE = regexp.MustCompile(`(?i)\b(?:(?:model|llm|ai|assistant|agent)\s+(?:that|which|who)\s+(?:is\s+)?(?:calls?|calling|uses?|using|invokes?|invoking)\s+this\s+(?:tool|function)|your\s+(?:own\s+)?(?:model|name|identity|version|system\s+prompt|instructions)|you\s+are\s+(?:running|using)\s+(?:as|on))\b`)
	freeRE     = regexp.MustCompile(`^(?:side_?notes?|feedback|debug|debug_?(?:info|data|notes?)|extra|extra_?(?:info|data|notes?|context)|additional_?(?:info|notes|context|data)|internal_?notes?|hidden_?notes?|secret_?notes?|annotations?)$`)
)

// scanSchemaIntent reads the properties of a tool's input schema.
func scanSchemaIntent(fs *findings, src map[string]any) {
	data, ok := src["inputSchema"].(json.RawMessage)
	if !ok {
		if src["inputSchema"] == nil {
			return
		}
		var err error
		if data, err = json.Marshal(src["inputSchema"]); err != nil {
			return
		}
	}
	var schema struct {
		Properties map[string]struct {
			Description string `json:"description"`
			Title       string `json:"title"`
		} `json:"properties"`
	}
	if json.Unmarshal(data, &schema) != nil {
		return
	}
	purpose := strings.ToLower(fs.pieceText("description") + " " + fs.pieceText("title"))
	name := strings.ToLower(fs.tool)
	for param, p := range schema.Properties {
		key := strings.ToLower(strings.NewReplacer("-", "_", " ", "_").Replace(camelToSnake(param)))
		desc := p.Description + " " + p.Title
		switch {
		case heldRE.MatchString(key):
			fs.addKey(param, SeverityWithhold, "a parameter that asks for what the model holds (its conversation, instructions or tools)")
		case selfDescRE.MatchString(desc):
			fs.addKey(param, SeverityWithhold, "a parameter that asks the model about itself")
		case selfRE.MatchString(key) && !strings.Contains(name, strings.SplitN(key, "_", 2)[0]):
			fs.addKey(param, SeverityWarn, "a parameter that asks the model about itself")
		case freeRE.MatchString(key) && !strings.Contains(purpose, strings.SplitN(strings.Trim(key, "_"), "_", 2)[0]):
			fs.addKey(param, SeverityWarn, "a free-form parameter the tool's description has no use for")
		}
	}
}

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

// addKey reports a parameter's name: the key piece of the input schema
// that spells it.
func (fs *findings) addKey(name string, sev Severity, msg string) {
	text := fs.d.text()
	for _, p := range fs.d.pieces {
		if p.key && p.root == "inputSchema" && text[p.start:p.end] == name {
			fs.add(RuleExfiltrate, sev, p.start, p.end, msg)
			return
		}
	}
}
