package scan

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// A pattern is one way a rule shows in text. Its regular expression runs
// only when the lowercased text holds one of its triggers (and one of its
// also words, when it has some): literal pieces every match contains, so
// that clean text costs a few substring searches.
type pattern struct {
	rule     Rule
	triggers []string
	also     []string
	re       *regexp.Regexp
	msg      string
	// window, when set, runs the expression only on the text within
	// window bytes of each trigger, for patterns whose triggers are common
	// and whose expressions are costly to run over a whole text. It must
	// exceed the longest match.
	window int

	triggerMask, alsoMask bitset // in allTriggers
}

// Literals that gate the scans written as code rather than patterns: an
// instruction to send somewhere names a way of sending, and padding holds
// a few blanks in a row.
var (
	sendWords    = []string{"send", "forward", "bcc", " cc", "redirect", "post", "upload", "transmit", "email", "copy", "copies", "report", "deliver", "recipient", "destination"}
	paddingWords = []string{"        ", "\t\t\t\t", "\n\n\n", "\n \n", "\n  \n", "\n\t\n", "\u00a0\u00a0", "\u3000\u3000"}

	sendMask, paddingMask bitset
)

// allTriggers finds every pattern's triggers in one pass.
var allTriggers = func() *triggerSet {
	words := slices.Concat(sendWords, paddingWords)
	for _, list := range [][]pattern{patterns, crossToolPatterns} {
		for _, p := range list {
			words = append(words, p.triggers...)
			words = append(words, p.also...)
		}
	}
	t := newTriggerSet(words)
	sendMask, paddingMask = t.mask(sendWords), t.mask(paddingWords)
	for _, list := range [][]pattern{patterns, crossToolPatterns} {
		for i := range list {
			list[i].triggerMask = t.mask(list[i].triggers)
			list[i].alsoMask = t.mask(list[i].also)
		}
	}
	return t
}()

// Pieces the patterns share. Separators between words may be any white
// space, so that line breaks and doubled spaces do not hide a phrase.
const (
	userWord = `(?:the\s+|your\s+|this\s+|any\s+)?(?:users?|humans?|operators?|anyone|anybody)\b`
	toolWord = `(?:tools?|functions?|commands?|actions?|operations?|mcp\s+tools?)`
	verbSend = `(?:send|sends|sending|forward|forwards|bcc|cc|redirect|redirects|post|posts|upload|uploads|transmit|transmits|email|emails|copy|copies|report|reports|deliver|delivers)`
	verbPass = `(?:pass|include|provide|put|insert|append|add|attach|send|paste|copy|dump|embed|fill|write|supply|give)`
	dest     = `(?:[\w.+-]+@[\w-]+(?:\.[\w-]+)+|https?://[^\s"'<>)]+|\+\d[\d\s().-]{6,}\d)`
	backtick = "`"
)

// Words that the patterns below key on.
var (
	negations = []string{"not", "n't", "never", "dont"}
	users     = []string{"user", "human", "operator", "anyone", "anybody"}
)

