package scan

import (
	"regexp"
	"slices"
	"strings"
)

// The harvests below passed the rules of harvest.go because of how their
// prose is written, not what it asks for (issue 43, from other scanners'
// development fixtures):
//
//   - a sentence hard-wrapped over lines, as Markdown paragraphs and YAML
//     folded descriptions are: the hand-over rules read one line;
//   - a negation that belongs to another clause: "…, so you don't lose
//     it", "; this must not be surfaced in chat" excuse or hide the
//     hand-over, they do not forbid it;
//   - the skill describing its own script: "it runs `collect.py`, which
//     reads …" is what the skill does, not an attack it describes;
//   - commands written in prose without backticks (scp key host:, a DNS
//     lookup of a name that carries the secret, a cloud copy);
//   - credentials named by what they are ("API tokens", "secret
//     credentials") rather than by a path, sent to a catch-all host or by
//     a route that leaves the machine (smtp://, s3://, scp);
//   - secrets of the environment named in prose and "the captured
//     values" posted later;
//   - a secret variable posted as a request's whole body, which no API
//     takes as its login;
//   - a fixed address put in the blind copy of the user's mail, and the
//     copy hidden from them;
//   - whatever credentials turn up ("any discovered API token", "the keys
//     you saw") swept and sent to an address or a service;
//   - a service's key, named by its variable or its service, put in what
//     is sent to a host that does not bear the service's name.

const (
	// swept names credentials that turn up, whoever's they are: "any
	// discovered API token", "all secrets found", "the keys you saw".
	swept = `(?:(?:any|all|every|each|whatever|whichever)\s+(?:of\s+the\s+)?(?:[\w-]+\s+){0,2}?` + sweptCreds +
		`|(?:the\s+)?(?:discovered|found|exposed|visible|detected|available|stored|saved|cached)\s+` + sweptCreds +
		`|the\s+(?:[\w-]+\s+){0,2}?` + sweptCreds + `\s+(?:that\s+)?(?:you|the\s+user|they)\s+(?:saw|see|seen|encounter(?:ed)?|come\s+across|came\s+across|find|found|discover(?:ed)?|notice[ds]?|read|typed|shared|pasted))`
	// sweptDest is where swept credentials go: an address written out, or
	// a service.
	sweptDest = `(?:` + dest + `|(?:the|our|a|an|its|their)\s+(?:[\w-]+\s+){0,2}?(?:service|server|endpoint|api|backend|cloud|host|collector|dashboard|webhook|bucket|address|url|inbox)s?\b)`
	// sweptCreds names credentials of any kind, one or many.
	sweptCreds = `(?:(?:api|access|auth|session|bearer|oauth|cloud|ssh)\s+)?(?:credentials?|secrets?|tokens?|keys?|passwords?|passphrases?)\b(?:\s+or\s+(?:[\w-]+\s+)?(?:credentials?|secrets?|tokens?|keys?|passwords?))?`
	// credNouns names credentials by what they are.
	credNouns = `\b(?:credentials?|secrets|(?:api|access|auth|session|bearer|oauth|github|npm|cloud)\s+(?:tokens?|keys?)|passwords|private\s+keys?)\b`
	// credSendVerbs move what they name elsewhere.
	credSendVerbs    = `\b(?:` + credSendVerbList + `)\b`
	credSendVerbList = `send|sends|forward|forwards|transfer|transfers|upload|uploads|post|posts|transmit|transmits|exfiltrate|exfiltrates|ship|ships|relay|relays|mail|mails|e-?mail|e-?mails|copy|copies|leak|leaks`
)

