package codemode

import (
	"context"
	"encoding/json"
)

// A Host runs what a script asks of the catalog. The server's runs each
// call through its call proxies' path, so that a script is refused what
// its caller would be.
type Host interface {
	// Call calls the named catalog tool with args, a JSON object.
	Call(ctx context.Context, name string, args json.RawMessage) Reply
	// Search finds catalog entries as tool_search does.
	Search(ctx context.Context, query string) ([]Found, error)
}

// Reply is what a call gave.
type Reply struct {
	// Structured is the result's structuredContent as JSON; nil when it
	// has none, and the script gets Text.
	Structured json.RawMessage
	// Text is the result's text content, joined.
	Text string
	// Error says why the call failed (the tool's error result, or the
	// proxy's refusal); "" when it did not.
	Error string
}

// Found is one entry a search found.
type Found struct {
	Name        string `json:"name"`
	Kind        string `json:"kind"`
	Signature   string `json:"signature,omitempty"`
	Description string `json:"description"`
}
