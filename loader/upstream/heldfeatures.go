package upstream

import (
	"slices"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/scan"
	"github.com/toolsearch/toolsearch/loader/trust"
)

// featureHolds is what an upstream keeps to hold its prompts, resources
// and templates for approval (under u.mu): see held.go.
type featureHolds struct {
	// held are the definitions held at the last rebuild of the features.
	held []*heldDef
	// trusted is, by approvals entry, the definition last trusted of each
	// feature listed: what a held one is compared with.
	trusted map[string]any
	// listed is set when the features about to be rebuilt come from the
	// server rather than the last known catalog: what the mode trusts of
	// them is then recorded.
	listed bool
	// entries is how many of the upstream's entries (and refused) are its
	// tools', which come first: the features' follow.
	entries, refused int
}

// startFeatures readies a rebuild of the features, and returns the
// definitions trusted before it and whether the features were just
// listed. Callers hold u.mu.
func (u *upstream) startFeatures() (prevTrusted map[string]any, fresh bool) {
	f := &u.q.feat
	prevTrusted, fresh = f.trusted, f.listed
	f.trusted, f.held, f.listed = map[string]any{}, nil, false
	f.entries, f.refused = len(u.entries), len(u.refused)
	return prevTrusted, fresh
}

// holdFeature decides whether a prompt, resource or template (def, of
// entry e) waits for approval, as decide does for a tool, and reports
// whether it is held. Callers hold u.mu.
func (u *upstream) holdFeature(e *catalog.Entry, kind, name string, def any, findings []scan.Finding, prevTrusted map[string]any, fresh bool) bool {
	key := FeatureKey(kind, name)
	v := u.m.approvals.Decide(u.mode(), u.id.trust, key, e.Digest, scan.Withholds(findings))
	f := &u.q.feat
	if !v.Held {
		f.trusted[key] = def
		if v.Trust != "" && fresh {
			u.q.toTrust = append(u.q.toTrust, trust.Item{Entry: key, Digest: e.Digest, By: v.Trust, Scanner: scan.Version})
		}
		return false
	}
	prev, ok := prevTrusted[key]
	if ok {
		f.trusted[key] = prev // still what a change is measured against
	}
	f.held = append(f.held, &heldDef{key: key, kind: kind, digest: e.Digest, reason: v.Reason,
		findings: slices.Clone(findings), previous: prev, current: def})
	return true
}

// featureOf names the feature of a published entry: its kind and its own
// name (a prompt's name, a resource's URI, a template's URI template).
func featureOf(e *catalog.Entry) (kind, name string, ok bool) {
	switch {
	case e.Prompt != nil:
		name := e.Upstream
		if name == "" {
			name = e.Name
		}
		return KindPrompt, name, true
	case e.Resource != nil:
		return KindResource, e.Resource.URI, true
	case e.Template != nil:
		return KindTemplate, e.Template.URITemplate, true
	}
	return "", "", false
}

// featureVerdictsChanged reports whether deciding the features again, as
// the approvals stand now, would hold or release any. Callers hold u.mu.
func (u *upstream) featureVerdictsChanged() bool {
	mode := u.mode()
	for _, h := range u.q.feat.held {
		v := u.m.approvals.Decide(mode, u.id.trust, h.key, h.digest, scan.Withholds(h.findings))
		if !v.Held || v.Reason != h.reason {
			return true
		}
	}
	for _, e := range u.entries[min(u.q.feat.entries, len(u.entries)):] {
		kind, name, ok := featureOf(e)
		if !ok {
			continue
		}
		v := u.m.approvals.Decide(mode, u.id.trust, FeatureKey(kind, name), e.Digest, scan.Withholds(u.feat.scans[e.Digest]))
		if v.Held {
			return true
		}
	}
	return false
}

// redoFeatures makes the features' entries again, after the approvals
// changed. The published slices are a snapshot's: they are copied, never
// written to. Callers hold u.mu.
func (u *upstream) redoFeatures() {
	f := &u.q.feat
	u.entries = slices.Clone(u.entries[:min(f.entries, len(u.entries))])
	u.refused = slices.Clone(u.refused[:min(f.refused, len(u.refused))])
	u.rebuildFeatures()
}

// instructionsVerdictChanged reports whether deciding the instructions
// again would change their verdict. Callers hold u.mu.
func (u *upstream) instructionsVerdictChanged() bool {
	st := &u.q.instr
	if u.instructions == "" || st.digest != instructionsDigest(u.instructions) {
		return false // decided at the next rebuild
	}
	v := u.m.approvals.Decide(u.mode(), u.id.trust, InstructionsKey, st.digest, scan.Withholds(st.findings))
	if st.held == nil {
		return v.Held
	}
	return !v.Held || v.Reason != st.held.reason
}
