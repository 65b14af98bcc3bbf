package web

import "github.com/toolsearch/toolsearch/loader/catalog"

// HeldReport is one definition that waits for a person's approval, as
// the status page's Quarantined list shows it: a held tool, or what else
// a server defines and has held (its instructions, a prompt, a resource or
// a template, named SERVER:instructions, SERVER:prompt:NAME and the like),
// which is no catalog entry and so in no entries table.
type HeldReport struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Source string `json:"source,omitempty"`
	Reason string `json:"reason"`
	Change string `json:"change,omitempty"`
	// Review is the command that shows the change ("" when none is
	// known); the page links each to its place in the approvals list.
	Review string `json:"review,omitempty"`
}

// quarantined lists what waits for approval: the catalog's held entries,
// then the other definitions the approvals hold (pending, skills left
// out: a withheld skill is not quarantined), and the held instructions of
// a source that pending does not name.
func quarantined(snap *catalog.Snapshot, pending []Pending) []HeldReport {
	var out []HeldReport
	seen := map[string]bool{}
	add := func(h HeldReport) {
		if !seen[h.Name] {
			seen[h.Name] = true
			out = append(out, h)
		}
	}
	for _, e := range snap.Entries {
		if q := e.Quarantine; e.Held() {
			add(HeldReport{Name: e.Name, Kind: string(e.Kind), Source: e.Source, Reason: q.Reason, Change: q.Summary, Review: q.Review})
		}
	}
	for _, p := range pending {
		if p.Kind != string(catalog.KindSkill) && p.Kind != string(catalog.KindTool) {
			add(HeldReport{Name: p.Name, Kind: p.Kind, Reason: p.Reason, Change: p.Change})
		}
	}
	for _, src := range snap.Sources {
		if src.InstructionsHeld != "" {
			add(HeldReport{Name: src.Name + ":instructions", Kind: "instructions", Source: src.Name, Reason: src.InstructionsHeld})
		}
	}
	return out
}
