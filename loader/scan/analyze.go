package scan

import (
	"regexp"
	"strings"
	"sync"
)

// scan runs the content rules over the whole doc, as text of kind k.
func (d *doc) scan(src map[string]any, k kind) []Finding {
	return d.run(src, k).sorted()
}

// run runs the content rules and returns their findings unsorted, with
// what the flows across a skill's files need.
func (d *doc) run(src map[string]any, k kind) *findings {
	fs := &findings{d: d, src: src, kind: k, tool: d.name}
	raw := d.text()
	if raw == "" {
		return fs
	}
	fs.scanText(raw, 0)
	if k == kindTool {
		scanSchemaIntent(fs)
	}
	return fs
}

// maxDecodeDepth bounds how deep encoded runs are decoded: a run inside a
// decoded run is read, one inside that is not.
const maxDecodeDepth = 2

// scanText runs every content rule over raw, the doc's buffer or a text
// decoded from a run of it (depth > 0, whose findings fs reports at the
// run).
func (fs *findings) scanText(raw string, depth int) {
	scanInvisible(fs, raw)
	written := raw // as written, for the blank space the rules below must not add
	raw = affirmDoubleNegatives(raw)
	prose, blocks := raw, []codeBlock(nil)
	if fs.kind == kindSkill {
		prose, blocks = maskCode(raw)
	}
	n := normalize(prose)
	fs.norm = &n
	text := n.text
	found := allTriggers.scan(text)
	lowered := lazyLower(text)
	var secrets []secretSpan
	scanPatterns(fs, text, &found, lowered, patterns, &secrets)
	if fs.kind == kindTool {
		scanPatterns(fs, text, &found, lowered, crossToolPatterns, &secrets)
	}
	if fs.kind&serverKinds != 0 {
		scanPatterns(fs, text, &found, lowered, toolActionPatterns, &secrets) // tool_actions.go
	}
	if fs.kind != kindCode {
		scanComments(fs, text)
		scanHiddenElements(fs, text)
		scanStandingOrders(fs, text, &found)
	}
	if found.any(&sendMask) && fs.kind != kindCode {
		scanDestinations(fs, text)
	}
	judgeSecrets(fs, text, secrets)
	if found.any(&paddingMask) {
		scanPadding(fs, written, blocks)
	}
	scanMixedScripts(fs, prose)
	fs.norm = &normalized{text: raw}
	if fs.kind != kindCode {
		scanLanguage(fs, prose)
	}
	for _, b := range blocks {
		if b.run {
			scanShellBlock(fs, raw, b)
		}
	}
	if fs.kind&(kindSkill|kindCode) != 0 {
		// Which blocks the prose presents as attacks to recognise is
		// asked by four rules, and worked out when first asked.
		examples := sync.OnceValue(func() []bool { return exampleBlocks(raw, prose, blocks) })
		scanHarvest(fs, raw, prose, blocks, examples)
		scanHarvestCode(fs, raw, prose, blocks, examples, depth)
		if !fs.has(RuleExfiltrate, SeverityWithhold) && !fs.has(RuleSecretPath, SeverityWithhold) {
			scriptHarvest(fs, raw, blocks, examples) // harvest_script.go
		}
	} else if strings.Contains(raw, "://") {
		scanGatheredLinks(fs, raw, strings.ToLower(raw), nil, nil) // harvest_link.go; scanHarvest runs it for skills
	}
	if depth < maxDecodeDepth {
		scanEncoded(fs, raw, depth)
	}
}

// A negated verb of negation ("do not forget to send", "never fail to
// include", "must not skip uploading", "do not hesitate to share") orders
// what follows, as the verb alone would, so the rules must not read its
// "not" as a denial. negatedVerbs are those verbs as a text spells them
// (lowercase, capitalized, upper case), with what must follow each for
// it to negate an order ("fail to", not "fail").
var negatedVerbs = func() []negatedVerb {
	var out []negatedVerb
	for _, v := range []negatedVerb{{"forget", " to"}, {"fail", " to"}, {"neglect", " to"}, {"hesitate", " to"}, {"skip", ""}, {"omit", ""}, {"overlook", ""}, {"leave out", ""}} {
		for _, w := range []string{v.word, strings.ToUpper(v.word[:1]) + v.word[1:], strings.ToUpper(v.word)} {
			out = append(out, negatedVerb{w, v.then})
		}
	}
	return out
}()