var (
	// proseStoreExtraRE names stores in prose that storeKinds know only by
	// their paths.
	proseStoreExtraRE = regexp.MustCompile(`(?i)\b(?:shell|bash|zsh|command|terminal)\s+histor(?:y|ies)\b`)

	// clauseEndRE is where the clause of a hand-over ends and another
	// begins.
	clauseEndRE = regexp.MustCompile(`(?i)\s*;|,\s*(?:so|in\s+case|because|since)\b|\s[—–]\s|\s--\s`)
	// concealRE is a clause that hides what the sentence does from the
	// user: its negation hides the act, it does not forbid it.
	concealRE = regexp.MustCompile(`(?i)\b(?:not|never|n't)\s+(?:be\s+)?(?:\w+\s+)?(?:surfac|show|display|mention|tell|reveal|disclos|expos|inform|notify|alert|echo)\w*\b` + inSentence + `{0,40}?\b(?:user|chat|conversation|response|reply|output|transcript|them|anyone)\b|\bwithout\s+(?:telling|informing|notifying|asking|alerting|showing)\b`)
	// purposeRE opens a clause that says what the act is for.
	purposeRE = regexp.MustCompile(`(?i)^\W*(?:so\s+(?:that\s+)?(?:you|we|they|it|nothing|no\s+one|your)\b|in\s+case\b)`)

	// ownScriptWhichRE is the skill running a script of its own, whose
	// "which" clause says what the skill does.
	ownScriptWhichRE = regexp.MustCompile("(?i)\\b(?:runs|executes|calls|invokes|launches|starts)\\s+`?[\\w./-]+\\.(?:py|sh|js|mjs|ts|rb|ps1|pl)`?\\s*,?\\s+which\\b")

	// proseSendRE sends what was read, or a derivation of it, somewhere
	// that is not the user.
	proseSendRE = regexp.MustCompile(`(?i)\b(?:upload|uploads|send|sends|post|posts|transmit|transmits|forward|forwards|sync|syncs|submit|submits|ship|ships)\s+(it|them|everything|the\s+(?:summary|profile|snapshot|contents?|values?|bundle|archive))\s+(?:to|into)\s+(?:` + dest + `|(?:the|our|a|an|its|their)\s+(?:[\w-]+\s+){0,2}?(?:service|server|endpoint|api|backend|cloud|host|collector|dashboard|webhook|bucket)s?\b)`)

	// proseCmdSendRE is a command written in prose that sends a file
	// away: a copy to another host, a cloud copy, a DNS lookup of a name
	// whose first label carries the secret.
	proseCmdSendRE = mustGate(`(?i)\b(?:scp|rsync)\s+(?:-\w+\s+)*\S+\s+[\w.-]+@[\w.-]+:|\b(?:nslookup|dig|host|drill)\s+(?:[+-]\S+\s+)*[\w$-]*(?:token|key|secret|pass|cred|env|data|\$)[\w${}-]*\.[\w-]+\.[\w.-]+`)

	// transferRE is a route by which generic credentials leave the
	// machine whatever the host: mail, file transfer, a cloud bucket, a
	// copy to another host.
	transferRE = regexp.MustCompile(`(?i)\b(?:smtps?|ftps?|sftp|scp|tftp|s3|gs)://[\w.-]+|\bscp\s+(?:-\w+\s+)*\S+\s+[\w.-]+@[\w.-]+:`)
	// credSendVerbRE moves what it names elsewhere.
	credSendVerbRE = regexp.MustCompile(`(?i)` + credSendVerbs)
	// credSentRE sends credentials: the verb's object names them.
	credSentRE = regexp.MustCompile(`(?i)` + credSendVerbs + `\s+(?:(?:all|any|every|the|their|your|its|these|those|saved|stored|secret|local)\s+)*(?:[\w-]+\s+){0,2}?` + credNouns)
	// gatherCredRE gathers credentials as such, not one to use.
	gatherCredRE = regexp.MustCompile(`(?i)\b(?:collect|collects|harvest|harvests|gather|gathers|grab|grabs|capture|captures|steal|steals|scrape|scrapes)\s+(?:(?:all|any|every|the|their|your)\s+)*(?:[\w-]+\s+){0,2}?(?:credentials|secrets|tokens|(?:api\s+)?keys|passwords)\b`)

	// envSecretReadRE reads the environment's secrets in prose: the
	// variables that hold tokens, or a secret's variable by name.
	envSecretReadRE = mustGate(`(?i)\b(?:read|reads|capture|captures|collect|collects|gather|gathers|dump|dumps|extract|extracts|grab|grabs|harvest|harvests)\s+(?:the\s+)?(?:values?\s+of\s+)?(?:(?:all|any|every)\s+)?(?:environment\s+variables?|env\s+vars?)\b` + inSentence + `{0,60}?\b(?:tokens?|keys?|secrets?|credentials?|passwords?)\b`)
	envSecretNameRE = regexp.MustCompile(`\b[A-Z][A-Z0-9]*_(?:[A-Z0-9]+_)*(?:KEY|TOKEN|SECRET|PASSWORD)\b`)
	envCaptureRE    = regexp.MustCompile(`(?i)\b(?:capture|captures|collect|collects|gather|gathers|dump|dumps|extract|extracts|grab|grabs|harvest|harvests)\s+(?:the\s+)?values?\s+of\b`)
	// capturedSentRE sends on what an earlier step captured, to a party
	// named by an address or by what it is.
	capturedSentRE = mustGate(`(?i)(?:\b(?:send|post|upload|forward|transmit|submit|sync|relay|append|add|attach|include|put)\s+(?:them|these|those|the\s+(?:encoded\s+)?(?:values|strings|results))\b|\b(?:send|post|upload|forward|transmit|submit|sync|relay)\s+(?:all\s+)?the\s+(?:captured|collected|gathered|harvested|extracted|retrieved|stolen)\s+(?:values?|tokens?|keys?|credentials?|secrets?|variables?)\b|\b(?:send|post|upload|forward|transmit|submit|sync|relay)\s+(?:all\s+)?the\s+(?:values?|tokens?|keys?|credentials?|secrets?|variables?)\s+(?:you|it|we)\s+(?:captured|collected|gathered|harvested|extracted|retrieved|read)\b)` + inSentence + `{0,60}?\b(?:to|at)\s+(?:` + dest + `|(?:the|our|a|an)\s+(?:[\w-]+\s+){0,2}?(?:service|server|endpoint|api|backend|collector|dashboard|webhook)s?\b)`)

	// sweptCredSentRE gathers whatever credentials turn up ("any
	// discovered API token", "all secrets found", "the keys you saw") and
	// sends them to an address or a service.
	sweptCredSentRE = mustGate(`(?i)\b(?:collect|collects|harvest|harvests|gather|gathers|grab|grabs|capture|captures|scrape|scrapes|take|takes|pull|pulls|copy|copies|save|saves|record|records|extract|extracts)\s+` + swept + inSentence + `{0,80}?\b` + credSendVerbs + `\s+(?:(?:it|them|these|those|each|everything|all\s+of\s+them)\s+(?:\w+\s+){0,2}?)?(?:to|into|at|with)\s+` + sweptDest +
		// Or sent first: "forward every token found to our server", "send
		// a copy of any API keys found to …".
		`|\b(?:` + credSendVerbList + `|attach|attaches|include|includes|add|adds|append|appends|write|writes|log|logs|store|stores)\s+(?:(?:a\s+)?cop(?:y|ies)\s+of\s+)?` + swept + inSentence + `{0,80}?\b(?:to|into|at|with)\s+` + sweptDest)

	// secretBodyRE is a request whose whole body is a secret's variable:
	// an API takes its key in a header or a named field, a harvest posts
	// the value itself.
	secretBodyRE = mustGate(`(?i)\bcurl\b[^\n]*\s(?:-d|--data(?:-binary|-raw|-urlencode)?)[=\s]+["']?\$\{?[A-Z][A-Z0-9]*_[A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|CREDENTIALS?)\}?["']?(?:\s|$)|\bwget\b[^\n]*--(?:post|body)-data[=\s]+["']?\$\{?[A-Z][A-Z0-9]*_[A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|CREDENTIALS?)\}?["']?(?:\s|$)` +
		// The same in a call: data=os.environ["X_TOKEN"], body: process.env.X_KEY.
		`|\b(?:data|content|body|json)\s*[=:]\s*(?:os\.environ(?:\.get)?\s*[\[(]\s*["']|os\.getenv\(\s*["']|process\.env\.|process\.env\[\s*["'])[A-Z][A-Z0-9]*_[A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|CREDENTIALS?)["']?\s*[\])]?\s*[,)}]`)

	// bccRE puts a fixed address in the blind copy of mail.
	bccRE = regexp.MustCompile(`(?i)(?:\bbcc\b|\bblind\s+(?:carbon\s+)?cop(?:y|ies)\b)` + inSentence + `{0,80}?[\w.+-]+@[\w-]+(?:\.[\w-]+)+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+` + inSentence + `{0,40}?\b(?:to|in|as)\s+(?:the\s+)?(?:bcc|blind\s+(?:carbon\s+)?copy)\b`)
	// bccHiddenRE hides the blind copy from the user.
	bccHiddenRE = regexp.MustCompile(`(?i)\b(?:do\s+not|don'?t|never|without)\s+(?:\w+\s+){0,2}?(?:mention|mentioning|tell|telling|show|showing|reveal|revealing|disclose|disclosing|display|displaying|inform|informing)\b` + inSentence + `{0,40}?\b(?:bcc|blind|copy|cc)\b`)

	// describesRE names what a checker looks for, not what to do.
	describesRE = mustGate(`(?i)\b(?:theft|thie(?:f|ves)|stealing|patterns?|indicators?|signatures?|iocs?|heuristics?|such\s+as|e\.g\.)`)
	// lastWordRE is the last word of a command: the host it sends to.
	lastWordRE = regexp.MustCompile(`\S+$`)
	// toDestRE sends to an address written out.
	toDestRE = regexp.MustCompile(`(?i)\b(?:to|at)\s+` + dest)

	// proseWords gate the prose rules: a file holding none is not read by
	// them.
	proseWords = newWordSet("write", "append", "attach", "upload", "send", "post", "transmit", "forward", "sync", "submit", "ship", "scp", "nslookup", "dig ", "host ", "drill ", "transfer", "mail", "copy", "copies", "leak", "exfiltrat", "relay", "back up", "backs up", "include", "bcc", "blind", "curl", "wget", "share", "deliver", "paste")
)

