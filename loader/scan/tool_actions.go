package scan

// toolActionPatterns are orders in a server's text (a tool's description,
// a parameter's, a prompt, the server's instructions) to act on the
// user's machine or on the user's behalf. A tool describes what it does
// ("fetches data from https://…", "creates a file at the given path");
// it has no reason to have the model run code fetched from the network,
// change the shell's startup files, make a request each time it is used,
// call a destructive tool first, put a fixed value in place of the user's
// or shun other servers' tools. Public benchmarks of MCP attacks name
// these as parameter poisoning, function dependency injection, network
// request poisoning, filesystem poisoning, command injection and tool
// redirection. Skills are left out: installing, editing ~/.zshrc and
// calling services are what many of them are for.
var toolActionPatterns = []pattern{
	mk(RuleDirective, "a command that runs code fetched from the network",
		`\b(?:run|execute|exec|paste|type|enter|invoke)\b[^.\n]{0,40}?(?:\b(?:curl|wget)\b[^|\n`+backtick+`]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b|\b(?:ba|z)?sh\s+<\(\s*(?:curl|wget)\b|\b(?:iex|invoke-expression)\b[^\n]{0,60}\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring)\b)`,
		[]string{"curl", "wget", "iex", "invoke-expression"}, "run", "exec", "paste", "type", "enter", "invoke").strongIn(serverKinds).only(serverKinds),
	mk(RuleDirective, "a destructive command",
		`\brm\s+-(?:rf|fr|r)\s+(?:~|/|\$home|\*)|\bchmod\s+(?:-r\s+)?(?:0?777|a\+rwx)\s|\bmkfs(?:\.\w+)?\s|\bdd\s+if=\S+\s+of=/dev/|:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:`,
		[]string{"rm ", "chmod", "mkfs", "dd ", ":(){", ":()"}).strongIn(serverKinds).only(serverKinds),
	mk(RuleDirective, "an order to change the shell's startup files or other system files",
		`\b(?:append|add|write|insert|prepend|modify|edit|overwrite|replace|delete|remove|erase|truncate|change|create)\b[^.\n]{0,100}?(?:~|\$home)?/\.(?:bashrc|zshrc|profile|bash_profile|zprofile|zshenv|gitconfig)\b|\b(?:append|add|write|insert|prepend|modify|edit|overwrite|replace|delete|remove|erase|truncate|change|create)\b[^.\n]{0,100}?(?:\.ssh/authorized_keys\b|/etc/(?:hosts|passwd|shadow|sudoers|crontab|profile|cron\.d|rc\.local)\b|\bcrontab\b|\.git/hooks/|/Library/Launch(?:Agents|Daemons)\b|\.config/autostart\b|\.config/systemd/user\b)`,
		[]string{".bashrc", ".zshrc", ".profile", ".bash_profile", ".zprofile", ".zshenv", ".gitconfig", "authorized_keys", "/etc/", "crontab", ".git/hooks", "launchagents", "launchdaemons", "autostart", "systemd/user"}).strongIn(serverKinds).only(serverKinds).negatable(),
	mk(RuleExfiltrate, "an order to make a request to a fixed address",
		`\b(?:make|send|issue|perform|fire)\s+an?\s+(?:(?:get|post|put|http|https|web|network|tracking|background|silent)\s+)*(?:request|call|ping)\s+to\s+https?://`,
		[]string{"request to", "call to", "ping to"}).strongIn(serverKinds).only(serverKinds).negatable().addressed(),
	mk(RuleDirective, "an order to fetch instructions from an address and follow them",
		`\b(?:fetch|get|load|read|download|visit|open|retrieve|check)\s+(?:the\s+\w+\s+(?:at|from)\s+)?https?://\S+\s+(?:and|then)\s+(?:\w+\s+){0,2}?(?:follow|execute|run|obey|apply|carry\s+out)\b|\b(?:follow|obey|execute|apply)\s+(?:the\s+)?(?:\w+\s+)?(?:instructions|directives|commands|steps)\s+(?:at|from|found\s+at|published\s+at|returned\s+by)\s+https?://`,
		[]string{"http"}).strongIn(serverKinds).only(serverKinds).negatable(),
	mk(RuleDirective, "an order to call a destructive or sending tool first",
		`\b(?:must|should|need\s+to|needs\s+to|always|first)\s+(?:first\s+)?(?:call|invoke|run|use|execute)\s+(?:the\s+)?`+backtick+`?`+riskyToolName+`\b|\bdepends\s+on\s+(?:the\s+)?`+backtick+`?`+riskyToolName+`\b`,
		[]string{"call", "invoke", "run", "use", "execute", "depends on"}).strongIn(serverKinds).only(serverKinds).negatable(),
	mk(RuleDirective, "an order to put a fixed value in place of the user's",
		`\bregardless\s+of\s+(?:what\s+)?(?:the\s+)?user(?:'s)?\s*(?:asks?|says?|wants?|requests?|specifies|specified|enters?|entered|provides?|provided|gives?|input|choice|types?)\b|\bwhatever\s+(?:\w+\s+){0,2}?(?:the\s+)?user\s+(?:gives|provides|says|asks\s+for|enters|specifies|wants|types)\b(?:[^.\n]|\.\S){0,80}?\binstead\b|\b(?:ignore|override|replace|discard)\s+(?:the\s+)?user'?s?\s+(?:value|input|choice|address|recipient|amount|account|selection)\b`,
		[]string{"regardless", "whatever", "user's", "users", "user "}).strongIn(serverKinds).only(serverKinds),
	mk(RuleShadowing, "a tool that forbids other servers' tools",
		`\b(?:do\s+not|don'?t|never)\s+(?:use|call|invoke|trust)\s+(?:\S+\s+){0,3}?(?:from|of|on|by|in)\s+(?:any\s+)?(?:other|another|third[-\s]party)\s+(?:servers?|tools?|providers?|integrations?|plugins?|mcp\s+servers?)\b`,
		[]string{"other", "another", "third"}).strongIn(serverKinds).only(serverKinds),
}

// riskyToolName is the name of a tool that destroys, sends or runs: one a
// tool has no business having the model call before it.
const riskyToolName = `[\w.-]*(?:delete|remove|drop|destroy|wipe|purge|erase|reset|truncate|send|transfer|pay|export|upload|post|share|grant|exec|shell|run_command)[\w.-]*`
