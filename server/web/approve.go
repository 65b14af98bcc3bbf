package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
//
// A definition the scanner flagged takes a second step (see
// confirmations): the first request is answered 428 Precondition Required
// with its findings, its diff and a confirmation; the second sends the
// same name and digest with "confirm" (that confirmation) and "typed"
// (the name, as the person typed it).
func (v *statusView) serveApprove(w http.ResponseWriter, r *http.Request) {
	if v.approvals == nil {
		http.Error(w, "Not Found: approvals are not served here", http.StatusNotFound)
		return
	}
	var req approveRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Name == "" || req.Digest == "" {
		http.Error(w, `Bad Request: send {"name": ..., "digest": ...} as shown in status.json's pending`, http.StatusBadRequest)
		return
	}
	if p, ok := v.findPending(req.Name); ok && p.flagged() && !v.confirmed(w, req, p) {
		return
	}
	err := v.approvals.Approve(r.Context(), req.Name, req.Digest) // it checks the digest, whole
	if err != nil {
		writeApproveError(w, err)
		return
	}
	writeJSON(w, map[string]string{"approved": req.Name})
}

// approveRequest is the body of POST /approve.
type approveRequest struct {
	Name   string `json:"name"`
	Digest string `json:"digest"`
	// Confirm and Typed are the second step's, for a flagged definition.
	Confirm string `json:"confirm,omitempty"`
	Typed   string `json:"typed,omitempty"`
}

// confirmed reports whether req is the second step of approving the
// flagged definition p; when it is not, it has answered: with the first
// step's findings, diff and confirmation, or with why the second step
// failed.
func (v *statusView) confirmed(w http.ResponseWriter, req approveRequest, p Pending) bool {
	switch {
	case p.Digest != req.Digest:
		writeApproveError(w, ErrChanged)
	case req.Confirm == "":
		writeJSONStatus(w, http.StatusPreconditionRequired, confirmNeeded{
			Error:    fmt.Sprintf("%s was flagged by the scanner: read its findings and its diff, then confirm: send this confirmation back with the name typed out", p.Name),
			Confirm:  v.confirms.issue(p.Name, p.Digest),
			Name:     p.Name,
			Digest:   p.Digest,
			Findings: p.Findings,
			Diff:     p.Diff,
		})
	case req.Typed != p.Name:
		writeJSONStatus(w, http.StatusBadRequest, map[string]string{"error": fmt.Sprintf("type the name %s exactly to approve it", p.Name)})
	case !v.confirms.redeem(req.Confirm, p.Name, p.Digest):
		writeJSONStatus(w, http.StatusForbidden, map[string]string{"error": "this confirmation is used, stale or for another definition: review the findings again and confirm anew"})
	default:
		return true
	}
	return false
}

// confirmNeeded answers the first step of approving a flagged definition.
type confirmNeeded struct {
	Error    string   `json:"error"`
	Confirm  string   `json:"confirm"`
	Name     string   `json:"name"`
	Digest   string   `json:"digest"`
	Findings []string `json:"findings"`
	Diff     string   `json:"diff,omitempty"`
}

// writeApproveError answers a failed approval with its status and why.
func writeApproveError(w http.ResponseWriter, err error) {
	code := http.StatusInternalServerError
	switch {
	case errors.Is(err, ErrNotPending):
		code = http.StatusNotFound
	case errors.Is(err, ErrChanged):
		code = http.StatusConflict
	}
	writeJSONStatus(w, code, map[string]string{"error": err.Error()})
}

// findPending finds what waits under name, in the whole list: the page
// is shown at most maxPendingShown, but any may be approved.
func (v *statusView) findPending(name string) (Pending, bool) {
	for _, p := range v.approvals.Pending() {
		if p.Name == name {
			return p, true
		}
	}
	return Pending{}, false
}

// flagged reports whether the scanner flagged the definition, whose
// approval then takes a second step.
func (p Pending) flagged() bool { return len(p.Findings) > 0 }

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
