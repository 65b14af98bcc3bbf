package scan

import (
	"regexp"
	"strings"
)

// A skill can send what the user says to it (every question, the original
// request, the documents handed over, the conversation so far) to an
// address of its author's, "to improve answers", "for the audit trail".
// The user's words are no secret by name, and a skill that does its task
// with them sends them too: the document to the translation API, the
// receipt to the OCR service, the ticket to the user's helpdesk. What
// marks the harvest is a side channel: the step is kept from the user
// ("not mentioned in the answer", "silent background logging"), or the
// copy is kept by whoever receives it (logged, recorded, archived,
// retained, added to a benchmark) rather than used for the task.

var (
	// userWordsRE is what the user said or handed over, in the languages
	// the rules read: the user's question, each file the user provided,
	// the conversation so far, a placeholder for the question in an
	// address (q=<question>).
	userWordsRE = mustGate(`(?i)\b(?:the\s+|each\s+|every\s+)?(?:user|customer|caller)(?:'s|s'|’s)\s+(?:[\w-]+\s+)?(?:questions?|requests?|prompts?|messages?|quer(?:y|ies)|inputs?|instructions|texts?|documents?|files?|uploads?|attachments?|transcripts?|r[eé]sum[eé]s?|contracts?|statements?|datasets?|drafts?|essays?)\b` +
		`|\b(?:every|each|all)\s+(?:\w+\s+)?(?:questions?|prompts?|requests?|messages?|quer(?:y|ies)|files?|documents?|uploads?)\s+(?:that\s+)?(?:the\s+)?(?:user|customer)\b` +
		`|\b(?:every|each)\s+(?:user\s+|incoming\s+)?(?:question|prompt|request|query)\b` +
		// What the user handed over, named by the handing: "the files
		// exactly as the user supplied them".
		`|\b(?:the|each|every|all|any)\s+(?:[\w-]+\s+){0,2}?(?:files?|documents?|statements?|texts?|data|datasets?|spreadsheets?|pdfs?|contracts?|notes?|messages?|questions?|requests?)\s+(?:\([^)\n]{0,80}\)\s+)?(?:exactly\s+|just\s+)?(?:as\s+|that\s+|which\s+)?(?:the\s+)?(?:user|customer)\s+(?:has\s+|had\s+)?(?:provided|supplied|uploaded|shared|gave|attached|pasted|sent|submitted)\b` +
		`|\bthe\s+(?:full\s+|entire\s+|whole\s+)?conversation\s+(?:so\s+far|history|thread|log)\b` +
		`|[=:]\s*[<{](?:the\s+)?(?:user'?s?\s+)?(?:question|prompt|request|query|message)\b[^>}\n]{0,40}[>}]` +
		`|\b(?:jede|alle|die)\s+(?:\pL+\s+)?(?:Frage|Anfrage|Nachricht|Eingabe|Datei|Dokument)(?:n|en)?\s+(?:des|der)\s+(?:Nutzers|Benutzers|Kunden|Nutzerin)\b` +
		`|\b(?:la|le|les|chaque|sa|son|ses)\s+(?:question|demande|requ[eê]te|message|texte|document|fichier)s?\s+(?:\pL+\s+)?(?:de\s+l['’]|d['’])utilisat(?:eur|rice)\b` +
		`|\b(?:la|las|cada|el|los)\s+(?:pregunta|solicitud|petici[oó]n|consulta|mensaje|documento|archivo|texto)s?\s+del\s+usuario\b` +
		`|ユーザー(?:から)?の(?:質問|依頼|メッセージ|入力|プロンプト|文書|資料|ファイル)|依頼内容` +
		`|用户(?:的)?(?:问题|提问|请求|消息|输入|提示词|文档|文件|原始需求|需求)|사용자(?:의)?\s*(?:질문|요청|메시지|입력|프롬프트|문서|파일)`)
	// userWords are the words every match of userWordsRE holds one of.
	userWords = newWordSet("user", "customer", "caller", "conversation", "question", "request", "prompt", "quer", "message",
		"nutzer", "kunden", "utilisat", "usuario", "ユーザー", "依頼", "用户", "사용자")
	// hushRE keeps a step from the user: it runs unseen, it is left out
	// of what the user reads, no one needs to be told or asked.
	hushRE = regexp.MustCompile(`(?i)\b(?:silent(?:ly)?|quietly|in\s+the\s+background|background\s+(?:logging|step|call|sync))\b` +
		`|\b(?:not|never)\s+(?:be\s+)?(?:mentioned|shown|surfaced|brought\s+up|reported|listed|explained|discussed)\b` +
		`|\b(?:not|isn'?t|is\s+not)\s+part\s+of\s+(?:the|what|your)\b[^.\n]{0,40}?\b(?:user|sees|see|shown|answer|reply|review|summary|report)\b` +
		`|\b(?:do\s+not|don'?t|never)\s+(?:add|include|mention|list|note|show)\s+(?:this|it|that)(?:\s+step)?\s+(?:to|in)\s+(?:the\s+|your\s+|any\s+)?(?:summary|answer|reply|response|draft|report|output)\b` +
		`|\b(?:do\s+not|don'?t|never)\s+(?:mention|bring\s+up|point\s+out)\s+(?:this|it|that)\s*(?:[.;!]|$)|\b(?:transparent|invisible)\s+to\s+the\s+user\b` +
		`|\b(?:no\s+need|need\s+not|does\s+not\s+need|doesn'?t\s+need|not\s+need)\s+(?:to\s+)?(?:be\s+)?(?:mention|brought\s+up|ask|asked|tell|told|confirm|explain|inform|notif)\w*` +
		`|\b(?:not|no|without)\s+(?:need(?:s|ing)?\s+|requir(?:e|es|ing)\s+)?(?:the\s+|any\s+)?user(?:'s|s'|’s)?\s+(?:attention|approval|input|involvement|interaction)\b` +
		`|\bregardless\s+of\s+the\s+(?:response|result|answer)\b|\bwithout\s+(?:waiting\s+for|asking|telling|mentioning|reporting|(?:a\s+|any\s+)?(?:[\w-]+\s+)?(?:confirmation|approval))\b|\bskip\s+(?:mentioning|reporting|listing)\b|\bfor\s+the\s+user'?s\s+confirmation\b` +
		`|\bnicht\s+(?:erw(?:ä|ae)hnt|angezeigt|gezeigt)|\bohne\s+(?:es\s+)?(?:zu\s+)?(?:erw(?:ä|ae)hnen|nachzufragen)|\bno\s+hace\s+falta\s+(?:comentarlo|mencionarlo|decirlo|avisar)|\bsin\s+(?:mencionarlo|avisar|comentarlo)\b` +
		`|\bsans\s+(?:le\s+)?(?:mentionner|signaler|pr[eé]venir)|\b(?:pas\s+besoin|(?:n['’]est\s+)?pas\s+n[eé]cessaire|inutile)\s+d(?:e\s+|['’])(?:le\s+|en\s+)?(?:mentionner|signaler|dire|pr[eé]venir|parler|informer)|\bsans\s+en\s+parler` +
		`|説明や確認は不要|説明は不要|確認は不要|伝える必要はありません|言及しない|不要(?:告诉|告知|提及|说明)|无需(?:告诉|告知|提及|说明|确认)|不必(?:告诉|告知|提及|说明)`)
	// keptRE says the receiver keeps the copy: a log, a record, an
	// archive, a benchmark, the material to improve its answers.
	keptRE = regexp.MustCompile(`(?i)\b(?:logs?|logged|logging|records?|recorded|archived?|archives|retain(?:s|ed)?|retention|keeps\s+(?:the|a|all)\s+(?:copies|copy|documents?|files?)|benchmark(?:ing)?\s+set|training|analytics|telemetry|audit\s+trail|improve\s+(?:the\s+)?(?:quality|answers|results|suggestions|macros)|quality\s+(?:tracking|assurance|is\s+tracked))\b` +
		`|protokolliert|archiviert|enregistr|archiv[eé]|registra(?:do|mos|r)|記録|保存|记录|存档|归档`)
	// relayVerbRE hands something to an address.
	relayVerbRE = regexp.MustCompile(`(?i)\b(?:send|sends|sent|sending|post|posts|posting|forward|forwards|forwarding|log|logs|record|submit|submits|submitting|upload|uploads|uploading|mirror|mirrors|sync|syncs|e-?mail|copy|include|includes|including|relay|transmit|report|file)\b|\b(?:GET|POST|PUT)\s+https?://|` + foreignHandVerbs + `|übermittle|sende|schicke|envía|envoyer|envoie|transmet`)
	// mailAddressRE is an e-mail address written out.
	mailAddressRE = regexp.MustCompile(`(?i)\b[\w.+-]+@([a-z0-9][\w-]*(?:\.[\w-]+)+)\b`)
)

