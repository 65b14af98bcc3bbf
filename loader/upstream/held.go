package upstream

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"

	"github.com/toolsearch/toolsearch/internal/utf8cut"
	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/scan"
	"github.com/toolsearch/toolsearch/loader/trust"
)

// A server defines more than its tools: its instructions, prompts,
// resources and resource templates reach the model too, so each is
// decided as a tool is (trust.Store.Decide, under the server's mode) and
// held while it waits. A held one is not published at all: the model sees
// neither the new text nor the definition, only, for instructions, a note
// that they wait (the last approved text, if any, is still shown).
//
// Each is approved under an entry of the server's approvals that no tool
// can take, since tool names have no colon: InstructionsKey, and
// ":prompt:NAME", ":resource:URI", ":template:URITEMPLATE" (FeatureKey).
// People name them as the server's name followed by the key:
// SERVER:instructions, SERVER:prompt:NAME, SERVER:resource:URI.

// InstructionsKey is the approvals entry of a server's instructions.
const InstructionsKey = ":instructions"

// Kinds of the definitions held beside tools, as Pending's Kind says.
const (
	KindInstructions = "instructions"
	KindPrompt       = "prompt"
	KindResource     = "resource"
	KindTemplate     = "template"
)

// FeatureKey is the approvals entry of a prompt (by its own name), a
// resource (by its URI) or a template (by its URI template).
func FeatureKey(kind, name string) string { return ":" + kind + ":" + name }

// A heldDef is a definition other than a tool that waits for approval.
type heldDef struct {
	key, kind string
	digest    string
	reason    string
	findings  []scan.Finding
	// previous is the definition last trusted (nil if none) and current
	// the one held, as values to diff (trust.DiffValues).
	previous, current any
}

// instructionsState is what an upstream keeps of its instructions' verdict
// (under u.mu).
type instructionsState struct {
	// shown is what the model may read: the instructions received when
	// they are trusted, the last trusted ones while new ones wait.
	shown string
	// trusted are the instructions last trusted; hasTrusted says whether
	// any were.
	trusted    string
	hasTrusted bool
	held       *heldDef
	// digest and findings are the scanner's on the last instructions
	// decided, so that a re-listing scans them only when they change.
	digest   string
	findings []scan.Finding
}

// maxScannedInstructions bounds the instructions scanned, in bytes: far
// more than is ever shown (server.MaxShownInstructions), so that what is
// shown has been read.
const maxScannedInstructions = 64 << 10

// instructionsDigest identifies a text of instructions.
func instructionsDigest(text string) string {
	sum := sha256.Sum256([]byte("instructions\x00" + text))
	return hex.EncodeToString(sum[:])
}

// decideInstructions decides whether the server's instructions wait for
// approval, as decide does for a tool. Callers hold u.mu.
func (u *upstream) decideInstructions() {
	st := &u.q.instr
	st.held = nil
	text := u.instructions
	if text == "" {
		st.shown = ""
		return
	}
	digest := instructionsDigest(text)
	if st.digest != digest {
		st.digest, st.findings = digest, scan.Text("instructions", utf8cut.Prefix(text, maxScannedInstructions))
	}
	v := u.m.approvals.Decide(u.mode(), u.id.trust, InstructionsKey, digest, scan.Withholds(st.findings))
	if !v.Held {
		st.shown, st.trusted, st.hasTrusted = text, text, true
		if v.Trust != "" && u.q.listing {
			u.q.toTrust = append(u.q.toTrust, trust.Item{Entry: InstructionsKey, Digest: digest, By: v.Trust, Scanner: scan.Version})
		}
		return
	}
	st.shown = ""
	var previous any
	if st.hasTrusted {
		st.shown, previous = st.trusted, st.trusted
	}
	st.held = &heldDef{key: InstructionsKey, kind: KindInstructions, digest: digest, reason: v.Reason,
		findings: slices.Clone(st.findings), previous: previous, current: text}
}

// heldInstructionsReason says why the server's instructions wait, or "".
func (u *upstream) heldInstructionsReason() string {
	if h := u.q.instr.held; h != nil {
		return h.reason
	}
	return ""
}

// heldNow lists every definition other than a tool held now. Callers hold
// u.mu.
func (u *upstream) heldNow() []*heldDef {
	var out []*heldDef
	if u.q.instr.held != nil {
		out = append(out, u.q.instr.held)
	}
	return append(out, u.q.feat.held...)
}

// pendingOf makes the Pending of a held definition other than a tool: an
// entry that names it (never published) with why it waits.
func (u *upstream) pendingOf(h *heldDef) Pending {
	name := u.cfg.Name + h.key
	return Pending{
		Server: u.cfg.Name,
		Tool:   h.key,
		Kind:   h.kind,
		Entry: &catalog.Entry{
			Kind:   catalog.Kind(h.kind),
			Name:   name,
			Source: u.cfg.Name,
			Digest: h.digest,
			Quarantine: &catalog.Quarantine{
				Reason:   h.reason,
				Findings: h.findings,
				Summary:  heldSummary(h),
			},
		},
		Previous: h.previous,
		Current:  h.current,
	}
}

// heldSummary describes a held definition's change without its text.
func heldSummary(h *heldDef) string {
	what := h.kind
	if h.kind == KindInstructions {
		what = "server instructions"
	}
	if h.previous == nil {
		return "new " + what
	}
	return what + " changed"
}

// keepHeldPrevious puts in p what was trusted before each held definition
// other than a tool, so that a restart (or review, reading the file) still
// shows the trusted text and what changed. Callers hold u.mu.
func (u *upstream) keepHeldPrevious(p *persisted) {
	if h := u.q.instr.held; h != nil && u.q.instr.hasTrusted {
		text := u.q.instr.trusted
		p.TrustedInstructions = &text
	}
	for _, h := range u.q.feat.held {
		if h.previous == nil {
			continue
		}
		raw, err := json.Marshal(h.previous)
		if err != nil {
			continue
		}
		if p.TrustedFeatures == nil {
			p.TrustedFeatures = map[string]json.RawMessage{}
		}
		p.TrustedFeatures[h.key] = raw
	}
}

// restoreHeldPrevious takes back what keepHeldPrevious kept. Callers hold
// u.mu.
func (u *upstream) restoreHeldPrevious(p *persisted) {
	if p.TrustedInstructions != nil {
		u.q.instr.trusted, u.q.instr.hasTrusted = u.redact.String(*p.TrustedInstructions), true
	}
	if len(p.TrustedFeatures) > 0 {
		u.q.feat.trusted = make(map[string]any, len(p.TrustedFeatures))
		for k, raw := range p.TrustedFeatures {
			u.q.feat.trusted[k] = raw
		}
	}
}