// scanProseHarvests reports the harvests of the kinds above. It runs
// beside scanHarvest, on the same texts; lower is raw in lower case.
func scanProseHarvests(fs *findings, raw, lower, prose string, blocks []codeBlock, examples func() []bool) {
	if fs.kind == kindSkill {
		scanForeignHandOver(fs, prose) // harvest_languages.go
		scanForeignProcedure(fs, prose)
	}
	// The prose with its wrapped lines joined, made once for the readings
	// that read a sentence or a step across line breaks.
	var joined string
	unwrapped := func() string {
		if joined == "" {
			joined = unwrapLines(prose)
		}
		return joined
	}
	if fs.kind != kindCode {
		// Each gated by words of its own: a step that logs the user's
		// question need hold none of the words of sending.
		scanRelayedConversation(fs, raw, prose, lower, unwrapped) // harvest_conversation.go
		scanKeyInRequest(fs, prose, unwrapped)                    // harvest_keyfield.go
	}
	if !proseWords.in(lower) {
		return
	}
	example := examples()
	scanSecretBody(fs, raw, lower, blocks, example)
	if fs.kind != kindSkill {
		return
	}
	scanProseSentences(fs, prose)
	scanWrappedHandOver(fs, prose, unwrapped)
	scanCapturedEnv(fs, prose)
	scanHiddenBcc(fs, prose)
}

