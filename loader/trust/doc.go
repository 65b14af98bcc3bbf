// Package trust decides which tool definitions a model may see and call:
// a definition that is new, changed or flagged by the scanner (package
// loader/scan) waits in quarantine until a person approves it.
//
// Approval is per definition digest (catalog.ToolDigest): a tool that
// changes again is held again. A [Store] keeps the approved digests of
// every source in its [Backend]: a file beside the last known catalogs
// ([FileBackend]), shared by every toolsearch process of the user, or a
// database shared by every replica of a team (package
// internal/state/pgstate). `toolsearch approve` writes to it while a
// server runs, and the server, watching the backend, releases the tools
// at once. A server's first listing is recorded once, whichever process
// lists it first (see [Store.Approve]):
//
//	store := trust.Open(filepath.Join(cacheDir, "approvals.json"), logger)
//	go store.Watch(ctx)
//	v := store.Decide(trust.ModeChanged, key, "create_issue", digest, len(findings) > 0)
//	if v.Held {
//		entry.Hold(...)
//	}
//
// # Modes
//
// Each upstream server has a quarantine [Mode]:
//
//   - off: nothing is held for being new or changed.
//   - changed (the default of stdio servers): the tools of the server's
//     first listing are trusted, and so is a tool that appears later; a
//     tool whose definition changes after it was trusted waits.
//   - new: also a tool that appears after the first listing waits.
//   - all (the default of HTTP and SSE servers, see [DefaultRemoteMode]):
//     every definition waits, the first listing's included.
//
// A server's approvals are kept under its name in the configuration
// (package loader/upstream, identity.go): editing how it is started, or
// starting toolsearch in another folder, changes nothing of what is
// trusted, so that a changed definition waits whatever else changed. Only
// [Store.Forget] (`toolsearch trust reset NAME`) makes the next listing a
// first one again.
//
// Whatever the mode, a definition the scanner flags waits too, until a
// person approves its digest: a false positive costs one approval, and
// what a listing trusted on its own does not count, since the scanner may
// learn of a problem later (a tool of another server it shadows).
//
// What the listing trusts on its own is recorded in the store like a
// person's approval ("first listing", "new tool"), so that a later change
// is measured against it.
//
// A server's other definitions are decided the same way, each under an
// entry of the server's record that no tool name can take (tool names
// have no colon): its instructions under ":instructions", its prompts,
// resources and templates under ":prompt:NAME", ":resource:URI" and
// ":template:URITEMPLATE" (package loader/upstream, held.go). [DiffValues]
// shows them to the operator.
//
// # What the model sees
//
// A held tool stays searchable, but its new text never reaches the model:
// [Summarize] describes the change as added and removed parameters, and
// [Diff] shows the operator the old and new definitions side by side.
package trust