var patterns = []pattern{
	// model-directive: blocks and tokens that address the model.
	mk(RuleDirective, "a tag that marks text as instructions for the model",
		`<\s*/?\s*(?:important|system|sys|instructions?|system[-_ ]?(?:prompt|message|instructions?)|admin(?:istrator)?|hidden|critical|override|mandatory|urgent|priority|attention|(?:ai|assistant|model|llm|agent)[-_ ]?(?:instructions?|note)|note[-_ ]?to[-_ ]?(?:ai|assistant|model|llm|agent))\s*>`,
		[]string{"<"}),
	mk(RuleDirective, "a chat-template token that forges a turn of the conversation",
		`<\|(?:im_start|im_end|system|user|assistant|endoftext|start_header_id|end_header_id|eot_id)\|>|\[/?INST\]|<</?SYS>>`,
		[]string{"<|", "[inst]", "[/inst]", "<<sys>>", "<</sys>>"}),
	mk(RuleDirective, "an instruction to keep something from the user",
		`\b(?:do\s+not|don'?t|dont|never|must\s+not|should\s+not|shall\s+not)\s+(?:ever\s+)?(?:tell(?:ing)?|mention(?:ing)?|inform(?:ing)?|reveal(?:ing)?|disclos(?:e|ing)|notify(?:ing)?|alert(?:ing)?|warn(?:ing)?|show(?:ing)?|explain(?:ing)?|report(?:ing)?|say(?:ing)?|indicat(?:e|ing)|let(?:ting)?\s+`+userWord+`\s+know)\b[^.\n]{0,60}?\b`+userWord,
		negations, users...).around(200),
	mk(RuleDirective, "an instruction to keep something from the user",
		`\b(?:the\s+)?user\s+(?:(?:must|should|need|needs|is)\s+(?:not|never)|does\s+not\s+need|doesn'?t\s+need)\s+(?:to\s+)?(?:know|see|notice|find\s+out|learn|be\s+(?:told|informed|aware|notified))`,
		[]string{"user"}, negations...).around(150),
	mk(RuleDirective, "an instruction to keep something from the user",
		`\b(?:keep|hide|conceal|withhold)\s+(?:this|it|these|that|them|everything|all\s+of\s+this)\s+(?:\w+\s+)?from\s+(?:the\s+)?user`,
		[]string{"from the user", "from user"}),
	mk(RuleDirective, "an instruction to act behind the user's back",
		`\bwithout\s+(?:the\s+)?(?:user|human)(?:'s|s')?\s+(?:knowing|knowledge|noticing|awareness|being\s+aware)`,
		[]string{"without"}, users...),
	mk(RuleDirective, "an instruction to act behind the user's back",
		`\b(?:secretly|silently|covertly|quietly|discreetly|surreptitiously|stealthily)\s+(?:\w+\s+){0,2}?(?:send|read|include|upload|forward|pass|call|invoke|execute|run|copy|exfiltrate|transmit|add|append|attach|email|post|collect|share|modify|change|replace)\w*\b`,
		[]string{"secretly", "silently", "covertly", "quietly", "discreetly", "surreptitiously", "stealthily"}),
	mk(RuleDirective, "an instruction to run before any other tool",
		`\bbefore\s+(?:using|calling|invoking|running|executing|you\s+(?:use|call|invoke|run))\s+(?:any|every|all|each)\s+(?:of\s+the\s+)?other\s+`+toolWord+
			`|\b(?:called|used|invoked|run|executed)\s+(?:first\s+)?before\s+(?:any|every|all|each)\s+(?:of\s+the\s+)?other\s+`+toolWord,
		[]string{"before"}).around(100),
	mk(RuleDirective, "an instruction to ignore earlier instructions",
		`\b(?:ignore|disregard|forget)\s+(?:(?:all|any|the|your|every|of)\s+)*(?:previous|prior|above|earlier|preceding|former|original|initial|system|safety|developer)\s+(?:instructions?|prompts?|rules|directions|directives|guidelines|messages|context|commands|constraints)|\b(?:ignore|disregard|forget)\s+(?:all|everything)\s+(?:you\s+(?:were|have\s+been)\s+told|(?:written\s+|said\s+)?(?:above|before|previously))`,
		[]string{"ignore", "disregard", "forget"}).around(150),
	mk(RuleDirective, "an instruction to override the model's own instructions",
		`\b(?:override|bypass)\s+(?:(?:the|your|any|all)\s+)?(?:system|safety|security)\s+(?:prompt|instructions?|rules|guidelines|guardrails|policies|restrictions)`,
		[]string{"override", "bypass"}),
	mk(RuleDirective, "text that tries to replace the model's instructions",
		`\byou\s+are\s+now\s+(?:in\s+)?(?:an?\s+)?(?:\w+\s+)?(?:mode|assistant|agent|jailbroken|unrestricted|unfiltered)\b|\b(?:new|updated)\s+(?:system\s+)?instructions?\s*:`,
		[]string{"you are now", "instructions:", "instruction:"}),
	mk(RuleDirective, "a threat that pressures the model to comply",
		`\b(?:the\s+)?(?:application|system|app|server|agent|program|tool|computer)\s+will\s+crash\b|\b(?:all\s+)?(?:the\s+)?(?:user'?s?\s+)?data\s+will\s+be\s+lost\b|\b(?:very\s+){2,}important\b`,
		[]string{"crash", "will be lost", "very very"}),

	// secret-path: where secrets live.
	mk(RuleSecretPath, "a reference to SSH keys",
		`(?:~|\$home|%userprofile%)?[/\\]?\.ssh\b(?:[/\\][\w.-]*)?|(?:^|[^a-z0-9])(?:id_rsa|id_dsa|id_ecdsa|id_ed25519)(?:\.pub)?(?:$|[^a-z0-9])|\bauthorized_keys\b`,
		[]string{".ssh", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "authorized_keys"}),
	mk(RuleSecretPath, "a reference to a .env file of secrets",
		`(?:^|[\s"'`+backtick+`(\[{/\\~=:,])\.env(?:\.[a-z]+)?(?:$|[\s"'`+backtick+`)\]}.,;:!?/\\])`,
		[]string{".env"}),
	mk(RuleSecretPath, "a reference to cloud credentials",
		`[/\\]?\.aws[/\\](?:credentials|config)\b|~[/\\]\.aws\b|\.config[/\\]gcloud\b|application_default_credentials\.json|\bcredentials\.json\b|[/\\]?\.azure[/\\]|\b(?:credentials|access_tokens)\.db\b`,
		[]string{".aws", "gcloud", "application_default_credentials", "credentials.json", ".azure", "credentials.db", "access_tokens.db"}),
	mk(RuleSecretPath, "a reference to a file of credentials",
		`(?:^|[^\w.])(?:_netrc|\.netrc|\.npmrc|\.pypirc|\.git-credentials|\.pgpass|\.my\.cnf)\b|\.docker[/\\]config\.json|\.kube[/\\]config\b|[/\\~]\.gnupg\b|\.password-store\b|gh[/\\]hosts\.yml|\blogin\s+keychain\b|\.keychain(?:-db)?\b|\bwallet\.dat\b|[/\\]Login Data\b`,
		[]string{".netrc", "_netrc", ".npmrc", ".pypirc", ".git-credentials", ".docker", ".kube", ".gnupg", ".password-store", "hosts.yml", ".pgpass", ".my.cnf", "keychain", "wallet.dat", "login data"}),
	mk(RuleSecretPath, "a reference to a file that holds other servers' credentials",
		`(?:~|\$home|%appdata%)?[/\\]?(?:(?:\.cursor|\.vscode|\.codeium[/\\]windsurf|\.claude|\.config[/\\]\w+)[/\\])?\.?mcp\.json\b|\bclaude_desktop_config\.json\b|\bmcp_(?:config|settings)\.json\b|\.claude\.json\b|/etc/(?:shadow|passwd|sudoers)\b`,
		[]string{"mcp.json", "claude_desktop_config", "mcp_config", "mcp_settings", ".claude.json", "/etc/shadow", "/etc/passwd", "/etc/sudoers"}),

	// exfiltration: asking the model to hand over what it holds.
	mk(RuleExfiltrate, "a request for the model's own instructions or context",
		`\byour\s+(?:(?:full|entire|complete|whole|original|initial|hidden|current|exact)\s+)?(?:system\s+(?:prompt|message|instructions)|context\s+window|tool\s+(?:list|definitions|descriptions)|list\s+of\s+tools|available\s+tools)\b|\byour\s+(?:full|entire|complete|whole|original|initial|hidden|exact)\s+(?:instructions|prompt)\b`,
		[]string{"your"}).around(120),
	mk(RuleExfiltrate, "a request for the conversation",
		`\b(?:full|entire|complete|whole)\s+(?:conversation|chat|dialog(?:ue)?|transcript)\b|\b`+verbPass+`\w*\b[^.\n]{0,80}?\b(?:conversation|chat|dialog(?:ue)?)\s+(?:history|log|transcript|so\s+far|context)\b`,
		[]string{"conversation", "chat", "dialog", "transcript"}).around(150),
	mk(RuleExfiltrate, "a request for earlier messages or tool results",
		`\b(?:all|every|each|any)\s+(?:of\s+the\s+)?(?:previous|prior|earlier|preceding)\s+(?:messages?|tool\s+(?:calls?|results?|outputs?)|responses?|turns?|outputs?)\b|\b(?:results?|outputs?|contents?|responses?)\s+of\s+(?:(?:the|a|any)\s+)?(?:previous|prior|earlier|last)\s+[\w-]+\s+(?:calls?|tool|invocations?)\b`,
		[]string{"previous", "prior ", "earlier", "preceding", "of the last ", "of last ", "of a last ", "of any last "}).around(150),
	mk(RuleExfiltrate, "a request to pass a file's contents through a parameter",
		`\b`+verbPass+`\s+(?:its|their|the\s+files?'?s?|(?:the|all)\s+(?:full|entire|complete|raw|whole))\s+(?:file\s+)?(?:contents?|text|data)\s+(?:as|in|into|via|to|through)\s+(?:the\s+)?(?:['"`+backtick+`]\w+['"`+backtick+`]|\w+\s+(?:parameter|argument|field|param))`,
		[]string{"its content", "its text", "its data", "its full", "its entire", "their content", "their text", "their data", "file content", "file's content", "files' content", "files content", "full content", "entire content", "complete content", "raw content", "whole content", "full text", "entire text", "whole text", "raw text", "full data", "raw data"}).around(160),

	// hidden-markup: text a person does not see rendered.
	mk(RuleHidden, "an HTML comment, hidden when the text is rendered",
		`<!--[\s\S]*?(?:-->|$)`,
		[]string{"<!--"}),
	mk(RuleHidden, "an HTML element styled to be invisible",
		`<[a-z][^>]*\bstyle\s*=\s*["'][^"']*(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0|opacity\s*:\s*0(?:\.0+)?\s*(?:;|["']))[^>]*>|<[a-z]+\s[^>]*\bhidden\b[^>]*>`,
		[]string{"display", "visibility", "font-size", "opacity", "hidden"}, "<"),
	mk(RuleHidden, "a Markdown comment, hidden when the text is rendered",
		`(?m)^\s*\[(?://|comment)\]:\s*(?:#|<>)`,
		[]string{"[//]", "[comment]"}),
}