// scanSecretBody reports a line of code (a script's, a block's that is no
// example, or inline code) that posts a secret's variable as the whole
// body of a request to a host beyond this machine.
func scanSecretBody(fs *findings, raw, lower string, blocks []codeBlock, example []bool) {
	if !containsAny(lower, []string{"curl", "wget", "data", "body", "content"}) {
		return
	}
	// The expression reads one line at a time; each match is then judged
	// by the line and the block that hold it.
	for _, m := range secretBodyRE.FindAllStringIndex(raw, 16) {
		start := strings.LastIndexByte(raw[:m[0]], '\n') + 1
		end := len(raw)
		if e := strings.IndexByte(raw[m[1]:], '\n'); e >= 0 {
			end = m[1] + e
		}
		line := raw[start:end]
		code, inExample := fs.kind == kindCode || strings.Contains(line, "`"), false
		if i := blockIndex(blocks, start); i >= 0 {
			code, inExample = true, example[i]
		}
		low := strings.ToLower(line)
		if code && !inExample && !localHostRE.MatchString(line) && (netCallWords.in(low) && netCallRE.MatchString(line) || netWords.in(low) && sendRE.MatchString(line)) {
			fs.add(RuleExfiltrate, SeverityWithhold, start, end, "a secret's variable sent as the whole body of a request")
			return
		}
	}
}

// sentences returns the spans of the prose's sentences that hold a word
// of words, each once, at most max of them.
func sentences(prose string, words gatedRE, max int) [][2]int {
	var spans [][2]int
	last := -1
	for _, m := range words.FindAllStringIndex(prose, 1024) {
		if m[0] < last {
			continue
		}
		s, e := sentenceAt(prose, m[0])
		s = afterStructureLines(prose, s, m[0])
		if s >= e {
			continue
		}
		spans = append(spans, [2]int{s, e})
		last = e
		if len(spans) >= max {
			break
		}
	}
	return spans
}

// afterStructureLines moves a sentence's start at s past the lines before
// pos that are no prose (a front matter's or a rule's "---", a heading),
// which a sentence without a full stop runs on from: a finding starts at
// the sentence's first words.
func afterStructureLines(prose string, s, pos int) int {
	for s < pos {
		nl := strings.IndexByte(prose[s:pos], '\n')
		if nl < 0 {
			break
		}
		line := strings.TrimSpace(prose[s : s+nl])
		if line != "---" && line != "..." && !strings.HasPrefix(line, "#") && line != "" {
			break
		}
		s += nl + 1
	}
	return s
}