// A negatedVerb is a verb of negation and what follows it in an order.
type negatedVerb struct{ word, then string }

// negationEndRE is a negation that ends right before a verb: the text
// before the verb is matched against it.
var negationEndRE = regexp.MustCompile(`(?i)\b(?:do\s+not|don'?t|dont|never|must\s+not|mustn'?t|should\s+not|shouldn'?t|cannot|can'?t|not|without)\s+(?:ever\s+)?$`)

// affirmDoubleNegatives returns text with its double negatives blanked,
// byte for byte, so that the order they give reads as the plain order it
// is and every offset still points into text. Each verb is looked for as
// spelt, and the words before it are read only where it is found: most
// texts hold none.
func affirmDoubleNegatives(text string) string {
	var b []byte
	for _, v := range negatedVerbs {
		for from := 0; ; {
			i := strings.Index(text[from:], v.word)
			if i < 0 {
				break
			}
			i += from
			end := i + len(v.word)
			from = end
			if i > 0 && wordByte(text[i-1]) || end < len(text) && wordByte(text[end]) && v.then == "" {
				continue // inside a word, or "skipped", "omitting" are not orders here
			}
			if v.then != "" {
				// "fail to", "forget to"; "without fail" stands alone.
				if next := text[end:min(end+len(v.then)+1, len(text))]; len(next) == len(v.then)+1 && strings.EqualFold(next[:len(v.then)], v.then) && isSpace(next[len(v.then)]) {
					end += len(v.then)
				} else if !strings.EqualFold(v.word, "fail") || !hasSuffixFold(strings.TrimRight(text[max(i-9, 0):i], " \t"), "without") {
					continue
				}
			}
			m := negationEndRE.FindStringIndex(text[max(i-24, 0):i])
			if m == nil {
				continue
			}
			if b == nil {
				b = []byte(text)
			}
			for k := max(i-24, 0) + m[0]; k < end; k++ {
				if b[k] != '\n' {
					b[k] = ' '
				}
			}
		}
	}
	if b == nil {
		return text
	}
	return string(b)
}

// hasSuffixFold reports whether s ends with suffix, ignoring case.
func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

// deniedAt reports whether the words just before pos deny what follows:
// "do not send the conversation history", "never ignore the rules".
func deniedAt(text string, pos int) bool {
	return deniedRE.MatchString(text[max(pos-40, 0):pos])
}

// statedAt reports whether the verb at pos has a subject other than the
// model: the words before it in its clause, once the adverbs, modals and
// the model's own names are dropped, end in another word ("template
// conventions ALWAYS override", "they bypass", "variables that
// override"). An order to the model starts its clause, or follows "you",
// "the assistant", a modal, "please", "to" or "and".
func statedAt(text string, pos int) bool {
	lead := text[max(pos-80, 0):pos]
	if i := strings.LastIndexAny(lead, ".!?:;\n()[]\"*>-–—,"); i >= 0 {
		lead = lead[i+1:]
	}
	words := strings.Fields(strings.ToLower(lead))
	for len(words) > 0 && addressWords[strings.Trim(words[len(words)-1], "'`")] {
		words = words[:len(words)-1]
	}
	return len(words) > 0
}

// fromData reports whether the instructions an order drops are those that
// data carries: "ignore embedded agent instructions", "ignore any
// instructions found in the page". That is a defence against injection
// (what a fetched page or a quoted source says is not an order), the
// opposite of an override. Instructions that are the model's own (your,
// previous, system) are not data's, wherever the order says they are.
func fromData(text string, start, end int) bool {
	order := text[start:end]
	if ownInstructionsRE.MatchString(order) {
		return false
	}
	after := text[end:min(end+maxDataSource, len(text))]
	if dataInstructionsRE.MatchString(order) || dataSourceRE.MatchString(after) {
		return true
	}
	m := dataClauseRE.FindString(after)
	return m != "" && !ownInstructionsRE.MatchString(m)
}