// around sets the pattern's window.
func (p pattern) around(window int) pattern {
	p.window = window
	return p
}

// mk makes a pattern: its expression matches regardless of case, and runs
// only on text holding one of the triggers and, when given, one of also.
func mk(rule Rule, msg, expr string, triggers []string, also ...string) pattern {
	return pattern{rule: rule, msg: msg, re: regexp.MustCompile(`(?i)` + expr), triggers: triggers, also: also}
}

// scanPatterns runs the patterns whose triggers the text holds (found,
// from allTriggers).
func scanPatterns(fs *findings, text string, found *bitset, lower func() string, list []pattern) {
	for i := range list {
		p := &list[i]
		if !found.any(&p.triggerMask) || !p.alsoMask.empty() && !found.any(&p.alsoMask) {
			continue
		}
		for _, m := range p.matches(text, lower) {
			start, end := trimSpan(text, m[0], m[1])
			fs.add(p.rule, start, end, p.msg)
			if fs.full() {
				return
			}
		}
	}
}

// matches finds the pattern's matches in text, in windows around its
// triggers when it has a window. Lowercasing changes the length of a few
// non-ASCII texts; offsets in lower then mean nothing in text, and the
// whole text is read instead.
func (p *pattern) matches(text string, lowered func() string) [][]int {
	if p.window == 0 {
		return p.re.FindAllStringIndex(text, maxPerField)
	}
	lower := lowered()
	if len(lower) != len(text) {
		return p.re.FindAllStringIndex(text, maxPerField)
	}
	var out [][]int
	for _, trigger := range p.triggers {
		for from := 0; ; {
			i := strings.Index(lower[from:], trigger)
			if i < 0 {
				break
			}
			pos := from + i
			from = pos + len(trigger)
			lo, hi := max(pos-p.window, 0), min(pos+len(trigger)+p.window, len(text))
			for lo > 0 && !utf8.RuneStart(text[lo]) {
				lo--
			}
			for hi < len(text) && !utf8.RuneStart(text[hi]) {
				hi++
			}
			for _, m := range p.re.FindAllStringIndex(text[lo:hi], maxPerField) {
				m[0], m[1] = m[0]+lo, m[1]+lo
				if !containsMatch(out, m) {
					out = append(out, m)
				}
			}
			if len(out) >= maxPerField {
				return out
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// containsMatch reports whether a match overlapping m was found already:
// windows overlap, and a match cut by one window's edge is found whole in
// the next.
func containsMatch(found [][]int, m []int) bool {
	for _, f := range found {
		if f[0] < m[1] && m[0] < f[1] {
			return true
		}
	}
	return false
}

// trimSpan drops the separators a pattern matched around the span proper.
func trimSpan(s string, start, end int) (int, int) {
	for start < end && strings.ContainsRune(" \t\r\n\"'`([{=:,", rune(s[start])) {
		start++
	}
	for end > start && strings.ContainsRune(" \t\r\n\"'`)]}.,;:!?", rune(s[end-1])) {
		end--
	}
	return start, end
}

// Padding long enough to push text out of a reviewer's view: a line of
// blank space wider than any screen, or more blank lines than one holds.
const (
	maxBlankRun   = 120
	maxBlankLines = 25
)

// scanPadding reports runs of blank space that hide what follows them.
func scanPadding(fs *findings, s string) {
	blank, lines, runStart, linesStart := 0, 0, 0, 0
	for i, r := range s {
		switch r {
		case ' ', '\t', 0x00A0, 0x3000:
			if blank == 0 {
				runStart = i
			}
			blank++
			continue
		case '\n':
			if lines == 0 {
				linesStart = i
			}
			lines++
			blank = 0
			continue
		case '\r':
			continue
		}
		if blank >= maxBlankRun {
			fs.add(RuleHidden, runStart, i, "a long run of blank space that pushes text out of view")
		}
		if lines >= maxBlankLines {
			fs.add(RuleHidden, linesStart, i, "a long run of blank lines that pushes text out of view")
		}
		blank, lines = 0, 0
	}
}

// A fixed address in a tool's text is common ("see https://..."); an
// instruction to send data there is not. Addresses are found from their
// marks (@, http, +digit), and only the sentence before each is read for
// the instruction.
var (
	destRE     = regexp.MustCompile(`(?i)` + dest)
	sendLeadRE = regexp.MustCompile(`(?i)(?:\b(?:all|every|always|also|instead|a\s+copy|additionally|as\s+well|secretly|silently)\b[^.\n]{0,80}?\b` + verbSend + `\b[^.\n]{0,80}?|\b` + verbSend + `\b[^.\n]{0,40}?\b(?:all|every|a\s+copy\s+of)\b[^.\n]{0,60}?\bto\s+|\bchange\s+the\s+(?:recipient|destination|address|number|url|endpoint)\w*\s+to\s+|\b(?:set|put|add|use)\s+(?:the\s+)?(?:bcc|cc|recipients?|to)\s+(?:field\s+|parameter\s+|argument\s+|address\s+)?(?:to\s+|=\s*)?)$`)
)

// maxLead is how far before an address the instruction may start.
const maxLead = 240

// scanDestinations reports instructions to send data to a fixed address.
func scanDestinations(fs *findings, text string) {
	end := 0 // of the last address found, so that none is read twice
	for i := 0; i < len(text); i++ {
		c := text[i]
		if i < end || !(c == '@' || c == '+' && i+1 < len(text) && '0' <= text[i+1] && text[i+1] <= '9' ||
			(c == 'h' || c == 'H') && len(text)-i >= 7 && strings.EqualFold(text[i:i+4], "http")) {
			continue
		}
		lo := max(i-64, end) // an address's local part starts at most this far back
		for lo > 0 && !utf8.RuneStart(text[lo]) {
			lo--
		}
		m := destRE.FindStringIndex(text[lo:min(i+512, len(text))])
		if m == nil || lo+m[0] > i {
			continue
		}
		start, stop := lo+m[0], lo+m[1]
		end = stop
		from := max(start-maxLead, 0)
		for from > 0 && !utf8.RuneStart(text[from]) {
			from--
		}
		if lead := sendLeadRE.FindStringIndex(text[from:start]); lead != nil {
			fs.add(RuleExfiltrate, from+lead[0], stop, "an instruction to send data to a fixed address")
			if fs.full() {
				return
			}
		}
	}
}