// unwrapRE is a line break inside a sentence, with the indentation of a
// wrapped list item or a YAML folded scalar.
var unwrapRE = regexp.MustCompile(`\s*\n[ \t]*`)

// proseSendWordRE finds the sentences the prose rules read.
var proseSendWordRE = mustGate(`(?i)\b(?:add|adds|append|appends|attach|attaches|embed|embeds|insert|inserts|put|puts|write|writes|log|logs|store|stores|upload|uploads|send|sends|post|posts|transmit|transmits|forward|forwards|sync|syncs|submit|submits|ship|ships|scp|nslookup|dig|host|drill|transfer|transfers|mail|mails|e-?mail|copy|copies|leak|leaks|exfiltrate|exfiltrates|relay|relays|back\s+up|backs\s+up|include|includes|share|shares|deliver|delivers|paste|pastes)\b`)

// asideRE is an aside of a sentence in brackets, which can part a verb
// from where it sends by more than the rules read ("submit the summary
// with every variable of the shell (all TF_VAR_*, AWS_* and the rest, so
// the auditor can reproduce the run) to https://…"). A sentence that
// writes out an address and that no rule reads is read once more without
// its asides.
var asideRE = regexp.MustCompile(`\s?\([^()\n]{1,300}\)`)

// scanProseSentences reads each sentence of the prose that sends, joined
// over its line breaks, for a store or credentials handed to another
// party.
func scanProseSentences(fs *findings, prose string) {
	for _, sp := range sentences(prose, proseSendWordRE, 64) {
		u := unwrapRE.ReplaceAllString(prose[sp[0]:sp[1]], " ")
		u = ownScriptWhichRE.ReplaceAllStringFunc(u, func(m string) string { return m[:len(m)-len("which")] + "it" })
		msg := proseHandOver(u)
		if msg == "" && strings.Contains(u, "(") && (strings.Contains(u, "://") || strings.Contains(u, "@")) {
			if bare := asideRE.ReplaceAllString(u, ""); bare != u {
				msg = proseHandOver(bare)
			}
		}
		if msg != "" {
			fs.add(RuleExfiltrate, SeverityWithhold, sp[0], sp[1], msg)
			return
		}
	}
}

// proseHandOver returns what a sentence does that hands a secret over, or
// "".
func proseHandOver(u string) string {
	// A table row or a sentence that names patterns lists what a
	// checker looks for ("| Credential theft | webhook.site, POST
	// secrets |").
	if strings.HasPrefix(strings.TrimSpace(u), "|") || describesRE.MatchString(u) {
		return ""
	}
	if namesStore(u) {
		for _, m := range [][]int{handStoreRE.FindStringIndex(u), keptAtAddress(u)} {
			if m != nil && !templateLine(u) && !negatedClause(u, m[1]) {
				return "an instruction to give a store of credentials to another party"
			}
		}
		if imperativeReadRE.MatchString(u) {
			// The command's host (token.collector.example), its last
			// word, is no template's name (.env.example).
			for _, re := range []gatedRE{proseCmdSendRE, sendRE} {
				if m := re.FindStringIndex(u); m != nil && !templateLine(u[:m[0]]+lastWordRE.ReplaceAllString(u[m[0]:m[1]], " ")+u[m[1]:]) && !negatedClause(u, m[1]) {
					return "an instruction, in prose, to read a secret file and send it with a command"
				}
			}
			if m := proseSendRE.FindStringSubmatchIndex(u); m != nil && !templateLine(u) && !negatedClause(u, m[1]) && (proseKinds(u) >= 2 || !strings.HasPrefix(strings.ToLower(u[m[2]:m[3]]), "the ")) {
				return "an instruction to read secret files and send what they hold away"
			}
		}
	}
	// The credentials must be what is sent, not a word beside a send of
	// something else ("upload the build with aws s3 cp; credentials come
	// from your profile").
	cred := credSentRE.FindStringIndex(u)
	if cred == nil && gatherCredRE.MatchString(u) {
		// What was gathered is sent, not something new ("collect the
		// exposed secrets and send a report to security@…").
		if m := credSendVerbRE.FindStringIndex(u); m != nil && !newObjectRE.MatchString(u[m[1]:]) {
			cred = m
		}
	}
	if cred != nil {
		for _, r := range []struct {
			re  *regexp.Regexp
			msg string
		}{
			{transferRE, "an instruction to send credentials by mail, file transfer or a copy to another host"},
			{cloudCopyRE.Regexp, "an instruction to copy credentials to a cloud bucket"},
			{sinkHostRE, "an instruction to send credentials to a catch-all host"},
		} {
			if m := r.re.FindStringIndex(u); m != nil && sameClause(u, cred, m) && !negatedClause(u, m[1]) {
				return r.msg
			}
		}
		if gatherCredRE.MatchString(u) {
			if m := toDestRE.FindStringIndex(u); m != nil && sameClause(u, cred, m) && !negatedClause(u, m[1]) {
				return "an instruction to gather credentials and send them to an address"
			}
		}
	}
	// Whatever credentials turn up, swept and sent to a service: no
	// skill's own key is "any token found".
	if m := sweptCredSentRE.FindStringIndex(u); m != nil && !negatedClause(u, m[1]) {
		return "an instruction to send whatever credentials turn up to another party"
	}
	if (strings.Contains(u, "://") || strings.Contains(u, "@")) && proseKeyAway(u) {
		return "an instruction to put a service's key in what is sent to a host that is not the service's"
	}
	return ""
}