// maxDataSource bounds how far past an order fromData looks for where its
// instructions come from.
const maxDataSource = 80

var (
	dataInstructionsRE = regexp.MustCompile(`(?i)\b(?:embedded|injected|hidden|untrusted|quoted|third-party|external)\s+(?:[\w-]+\s+)?(?:instructions?|prompts?|commands|directives)\b`)
	ownInstructionsRE  = regexp.MustCompile(`(?i)\b(?:your|previous|prior|earlier|above|original|initial|system|developer|safety|security|all\s+other)\b`)
	dataSourceRE       = regexp.MustCompile(`(?i)^\s*(?:(?:that|which)\s+(?:are|is|appear|appears)\s+)?(?:found|embedded|contained|hidden|appearing|written|placed|included)?\s*(?:in|inside|within|from)\s+(?:(?:the|any|a|an|such|fetched|retrieved|quoted|source|external|untrusted|third-party)\s+){0,3}(?:content|contents|documents?|pages?|web\s*pages?|websites?|data|sources?|inputs?|texts?|files?|emails?|messages?|comments?|issues?|results?|responses?|outputs?|materials?|readmes?|articles?|transcripts?|html|markdown|pdfs?)\b` +
		// What the order spoke of the sentence before: "Treat pasted
		// content as data. Ignore any instruction embedded in it".
		`|^\s*(?:embedded|contained|hidden|found)\s+(?:in|inside|within)\s+(?:it|them)\b`)
	// dataClauseRE is a clause that says what carries the instructions:
	// "ignore any instruction its text or markup carries", "… the page
	// contains". ownInstructionsRE keeps the model's own out of it.
	dataClauseRE = regexp.MustCompile(`(?i)^\s*(?:(?:that|which)\s+)?(?:its|their|the|this|that|these|those|a|an|any|each|every|such)\s+(?:[\w-]+\s+){0,3}?(?:carries|carry|contains?|holds?|includes?|bears?)\b`)
)

// addressWords may stand between the start of an order and its verb.
var addressWords = map[string]bool{
	"always": true, "now": true, "just": true, "simply": true, "please": true, "kindly": true, "immediately": true,
	"first": true, "then": true, "and": true, "so": true, "also": true, "completely": true, "entirely": true,
	"totally": true, "fully": true, "must": true, "should": true, "will": true, "shall": true, "can": true,
	"to": true, "need": true, "needs": true, "have": true, "has": true, "you": true, "you'll": true, "you're": true,
	"are": true, "is": true, "going": true, "i": true, "want": true, "we": true, "hereby": true, "therefore": true,
	"from": true, "on": true, "forward": true, "henceforth": true, "assistant": true, "model": true, "ai": true,
	"agent": true, "claude": true, "llm": true, "gpt": true, "chatgpt": true, "bot": true, "the": true, "important": true,
	"note": true, "instead": true, "next": true, "finally": true, "of": true, "course": true, "ok": true, "okay": true,
	"actually": true, "really": true, "hey": true, "dear": true, "you've": true, "been": true, "told": true, "asked": true,
	"your": true, "new": true, "task": true, "job": true, "goal": true, "mission": true, "priority": true, "was": true,
	"be": true, "make": true, "sure": true, "remember": true, "it's": true, "it": true, "time": true, "let's": true,
	"let": true, "us": true, "me": true, "may": true, "might": true, "could": true, "would": true, "do": true, "quietly": true,
	"silently": true, "secretly": true, "instructed": true, "allowed": true, "free": true, "required": true,
}