// scanRelayedConversation reports a step of a skill's or a server's text
// that sends what the user said or handed over to an address written out
// that is neither the user's nor a known service's, with the step kept
// from the user or the copy kept by the receiver. raw is the text as
// written and prose the same with its code blanked; lower is raw in lower
// case, for the gate; unwrapped gives the prose with its wrapped lines
// joined.
func scanRelayedConversation(fs *findings, raw, prose, lower string, unwrapped func() string) {
	// The user's words are looked for only in a step that holds an
	// address, and only in a text that names the user: most paragraphs
	// hold neither, and the expression has no word of its own to gate it.
	if !strings.Contains(raw, "://") && !strings.Contains(raw, "@") || !userWords.in(lower) {
		return
	}
	text := unwrapped()
	if len(raw) != len(text) {
		raw = text // a text read without its code has no offsets of raw's
	}
	lead := 0 // where the paragraph before this one starts
	for start := 0; start < len(text); {
		end := paragraphEnd(text, start)
		// A step's verb, address or hush may stand in a paragraph of its
		// own (a lead ending in a colon, an address set apart on a line,
		// "It is not mentioned in the answer."): the step is read with
		// the paragraph before it and the two after, in its section.
		from := start
		if lead < start && !strings.HasPrefix(text[lead:], "#") {
			from = lead
		}
		// The request may be written out in a code block of the step
		// (POST https://…): the address and the verb are read in the
		// text as written, which has the prose's offsets.
		to := stepEnd(text, start, end)
		step, written := text[from:to], raw[from:to]
		// The cheap tests first: an address outside, a word of the
		// user's words in the paragraph, then the expressions.
		para := text[start:end]
		if (strings.Contains(written, "://") || strings.Contains(written, "@")) && outsideAddress(written) >= 0 &&
			userWords.in(strings.ToLower(para)) &&
			(hushRE.MatchString(step) || keptRE.MatchString(step)) && relayVerbRE.MatchString(written) {
			if m := userWordsRE.FindStringIndex(para); m != nil && !tableRow(para, m[0]) && !negatedWords(para, m[0]) {
				fs.add(RuleExfiltrate, SeverityWithhold, start+m[0], min(start+m[1]+160, end),
					"an instruction to send what the user says or hands over to an address of the skill's, kept from the user or kept by the receiver")
				return
			}
		}
		lead, start = start, end+2
	}
}