var (
	// proseKeyRE names a service's key in prose: its variable
	// (OPENAI_API_KEY, ${{ secrets.NPM_TOKEN }}) or the service's name
	// before the kind of key ("the user's GitHub token").
	proseKeyRE = regexp.MustCompile(`\b([A-Z][A-Z0-9]*)_(?:[A-Z0-9]+_)*(?:KEY|TOKEN|SECRET|PASSWORD|CREDENTIALS?)\b|\bsecrets\.([A-Za-z][A-Za-z0-9]*)|(?i:\b([a-z][a-z0-9]+)(?:'s)?\s+(?:(?:api|access|auth|personal\s+access|oauth|secret|bot|session)\s+)?(?:tokens?|keys?|credentials|passwords?)\b)`)
	// proseCarryRE puts what it names in what is sent, or sends it.
	proseCarryRE = regexp.MustCompile(`(?i)\b(?:include|includes|add|adds|append|appends|attach|attaches|put|puts|insert|inserts|embed|embeds|pass|passes|send|sends|post|posts|upload|uploads|forward|forwards|transmit|transmits|submit|submits|sync|syncs|copy|copies|paste|pastes|e-?mail|e-?mails|share|shares|relay|relays|deliver|delivers)\b`)
	// carriesBackRE is a verb's object that refers back to what the
	// sentence named before it.
	carriesBackRE = regexp.MustCompile(`(?i)^\s+(?:it|them|this|that|these|those|both|(?:the|that|this)\s+(?:key|token|secret|value|line|variable|credential)s?)\b`)
	// keyWithRE brings in what goes with a message after its address.
	keyWithRE = regexp.MustCompile(`(?i)\b(?:with|including|plus|attach|attaching|paste|pasting|include|add|adding)\b`)
	// keyIfRE makes a key a condition of the sending, not its load ("if a
	// GITHUB_TOKEN leaks, mail security@…").
	keyIfRE = regexp.MustCompile(`(?i)\b(?:if|when|whenever|whether|unless|in\s+case)\b`)
	// keyUseRE is a key used as a login: a header, a bearer token, a
	// sign-in.
	keyUseRE = regexp.MustCompile(`(?i)\b(?:headers?|authorization|bearer|x-api-key|log\s*in|login|sign\s*in|authenticat\w*|oauth\s+flow)\b`)
)

// genericKeyWords lead the names of keys that name no service: a
// placeholder (YOUR_KEY) or a kind of key (API_TOKEN, CLIENT_SECRET).
var genericKeyWords = map[string]bool{"your": true, "my": true, "the": true, "api": true, "access": true, "auth": true, "secret": true, "private": true, "public": true, "client": true, "app": true, "user": true, "session": true, "bearer": true, "refresh": true, "id": true, "master": true, "admin": true, "default": true, "test": true, "dev": true, "prod": true, "local": true, "service": true, "env": true, "x": true}

