package web

import (
	"time"

	"github.com/toolsearch/toolsearch/loader/catalog"
	"github.com/toolsearch/toolsearch/loader/problem"
)

// CatalogReport is what operators see of the catalog: sources with their
// states, every entry with its policy and flags, and what was refused.
// `toolsearch catalog` prints it and the status page shows it.
type CatalogReport struct {
	Sources []SourceReport `json:"sources"`
	Entries []EntryReport  `json:"entries"`
	Refused []EntryReport  `json:"refused,omitempty"`
}

// SourceReport describes one source.
type SourceReport struct {
	Name       string     `json:"name"`
	Kind       string     `json:"kind"`
	State      string     `json:"state,omitempty"`
	Entries    int        `json:"entries"`
	LastListed *time.Time `json:"lastListed,omitempty"`
	LastError  string     `json:"lastError,omitempty"`
	// Stderr is the tail of a server's stderr at its last failure.
	Stderr   string           `json:"stderr,omitempty"`
	Problems problem.Problems `json:"problems,omitempty"`
}

// EntryReport describes one entry.
type EntryReport struct {
	Name    string   `json:"name"`
	Kind    string   `json:"kind"`
	Source  string   `json:"source"`
	State   string   `json:"state,omitempty"`
	Policy  string   `json:"policy,omitempty"`
	Flags   []string `json:"flags,omitempty"`
	Summary string   `json:"summary"`
	Reason  string   `json:"reason,omitempty"` // why it was refused
	// Quarantine says why a tool waits for approval, and how to give it.
	Quarantine *catalog.Quarantine `json:"quarantine,omitempty"`
}

// BuildCatalogReport describes a snapshot.
func BuildCatalogReport(snap *catalog.Snapshot) CatalogReport {
	var rep CatalogReport
	states := map[string]string{}
	for _, src := range snap.Sources {
		sr := SourceReport{Name: src.Name, Kind: string(src.Kind), State: string(src.State), Entries: len(src.Entries), LastError: src.LastError, Stderr: src.Stderr, Problems: src.Problems}
		if !src.LastListed.IsZero() {
			t := src.LastListed
			sr.LastListed = &t
		}
		states[src.Name] = string(src.EntryState())
		rep.Sources = append(rep.Sources, sr)
	}
	entry := func(e *catalog.Entry) EntryReport {
		er := EntryReport{Name: e.Name, Kind: string(e.Kind), Source: e.Source, State: states[e.Source], Summary: e.Summary}
		if e.Kind != catalog.KindSkill {
			er.Policy = string(e.Policy)
		}
		if e.Held() {
			er.Flags = append(er.Flags, "quarantined")
			er.Quarantine = e.Quarantine
		}
		if e.AlwaysLoad {
			er.Flags = append(er.Flags, "alwaysLoad")
		}
		if e.Changed {
			er.Flags = append(er.Flags, "changed")
		}
		if e.Skill != nil && !e.Skill.Valid() {
			er.Flags = append(er.Flags, "invalid")
		}
		return er
	}
	for _, e := range snap.Entries {
		rep.Entries = append(rep.Entries, entry(e))
	}
	for _, r := range snap.Refused {
		er := entry(r.Entry)
		er.Reason = r.Reason
		rep.Refused = append(rep.Refused, er)
	}
	return rep
}