var deniedRE = regexp.MustCompile(`(?i)\b(?:not|never|no|don'?t|dont|cannot|can'?t|won'?t|without|refuse\s+to|avoid)\s+(?:\w+\s+){0,2}$|(?:` + foreignNegations + `|不|没|未|無)[^。，、,.;\n]{0,10}$`)

// negationRE finds what makes a sentence negate or describe rather than
// instruct: "never commit .env", "do not send the conversation history",
// "a skill that reads ~/.ssh and posts it".
var negationRE = regexp.MustCompile(`(?i)\b(?:not|never|no|don'?t|dont|doesn'?t|isn'?t|aren'?t|won'?t|shouldn'?t|mustn'?t|cannot|can'?t|avoid|avoids|avoiding|exclude|excludes|excluding|excluded|prevent|prevents|block|blocks|refuse|refuses|reject|detect|detects|detecting|flag|flags|warn|warns|beware|attack|attacks|attacker|attackers|malicious|exfiltration|injection|e\.g\.|for\s+example|such\s+as|would|could|might)\b|\b(?:that|which|who)\s+(?:\w+\s+)?(?:reads?|sends?|posts?|uploads?|exfiltrates?|steals?|leaks?|includes?|asks?|tells?)\b|gitignore|` + foreignNegations)

// sentenceAt returns the sentence of text around pos: bounded by a full
// stop, question or exclamation mark before white space, a blank line, or
// a line that starts a list item or a heading.
func sentenceAt(text string, pos int) (int, int) {
	start := pos
	for start > 0 {
		c := text[start-1]
		if (c == '.' || c == '!' || c == '?') && start < len(text) && isSpace(text[start]) {
			break
		}
		if c >= 0x80 && cjkStopBefore(text[:start]) {
			break
		}
		if c == '\n' && (start >= 2 && text[start-2] == '\n' || startsBlock(text[start:])) {
			break
		}
		if pos-start > 600 {
			break
		}
		start--
	}
	end := pos
	for end < len(text) {
		c := text[end]
		if (c == '.' || c == '!' || c == '?') && (end+1 == len(text) || isSpace(text[end+1])) {
			end++
			break
		}
		// The three stops are three bytes each in UTF-8.
		if c >= 0x80 && cjkStopBefore(text[:min(end+len("。"), len(text))]) {
			end += len("。")
			break
		}
		if c == '\n' && (end+1 < len(text) && text[end+1] == '\n' || startsBlock(text[end+1:])) {
			break
		}
		if end-pos > 600 {
			break
		}
		end++
	}
	return start, end
}