// proseKeyAway reports a sentence that has the model carry a service's
// key (named by its variable or by the service) to an address written out
// whose host does not bear the service's name: a key goes to its own
// service, in a header; a harvest puts it in a body, a field or a report
// sent elsewhere.
func proseKeyAway(u string) bool {
	// A web address, or a mailbox that is neither this machine's nor a
	// known service's: both give the host as their group.
	hosts := literalHostRE.FindAllStringSubmatchIndex(u, 4)
	web := len(hosts)
	for _, m := range mailAddressRE.FindAllStringSubmatchIndex(u, 4) {
		if host := strings.ToLower(u[m[2]:m[3]]); outsideHost(host) && !knownServiceHost(host) {
			hosts = append(hosts, m)
		}
	}
	if len(hosts) == 0 || localHostRE.MatchString(u) || keyUseRE.MatchString(u) || templateLine(u) {
		return false
	}
	carry := proseCarryRE.FindStringIndex(u)
	if carry == nil {
		return false
	}
	for _, k := range proseKeyRE.FindAllStringSubmatchIndex(u, 4) {
		service := ""
		for g := 2; g < len(k); g += 2 {
			if k[g] >= 0 {
				service = strings.ToLower(u[k[g]:k[g+1]])
			}
		}
		own, known := providerHosts[strings.ToUpper(service)]
		if !known && (k[6] >= 0 || genericKeyWords[service]) {
			continue // "your API key", YOUR_KEY, API_TOKEN: no service named
		}
		if !known {
			own = []string{service}
		}
		for i, h := range hosts {
			host := strings.ToLower(u[h[2]:h[3]])
			if slices.ContainsFunc(own, func(o string) bool { return strings.Contains(host, o) }) {
				continue
			}
			// The verb that carries the key comes before the address it
			// goes to, in one step of the sentence, and the key before
			// the address or, for a mailbox, after it as what goes with
			// the message ("e-mail a note to audit@… with … the key
			// used": a request's fields are harvest_keyfield.go's). A verb
			// after the key carries it when its object refers back to it
			// ("read the NOTION_API_KEY line and send it to …"), and not
			// when the key was a condition ("if a GITHUB_TOKEN leaks,
			// e-mail security@…") or the verb carries something else
			// ("set GOOGLE_APPLICATION_CREDENTIALS, and share the sheet
			// with sa@…").
			before := k[1] <= h[0] && h[0]-k[1] <= 240 && (carry[0] < k[1] || carriesBackRE.MatchString(u[carry[1]:]) && !keyIfRE.MatchString(u[max(k[0]-60, 0):k[0]]))
			after := i >= web && k[0] >= h[1] && k[0]-h[1] <= 240 && keyWithRE.MatchString(u[h[1]:k[0]]) && !keyIfRE.MatchString(u[h[1]:k[0]])
			if (before || after) && carry[1] <= h[0] && sameClause(u, k[:2], h[:2]) && sameClause(u, carry, h[:2]) && !negatedClause(u, h[1]) {
				return true
			}
		}
	}
	return false
}

// newObjectRE is a verb's object that a sentence brings in new, with an
// indefinite article: not what it gathered before.
var newObjectRE = regexp.MustCompile(`(?i)^\s+(?:a|an)\s`)

// thenRE starts another step of the same sentence.
var thenRE = regexp.MustCompile(`(?i);|,?\s+(?:then|and\s+then|after\s+that|afterwards)\b`)

// sameClause reports whether the spans a and b of u lie in one step of
// the sentence: "copy your SSH key with ssh-copy-id, then scp the build"
// sends no key by scp.
func sameClause(u string, a, b []int) bool {
	lo, hi := min(a[1], b[1]), max(a[0], b[0])
	return lo >= hi || !thenRE.MatchString(u[lo:hi])
}

// proseKinds counts the kinds of store a sentence names.
func proseKinds(u string) int {
	n := 0
	for _, k := range storeKinds {
		if k.re.MatchString(u) {
			n++
		}
	}
	if proseStoreExtraRE.MatchString(u) {
		n++
	}
	return n
}

// negatedClause reports whether a sentence whose act ends at end negates
// or describes it. A later clause that only hides the act from the user
// (harvest_conversation.go's hush) or says what it is for ("so you don't
// lose it") does not, nor do the words of an address
// (collector.attacker.example).
func negatedClause(u string, end int) bool {
	// An address written out takes the comma after it.
	for end > 0 && strings.ContainsRune(",;", rune(u[end-1])) {
		end--
	}
	head, tail := u, ""
	if m := clauseEndRE.FindStringIndex(u[end:]); m != nil {
		head, tail = u[:end+m[0]], u[end+m[0]:]
	}
	if notHarvestRE.MatchString(dottedRE.ReplaceAllString(head, " ")) {
		return true
	}
	if tail == "" || !notHarvestRE.MatchString(dottedRE.ReplaceAllString(tail, " ")) {
		return false
	}
	return !concealRE.MatchString(tail) && !hushRE.MatchString(tail) && !purposeRE.MatchString(strings.TrimLeft(tail, " ,;—–-"))
}

