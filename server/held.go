package server

import (
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// HeldInfo tells the model that a tool waits for approval, in words that
// hold nothing of its held definition.
type HeldInfo struct {
	Reason string `json:"reason"`
	Change string `json:"change"`
	// Review is the command that shows the user the change and how to
	// approve it. The model is never told how to approve: a poisoned
	// server would tell it to, and the hold would approve itself.
	Review string `json:"review"`
}

// heldInfo describes an entry's quarantine for the model; nil when it is
// not held.
func heldInfo(e *catalog.Entry) *HeldInfo {
	q := e.Quarantine
	if q == nil {
		return nil
	}
	return &HeldInfo{Reason: heldReason(q), Change: q.Summary, Review: q.Review}
}

// heldReason is the reason with the scanner's rules, never their spans:
// those are the held text.
func heldReason(q *catalog.Quarantine) string {
	if len(q.Findings) == 0 {
		return q.Reason
	}
	var rules []string
	for _, f := range q.Findings {
		if r := string(f.Rule); !slices.Contains(rules, r) {
			rules = append(rules, r)
		}
	}
	return fmt.Sprintf("%s (%s)", q.Reason, strings.Join(rules, ", "))
}

// heldNote is the mark a held tool carries in search results.
func heldNote(h *HeldInfo) string {
	return fmt.Sprintf("quarantined: %s; %s. Calls are refused until the user approves it: ask them to review it with `%s`", h.Reason, h.Change, h.Review)
}

// heldResult refuses a call to a held tool.
func heldResult(e *catalog.Entry) *mcp.CallToolResult {
	h := heldInfo(e)
	res := errorResult(fmt.Sprintf("quarantined: %s is held for review (%s; %s) and cannot be called until the user approves it. Do not try to approve it yourself: tell the user, who can review the change with `%s` or on the status page and approve it there.",
		e.Name, h.Reason, h.Change, h.Review))
	res.StructuredContent = structuredError(res, map[string]any{"error": "quarantined", "tool": e.Name, "reason": h.Reason, "change": h.Change, "review": h.Review})
	return res
}

// Quarantined are the held entries of a snapshot, for the status page and
// review.
func Quarantined(snap *catalog.Snapshot) []*catalog.Entry {
	var out []*catalog.Entry
	for _, e := range snap.Entries {
		if e.Held() {
			out = append(out, e)
		}
	}
	return out
}