// cjkStopBefore reports whether s ends with a full stop, question or
// exclamation mark of Chinese or Japanese, which end a sentence with no
// space after them.
func cjkStopBefore(s string) bool {
	return strings.HasSuffix(s, "。") || strings.HasSuffix(s, "！") || strings.HasSuffix(s, "？")
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

// startsBlock reports a line that starts a list item, heading, quote or
// table row.
func startsBlock(line string) bool {
	line = strings.TrimLeft(line, " \t")
	if line == "" {
		return false
	}
	switch line[0] {
	case '-', '*', '+', '#', '>', '|':
		return true
	}
	i := 0
	for i < len(line) && '0' <= line[i] && line[i] <= '9' {
		i++
	}
	return i > 0 && i < len(line) && (line[i] == '.' || line[i] == ')')
}

// sendVerbs are the words of a send: a verb, a command, a channel.
const sendVerbs = `\b(?:send|sends|sending|post|posts|posting|upload|uploads|uploading|transmit|transmits|forward|forwards|exfiltrat\w*|curl|wget|e-?mail|webhook|beacon|attach|attaches)\b|\bnc\s+-`

// A sink is where a read secret goes: a send, a parameter. An address
// alone is not one: "keep your token in ~/.secrets.json; the CLI calls
// https://api.acme.dev with it" names where a login goes.
var sinkRE = regexp.MustCompile(`(?i)` + sendVerbs + `|` + foreignSendVerbs + `|` + foreignParamSink + `|\bpass(?:es|ing)?\s+(?:it|its|them|their|the|this|that|all)\b|\b(?:as|in|into|via|through)\s+(?:the\s+)?['"` + "`" + `]\w+['"` + "`" + `]\s+(?:parameter|param|argument|arg|field|property|value)|\b(?:pass|include|put|provide|send|add|insert|supply|fill|attach)\b[^.\n]{0,60}\b(?:as|in|into)\s+['"` + "`" + `]\w+['"` + "`" + `]|\b(?:as|in|into|via|through)\s+(?:the\s+)?\w+\s+(?:parameter|param|argument|arg|field)\b` +
	// What was read put into the call the model makes: its request, its
	// arguments.
	`|\b(?:include|put|pass|add|attach|insert|append|embed)\s+(?:it|them|this|these|(?:its|their|the)\s+contents?)\s+(?:\w+\s+){0,2}?(?:in|into|with)\s+(?:the|your|this|each|every)\s+(?:\w+\s+)?(?:request|call|query|payload|body|arguments?|parameters?|params)\b`)

// toSessionRE is the rest of a send that goes back to whoever asked ("sends
// them to the caller", "posts it back to the user"): it does not leave
// the session.
var toSessionRE = regexp.MustCompile(`(?i)^\s*(?:\w+\s+){0,3}?(?:back\s+)?to\s+(?:the\s+)?(?:users?|caller|requester|you|yourself|terminal|screen|console|stdout)\b`)

// sendsAway reports whether a sentence has a sink that is not a send back
// to whoever asked.
func sendsAway(sentence string) bool {
	for _, m := range sinkRE.FindAllStringIndex(sentence, -1) {
		if !toSessionRE.MatchString(sentence[m[1]:]) && !ownDestRE.MatchString(sentence[m[1]:]) {
			return true
		}
	}
	return false
}

// sendsOnRE is a sink in the sentence after the one that names a secret
// file: a send that carries on from it ("Then post it to …"). A link
// there alone is one the next line gives (a service's sign-up page, a
// base URL), not where the file goes.
var sendsOnRE = regexp.MustCompile(`(?i)` + sendVerbs + `|` + foreignSendVerbs)

// dropURLs blanks the URLs and e-mail addresses of a sentence, whose
// words ("https://upload.pypi.org/legacy/") are no verbs of its own. A
// file's name stays: "run upload.sh" sends.
func dropURLs(s string) string {
	if !strings.Contains(s, "://") && !strings.Contains(s, "@") {
		return s
	}
	return addressRE.ReplaceAllString(s, " ")
}

// sendsOn reports whether a sentence sends, in an order not negated ("Do
// not send it to anyone" after the sentence that names a key file
// guards the file).
func sendsOn(sentence string) bool {
	for _, m := range sendsOnRE.FindAllStringIndex(sentence, 8) {
		if !deniedAt(sentence, m[0]) && !ownDestRE.MatchString(sentence[m[1]:]) {
			return true
		}
	}
	return false
}

// templateRE is a template of a secrets file, or a public key (an SSH
// key's .pub, which is made to be handed out), which hold no secret.
var templateRE = regexp.MustCompile(`(?i)\.(?:` + templateExts + `|pub)$`)

// templateExts are the extensions of a template of a secrets file.
const templateExts = `example|sample|template|dist|defaults?|tmpl|tpl`

// contentRE finds a request for a file's contents, or an order to put
// what was read in: a parameter that asks for a secret file's contents,
// or to have it included, is a sink of its own.
var contentRE = regexp.MustCompile(`(?i)\b(?:contents?|text|data|body|paste)\b|\b(?:include|put|insert|add|append|attach|embed)\s+(?:it|them)\b`)

// judgeSecrets reports the secret paths: strong when the sentence that
// names one (or the next) sends it somewhere, or the text also hides
// something from the user; weak as a mention; not at all where the
// sentence negates or describes it. A skill's prose names secret files
// all the time ("never commit .env"); only acting on them is a signal.
func judgeSecrets(fs *findings, text string, secrets []secretSpan) {
	concealed := fs.has(RuleDirective, SeverityWithhold)
	for _, s := range secrets {
		span := text[s.start:s.end]
		if templateRE.MatchString(span) || strings.HasPrefix(text[s.end:], "*.pub") || storeIsForm(text, s.end) {
			continue // .env.example, id_ed25519.pub, ~/.ssh/*.pub and "a .env-style file" hold no secret
		}
		start, end := sentenceAt(text, s.start)
		_, next := sentenceAt(text, min(end+1, len(text)))
		// A sentence is read with the next for a send that carries on
		// from it (sendsOnRE), and so for what makes it a description:
		// "`cat /etc/passwd` reads system files. An attacker's `curl …`
		// then runs".
		negated := negationRE.MatchString(dropAddresses(text[start:end])) || next > end && exampleLeadRE.MatchString(dottedRE.ReplaceAllString(text[end:next], " "))
		sev := SeverityWarn
		msg := ""
		switch {
		case concealed:
			sev, msg = SeverityWithhold, " together with an instruction to hide it from the user"
		case fs.kind&(kindSkill|kindCode) != 0 && (storeIsSetting(text, s.start) || settingInSentence(text, start, end, span)):
			continue // KUBECONFIG=~/.kube/config says where a tool finds it
		case negated:
			if fs.kind != kindTool {
				continue
			}
		case sendsAway(dropURLs(text[start:end])) || next > end && sendsOn(dropURLs(text[end:next])):
			sev, msg = SeverityWithhold, " read to be sent elsewhere"
		case fs.kind == kindTool && fs.inParameter(s.start) && contentRE.MatchString(text[start:end]):
			sev, msg = SeverityWithhold, " whose contents a parameter asks for"
		case fs.kind&(kindSkill|kindCode) != 0:
			continue // a skill naming a file of secrets, as setup docs do
		}
		// The span is named by the first secret-path pattern that matches
		// it, which may be one before the pattern that found it
		// ("~/.config/toolsearch/.env>" is toolsearch's match and reads as
		// a .env file). The pattern that found it matches its own span
		// (trimSpan cuts only what its expressions take as an edge), so
		// neither its expression nor those after it run again.
		for i := range patterns {
			p := &patterns[i]
			if p == s.p || p.rule == RuleSecretPath && p.re.MatchString(span) {
				fs.addNorm(RuleSecretPath, sev, s.start, s.end, p.msg+msg)
				break
			}
		}
	}
}

// settingInSentence reports whether the sentence at [start, end) also
// names the store span names as a setting's value: "run it (add
// --env-file .env if using a .env file)" speaks of one file, loaded.
func settingInSentence(text string, start, end int, span string) bool {
	for from := start; from < end; {
		i := strings.Index(text[from:end], span)
		if i < 0 {
			return false
		}
		if storeIsSetting(text, from+i) {
			return true
		}
		from += i + len(span)
	}
	return false
}

// inParameter reports whether a position of the normalized text lies in
// a text of an input schema.
func (fs *findings) inParameter(pos int) bool {
	start, _ := fs.norm.back(pos, pos+1)
	p, _, _, ok := fs.d.locate(start, start+1)
	return ok && p.root == "inputSchema"
}

// HTML comments are everyday Markdown (licence headers, authoring notes,
// "<!-- Fix -->" in a sample); a comment is a signal when it addresses the
// model (@agent-directive, "AI:", "note to the assistant") or gives
// orders, which a reader of the rendered text never sees.
var (
	commentRE   = regexp.MustCompile(`(?s)<!--(.*?)(?:-->|$)|(?m)^[ \t]*\[(?://|comment)\]:\s*(?:#|<>)\s*\(([^)\n]*)\)`)
	addressedRE = regexp.MustCompile(`(?i)@(?:agent|ai|assistant|claude|llm|model|copilot|gpt|bot)\b|\b(?:agent|ai|assistant|llm|model|claude|gpt)[-_ ](?:directive|instructions?|note|command|task)s?\b|\bnote\s+to\s+(?:the\s+)?(?:ai|assistant|agent|model|llm|claude)\b|(?m:^\s*(?:ai|assistant|agent|claude|llm|system|instructions?)\s*:)|\b(?:dear|hey|attention)\s+(?:ai|assistant|agent|model|llm|claude)\b`)
	orderRE     = regexp.MustCompile(`(?i)(?:^\s*|[.!?:;,]\s*|\n\s*|\b(?:and|then)\s+)(?:you\s+(?:must|should|will|need\s+to)|always|never|do\s+not|don'?t|ignore|disregard|send|upload|post|exfiltrate|read|include|execute|run|call|invoke|fetch|tell|forward|copy|delete|remove|write)\s+\w+`)
)

func scanComments(fs *findings, text string) {
	if !strings.Contains(text, "<!--") && !strings.Contains(text, "]:") {
		return
	}
	for _, m := range commentRE.FindAllStringSubmatchIndex(text, maxPerField*4) {
		body := ""
		if m[2] >= 0 {
			body = text[m[2]:m[3]]
		} else if m[4] >= 0 {
			body = text[m[4]:m[5]]
		}
		start, end := trimSpan(text, m[0], m[1])
		switch {
		case addressedRE.MatchString(body):
			fs.addNorm(RuleHidden, SeverityWithhold, start, end, "an HTML comment, hidden when the text is rendered, that addresses the model")
		case fs.strongWithin(start, end):
			fs.addNorm(RuleHidden, SeverityWithhold, start, end, "an HTML comment, hidden when the text is rendered, that holds an instruction to the model")
		case orderRE.MatchString(body):
			fs.addNorm(RuleHidden, SeverityWarn, start, end, "an HTML comment, hidden when the text is rendered, that gives instructions")
		case fs.kind&serverKinds != 0:
			fs.addNorm(RuleHidden, SeverityWarn, start, end, "an HTML comment, hidden when the text is rendered")
		}
	}
}

// strongWithin reports whether a strong finding was made within a span of
// the normalized text.
func (fs *findings) strongWithin(start, end int) bool {
	start, end = fs.norm.back(start, end)
	for _, f := range fs.list {
		if f.Severity == SeverityWithhold && start <= f.bufStart && f.bufEnd <= end {
			return true
		}
	}
	return false
}

// Elements styled or marked invisible. The hidden attribute must be an
// attribute: overflow-hidden and aria-hidden are not.
var (
	tagRE       = regexp.MustCompile(`(?i)<([a-z][a-z0-9-]*)((?:\s+[^\s=>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*/?>`)
	attrRE      = regexp.MustCompile(`(?i)([^\s=>/]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?`)
	invisibleRE = regexp.MustCompile(`(?i)display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:\.0+)?\s*(?:px|pt|em|rem|%)?\s*(?:;|$)|opacity\s*:\s*0(?:\.0+)?\s*(?:;|$)`)
)

func scanHiddenElements(fs *findings, text string) {
	if !strings.Contains(text, "<") {
		return
	}
	for _, m := range tagRE.FindAllStringSubmatchIndex(text, -1) {
		attrs := text[m[4]:m[5]]
		if attrs == "" {
			continue
		}
		for _, a := range attrRE.FindAllStringSubmatch(attrs, -1) {
			name, value := strings.ToLower(a[1]), strings.Trim(a[2], `"'`)
			if name == "hidden" || name == "style" && invisibleRE.MatchString(value) {
				fs.addNorm(RuleHidden, SeverityWarn, m[0], m[1], "an HTML element styled to be invisible")
				break
			}
		}
		if fs.full() {
			return
		}
	}
}

// lazyLower returns text lowercased, made on the first call: patterns with a window
// need it, and most texts run none.
func lazyLower(text string) func() string {
	var lower string
	return func() string {
		if lower == "" {
			lower = strings.ToLower(text)
		}
		return lower
	}
}
