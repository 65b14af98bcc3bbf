package server

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/toolsearch/toolsearch/loader/catalog"
)

// DefaultListingBudget fits the one-liners of some 40 entries, the size of
// catalog that most needs them, and keeps tool_search's whole description
// under 4 KB, where Claude Code (2.1) cuts the description of an MCP tool
// that is not always loaded (16 KB for one that is, as tool_search is).
const DefaultListingBudget = 500

// searchToolIntro opens tool_search's description. Key words come first,
// because some clients cut long descriptions.
const searchToolIntro = `Call first: finds tools and skills, and returns a tool's schema and the proxy to call it with, or a skill's instructions. Query: keywords for one need, or "select:name1,name2".`

// shortestOneLiner is the narrowest one-liner the listing shows, in runes,
// before it lists names alone.
const shortestOneLiner = 30

// countFunc counts tokens.
type countFunc func(string) int

// renderListing lists the catalog as "name — one-liner" lines grouped by
// source, within budget tokens. Over budget it degrades in steps: shorter
// one-liners, then names only, then per-source counts with the first names
// (within countsBudget).
// It always says how many entries exist, and never exceeds the budget; a
// budget of 0 lists nothing.
func renderListing(snap *catalog.Snapshot, budget int, count countFunc) string {
	if budget <= 0 {
		return ""
	}
	groups := groupBySource(snap)
	head := listingHeadline(groups, waitingServers(snap))
	if count(head) > budget {
		return ""
	}
	if len(groups) == 0 {
		return head
	}
	for _, oneLiner := range []int{catalog.SummaryLen, 60, shortestOneLiner} {
		if text, ok := fitAll(head, groups, budget, count, func(e *catalog.Entry) string {
			return listedName(e) + " — " + truncateRunes(e.Summary, oneLiner)
		}, "\n"); ok {
			return text
		}
	}
	if text, ok := fitAll(head, groups, budget, count, listedName, ", "); ok {
		return text
	}
	return fitCounts(head, groups, countsBudget(budget), count)
}

// countsBudget is what the last step may spend of the listing's budget:
// three fifths. Once names alone no longer fit, the listing cannot name
// every entry, and a longer partial list of first names helps the model
// less than tool_search does; large catalogs are the ones whose listing is
// paid at every request of every session.
func countsBudget(budget int) int { return budget * 3 / 5 }

// listedName is an entry's name as its group lists it: a server's tool
// without the "SERVER__" its group header already says (the headline tells
// the model how the full name is made), a quarter to a half of a line's
// tokens.
func listedName(e *catalog.Entry) string {
	if rest, ok := strings.CutPrefix(e.Name, e.Source+"__"); ok && rest != "" {
		return rest
	}
	return e.Name
}

type sourceGroup struct {
	src     *catalog.Source
	entries []*catalog.Entry
}

func groupBySource(snap *catalog.Snapshot) []sourceGroup {
	var groups []sourceGroup
	index := map[string]int{}
	for _, e := range snap.Entries {
		if !e.Listed() || !e.ForModel() {
			continue // prompts and resources are for people, and listed directly
		}
		i, ok := index[e.Source]
		if !ok {
			src, _ := snap.Source(e.Source)
			i = len(groups)
			index[e.Source] = i
			groups = append(groups, sourceGroup{src: src})
		}
		groups[i].entries = append(groups[i].entries, e)
	}
	return groups
}

// listingHeadline counts what the listing holds. It says "tool_search
// reaches all of them" only when it is so: servers that have never listed
// (on a very first start, or one that cannot start) are named instead,
// since a host may keep this listing for the whole session.
func listingHeadline(groups []sourceGroup, waiting serversWaiting) string {
	var (
		tools, skills int
		servers       bool
	)
	for _, g := range groups {
		servers = servers || g.src != nil && g.src.Kind == catalog.SourceServer
		for _, e := range g.entries {
			if e.Kind == catalog.KindSkill {
				skills++
			} else {
				tools++
			}
		}
	}
	var what []string
	if skills > 0 {
		what = append(what, plural(skills, "skill"))
	}
	if tools > 0 || skills == 0 {
		what = append(what, plural(tools, "tool"))
	}
	head := fmt.Sprintf("Catalog: %s from %s", strings.Join(what, " and "), plural(len(groups), "source"))
	if servers {
		head += " (tools named SERVER__TOOL)"
	}
	if waiting.empty() {
		return head + "; tool_search reaches all of them."
	}
	var notes []string
	if n := len(waiting.starting); n > 0 {
		notes = append(notes, fmt.Sprintf("%s still starting (%s), whose tools tool_search finds once listed", plural(n, "server"), strings.Join(waiting.starting, ", ")))
	}
	if n := len(waiting.unavailable); n > 0 {
		notes = append(notes, fmt.Sprintf("%s unavailable (%s)", plural(n, "server"), strings.Join(waiting.unavailable, ", ")))
	}
	return head + " so far; " + strings.Join(notes, "; ") + "."
}