// scanWrappedHandOver reports prose that reads a store in one sentence
// and hands what it read over in another wrapped over lines ("Then post
// them\nto https://…"), which handsOver, reading a line at a time, does
// not see. unwrapped gives the prose with its wrapped lines joined.
func scanWrappedHandOver(fs *findings, prose string, unwrapped func() string) {
	if !strings.Contains(prose, "\n") {
		return
	}
	// Only a line that names a store starts the finding: most prose names
	// none, and handsOver below reads the whole prose twice.
	if !namesStoreOnALine(prose) {
		return
	}
	u := unwrapped()
	if u == prose || handsOver(prose) >= 0 {
		return
	}
	at := handsOver(u)
	if at < 0 {
		return
	}
	for start, seen := 0, 0; start < len(prose) && seen < 64; {
		end := strings.IndexByte(prose[start:], '\n')
		if end < 0 {
			end = len(prose)
		} else {
			end += start
		}
		if line := prose[start:end]; storeLine(line) {
			seen++
			s, e := sentenceAt(u, start+len(line)/2)
			if s < e && imperativeReadRE.MatchString(u[s:e]) && !describesHarvest(u[s:e]) {
				hs, he := sentenceAt(u, at)
				fs.add(RuleExfiltrate, SeverityWithhold, hs, he, "an instruction to read a secret and hand it over")
				return
			}
		}
		start = end + 1
	}
}

// storeLine reports whether a line names a store other than in a
// template's name.
func storeLine(line string) bool {
	return storeWords.in(strings.ToLower(line)) && namesStore(line) && !templateLine(line)
}

// namesStoreOnALine reports whether a line of prose is a storeLine.
func namesStoreOnALine(prose string) bool {
	if !storeWords.in(strings.ToLower(prose)) {
		return false // no line holds a store's word (none has a line break)
	}
	for line := range strings.Lines(prose) {
		if storeLine(strings.TrimSuffix(line, "\n")) {
			return true
		}
	}
	return false
}

// unwrapLines returns prose with the line breaks inside its paragraphs
// made spaces, offsets kept: a break before a blank line, a list item, a
// heading or a table row, or after a heading, stays.
func unwrapLines(prose string) string {
	b := []byte(prose)
	lineStart := 0
	for i := 0; i < len(b); i++ {
		if b[i] != '\n' {
			continue
		}
		line := strings.TrimSpace(prose[lineStart:i])
		next := prose[i+1:]
		if e := strings.IndexByte(next, '\n'); e >= 0 {
			next = next[:e]
		}
		if line != "" && !strings.HasPrefix(line, "#") && line != "---" && strings.TrimSpace(next) != "" && !startsBlock(next) && strings.TrimSpace(next) != "---" {
			b[i] = ' '
		}
		lineStart = i + 1
	}
	return string(b)
}

// scanCapturedEnv reports prose that reads the environment's secrets
// (the variables that hold tokens, or secrets' variables by name after
// "capture the values of") and later sends "the captured values" on.
func scanCapturedEnv(fs *findings, prose string) {
	// The read is looked for first: it is rarer than a send of "them".
	read := false
	for _, m := range envSecretReadRE.FindAllStringIndex(prose, 8) {
		if s, e := sentenceAt(prose, m[0]); !describesHarvest(prose[s:e]) {
			read = true
			break
		}
	}
	if !read {
		// "Capture the values of:" and a list of secrets' variables.
		for _, m := range envCaptureRE.FindAllStringIndex(prose, 8) {
			after := prose[m[1]:min(m[1]+300, len(prose))]
			if names := envSecretNameRE.FindAllString(after, -1); len(names) >= 2 {
				read = true
				break
			}
		}
	}
	if !read {
		return
	}
	sent := capturedSentRE.FindStringIndex(prose)
	if sent == nil {
		return
	}
	if s, e := sentenceAt(prose, sent[0]); !describesHarvest(prose[s:e]) {
		fs.add(RuleExfiltrate, SeverityWithhold, s, e, "an instruction to capture the environment's secrets and send them on")
	}
}

// scanHiddenBcc reports a fixed address put in the blind copy of mail
// when the prose also hides that copy from the user: every message they
// send goes to a party they do not see.
func scanHiddenBcc(fs *findings, prose string) {
	low := strings.ToLower(prose)
	if !strings.Contains(low, "bcc") && !strings.Contains(low, "blind") {
		return
	}
	m := bccRE.FindStringIndex(prose)
	if m == nil || !bccHiddenRE.MatchString(prose) {
		return
	}
	if s, e := sentenceAt(prose, m[0]); !describesHarvest(prose[s:e]) {
		fs.add(RuleExfiltrate, SeverityWithhold, s, e, "a fixed address put in the blind copy of the user's mail, hidden from them")
	}
}