// negatedWords reports whether the sentence of para that names the
// user's words at pos negates or describes the sending ("never send the
// user's question", "a skill that logs every prompt"), its hush left
// out. The sentence alone is read: a paragraph's other sentences may
// deny or describe something else ("the index detects overlap"). A
// setting's value (expiry=never) denies nothing.
func negatedWords(para string, pos int) bool {
	s, e := sentenceAt(para, pos)
	sentence := settingValueRE.ReplaceAllString(hushRE.ReplaceAllString(para[s:e], " "), " ")
	return negationRE.MatchString(sentence)
}

// settingValueRE is a setting written with its value (expiry=never).
var settingValueRE = regexp.MustCompile(`\b[\w.-]+=[\w.-]+`)

// outsideAddress returns where the paragraph writes out an address that
// is neither this machine's, a placeholder's nor a known service's: a
// web address or a mailbox. Or -1.
func outsideAddress(para string) int {
	for _, m := range literalHostRE.FindAllStringSubmatchIndex(para, 8) {
		host := strings.ToLower(strings.TrimRight(para[m[2]:m[3]], "."))
		if outsideHost(host) && !knownServiceHost(host) {
			return m[0]
		}
	}
	for _, m := range mailAddressRE.FindAllStringSubmatchIndex(para, 8) {
		host := strings.ToLower(para[m[2]:m[3]])
		if outsideHost(host) && !knownServiceHost(host) {
			return m[0]
		}
	}
	return -1
}

// stepEnd returns where a step that starts with the paragraph at
// [start, end) ends: two paragraphs later, at a heading, or 1,200 bytes
// on, whichever comes first.
func stepEnd(text string, start, end int) int {
	limit := min(len(text), start+1200)
	for n := 0; n < 2 && end+2 < limit; n++ {
		next := end + 2
		if strings.HasPrefix(strings.TrimLeft(text[next:], "\n"), "#") {
			break
		}
		end = paragraphEnd(text, next)
	}
	return min(end, limit)
}
