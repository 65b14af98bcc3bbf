// Package scan looks for hidden instructions in the text a model will read:
// upstream tool definitions, prompts and skills. A gateway is where a
// poisoned tool description enters a model's context, so toolsearch scans
// every definition when it is loaded and holds back what a rule flags.
//
// The scanner is pure: it reads text and returns findings, each naming the
// rule, the field and the offending span, and knows nothing of catalogs or
// approvals (package loader/trust decides what a finding means):
//
//	for _, f := range scan.Tool(tool) {
//		fmt.Println(f) // inputSchema.properties.sidenote.description[12:40]: secret-path: ...
//	}
//
// # Rules
//
//   - invisible-character: characters that render as nothing but reach the
//     model: the Unicode tag block (U+E0000–E007F, which spells hidden
//     ASCII), zero-width characters outside the scripts and emoji that need
//     them, bidirectional overrides and isolates, control characters
//     (ANSI escape sequences among them) and runs of variation selectors.
//   - hidden-markup: text a person reading a rendered description does not
//     see: HTML comments, elements styled invisible, and padding of blank
//     space that pushes text out of view.
//   - model-directive: instructions addressed to the model rather than
//     describing the tool: <IMPORTANT>-style blocks and chat-template
//     tokens, "do not tell the user", "before using any other tool",
//     "ignore previous instructions", threats of crashes and data loss.
//   - secret-path: references to where secrets live: ~/.ssh and private
//     keys, .env files, cloud and package-registry credentials, MCP client
//     configurations, /etc/shadow.
//   - exfiltration: requests that the model hand over what it holds (the
//     system prompt, the conversation, earlier tool results) or a file's
//     contents through a parameter, or send data to a fixed address.
//   - shadowing: a tool that names another server's tool, or tells the
//     model how other tools must behave (Shadowing; it needs the names of
//     the other servers' tools).
//
// Rules are tuned for few false positives: on 2,102 real tool definitions
// and the shipped skills they flag under 0.5 % (BENCHMARKS.md has the
// figure and the command). Each text is read a bounded number of times:
// cheap literal checks decide which patterns run at all, and Go's regular
// expressions run in time linear in the input.
package scan
