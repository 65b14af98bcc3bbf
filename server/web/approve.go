package web

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
)

// Approvals is what the status page needs of approvals: what waits, and a
// way to approve it.
type Approvals interface {
	// Pending lists the held tools and withheld skills.
	Pending() []Pending
	// Approve approves the named definition, which must still be the one
	// with the digest shown, whole (ErrChanged otherwise; ErrNotPending
	// when nothing of that name waits).
	Approve(ctx context.Context, name, digest string) error
}

// Errors of Approvals.Approve.
var (
	ErrNotPending = errors.New("nothing of that name waits for approval")
	ErrChanged    = errors.New("the definition changed since it was shown: review it again")
)

// Pending is a tool or skill waiting for approval, as the status page
// shows it.
type Pending struct {
	Name     string   `json:"name"` // SERVER__TOOL, or skills/PATH
	Kind     string   `json:"kind"`
	Digest   string   `json:"digest"`
	Reason   string   `json:"reason"`
	Change   string   `json:"change,omitempty"`
	Findings []string `json:"findings,omitempty"` // invisible characters revealed
	Diff     string   `json:"diff,omitempty"`     // the approved and pending definitions, unified
}

// maxPendingShown bounds the pending definitions the page gets, with their
// diffs.
const maxPendingShown = 100

// serveApprove approves one definition: POST /approve with
// {"name": ..., "digest": ...}, the digest whole as status.json shows it:
// a prefix would let a server grind a second definition that starts the
// same (one hex digit took at most 16 tries). It takes the whole catalog's
// token (a profile's reaches /mcp only), in the Authorization header:
// never in the URL; a page of another origin is refused by
// checkStateChange.
func (v *statusView) serveApprove(w http.ResponseWriter, r *http.Request) {
	if v.approvals == nil {
		http.Error(w, "Not Found: approvals are not served here", http.StatusNotFound)
		return
	}
	var req struct {
		Name   string `json:"name"`
		Digest string `json:"digest"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Name == "" || req.Digest == "" {
		http.Error(w, `Bad Request: send {"name": ..., "digest": ...} as shown in status.json's pending`, http.StatusBadRequest)
		return
	}
	err := v.approvals.Approve(r.Context(), req.Name, req.Digest) // it checks the digest, whole
	switch {
	case errors.Is(err, ErrNotPending):
		w.WriteHeader(http.StatusNotFound)
	case errors.Is(err, ErrChanged):
		w.WriteHeader(http.StatusConflict)
	case err != nil:
		w.WriteHeader(http.StatusInternalServerError)
	}
	if err != nil {
		writeJSON(w, map[string]string{"error": err.Error()})
		return
	}
	writeJSON(w, map[string]string{"approved": req.Name})
}

// pending lists what waits for approval, for status.json.
func (v *statusView) pending() []Pending {
	if v.approvals == nil {
		return nil
	}
	list := v.approvals.Pending()
	if len(list) > maxPendingShown {
		list = list[:maxPendingShown]
	}
	return list
}