// serversWaiting are the upstream servers that have no tools in the
// listing because they never listed any: not with a last known catalog
// (which is listed whatever the server's state), and not empty by choice.
type serversWaiting struct {
	starting    []string // connecting for the first time
	unavailable []string // "NAME: why" for those that failed or need a login
}

func (w serversWaiting) empty() bool { return len(w.starting)+len(w.unavailable) == 0 }

// waitingServers finds the servers the listing lacks, by name. A server
// that listed once, even nothing, is not waited for.
func waitingServers(snap *catalog.Snapshot) serversWaiting {
	var w serversWaiting
	for _, src := range snap.Sources {
		if src.Kind != catalog.SourceServer || !src.LastListed.IsZero() || len(src.Entries) > 0 {
			continue
		}
		switch src.State {
		case catalog.StateConnecting, catalog.StateValidating:
			w.starting = append(w.starting, src.Name)
		case catalog.StateFailed:
			w.unavailable = append(w.unavailable, src.Name+": failed to start")
		case catalog.StateNeedsAuth:
			w.unavailable = append(w.unavailable, src.Name+": needs a login")
		}
	}
	slices.Sort(w.starting)
	slices.Sort(w.unavailable)
	return w
}

// complete reports whether the listing of snap waits for no server to
// start: every server has listed once, or given up for now.
func complete(snap *catalog.Snapshot) bool {
	return len(waitingServers(snap).starting) == 0
}

// groupHeader names a source and, for a server, a state that lasts until
// a person acts (a login). States that pass on their own within seconds
// (connecting, re-listing, failed and retrying) are left out: hosts keep
// the listing for the whole session, and a tag would outlive its truth.
func groupHeader(g sourceGroup) string {
	name := g.entries[0].Source
	if g.src != nil && g.src.Kind == catalog.SourceServer && g.src.State == catalog.StateNeedsAuth {
		return fmt.Sprintf("[%s] (%s)", name, g.src.State)
	}
	return "[" + name + "]"
}

// fitAll renders every entry of every group with line, joined by sep, and
// reports whether the whole text fits the budget. It sums the pieces' counts
// to bail out early on huge catalogs, then checks the exact total. The sum
// runs over the total (a piece's leading newline or separator is its own
// token counted alone, merged with the next word in the whole text): 15 %
// over on 40 one-liners, so it bails out only a quarter past the budget.
func fitAll(head string, groups []sourceGroup, budget int, count countFunc, line func(*catalog.Entry) string, sep string) (string, bool) {
	var b strings.Builder
	b.WriteString(head)
	used := count(head)
	for _, g := range groups {
		lead := "\n" + groupHeader(g)
		if sep == "\n" {
			lead += "\n"
		} else {
			lead += " "
		}
		b.WriteString(lead)
		used += count(lead)
		for i, e := range g.entries {
			piece := line(e)
			if i > 0 {
				piece = sep + piece
			}
			b.WriteString(piece)
			if used += count(piece); used > budget+budget/4 {
				return "", false
			}
		}
	}
	text := b.String()
	return text, count(text) <= budget
}

// fitCounts is the last step: each source with its count and as many of its
// first names as the budget allows. Sources that do not fit at all are
// summed up in a final line.
func fitCounts(head string, groups []sourceGroup, budget int, count countFunc) string {
	names := make([]int, len(groups)) // how many first names each source shows
	shown := len(groups)
	render := func() string {
		var b strings.Builder
		b.WriteString(head)
		for i, g := range groups[:shown] {
			fmt.Fprintf(&b, "\n%s %s", groupHeader(g), plural(len(g.entries), "entry"))
			if names[i] > 0 {
				b.WriteString(": ")
				for j, e := range g.entries[:names[i]] {
					if j > 0 {
						b.WriteString(", ")
					}
					b.WriteString(listedName(e))
				}
				if names[i] < len(g.entries) {
					b.WriteString(", …")
				}
			}
		}
		if rest := groups[shown:]; len(rest) > 0 {
			n := 0
			for _, g := range rest {
				n += len(g.entries)
			}
			fmt.Fprintf(&b, "\n…and %s with %s", plural(len(rest), "more source"), plural(n, "entry"))
		}
		return b.String()
	}
	for shown > 0 && count(render()) > budget {
		shown--
	}
	if count(render()) > budget {
		return head
	}
	// Add first names round-robin, so that every source shows some.
	for added := true; added; {
		added = false
		for i, g := range groups[:shown] {
			if names[i] >= len(g.entries) {
				continue
			}
			names[i]++
			if count(render()) > budget {
				names[i]--
				continue
			}
			added = true
		}
	}
	return render()
}

func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n-1]
	return strings.TrimRight(string(r), " ,;:.") + "…"
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "y") {
		return fmt.Sprintf("%d %sies", n, noun[:len(noun)-1])
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
