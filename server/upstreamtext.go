package server

import "github.com/toolsearch/toolsearch/loader/scan"

// maxErrorText bounds an upstream's error message as a note or a result
// shows it, in bytes: a sentence or two says what failed; a server sent
// 20 KB.
const maxErrorText = 512

// withheldErrorText stands for an error message the scanner flags.
const withheldErrorText = "(the server's error message is left out: the scanner flags it as addressed to the model; toolsearch status shows it to a person)"

// upstreamError is an error text that holds an upstream's words (a
// server's last error, a JSON-RPC error's message) as the model is shown
// it: its first line through the one screening path of upstream text
// (scan.Screen: normalized, hidden characters dropped, whitespace
// collapsed, clipped at maxErrorText), or a sentence saying it was left
// out when the scanner withholds it. A server nobody approved may still
// fail, and its error must not carry what its definitions could not.
func upstreamError(text string) string {
	s := scan.Screen("error", firstLine(text), maxErrorText)
	if s.Withheld() {
		return withheldErrorText
	}
	return s.Text
}
