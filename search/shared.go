package search

import (
	"hash/maphash"
	"maps"
	"slices"
	"strings"
)

// A server's tools often carry the same parameters, word for word: every one of Azure's
// 180 tools takes tenant, auth-method and five retry options, described alike in a
// paragraph each. Such a parameter tells the server's tools apart not at all, and its
// description's words ("Azure CLI", "managed identity", "exponential backoff") make every
// one of them match requests about something else: a request for Azure CLI commands found
// any tool whose authentication option mentions the CLI, not the one tool that writes
// them, whose "CLI" was one of hundreds. So the description of a parameter that nearly
// all of a server's tools share (its name and description the same) is left out of the
// documents of that server. Its name stays: a name is a word or two ("symbol",
// "repo_path") that says what the server works on. So does a short shared description
// ("Stock symbol in Yahoo Finance format."): only one of a sentence or more
// (minSharedWords) is taken for boilerplate. Without that floor the dev split's
// yahoo-finance server lost its one shared description, and with it what set its tools
// apart from BFCL's look-alikes in long finance requests.
//
// SharedParams counts the parameters of one server's tools: Count every tool first, then
// Drop from each. Servers are told apart by the caller (a source, a name's prefix).

const (
	// minSharedTools is how many tools a server needs for parameters to count as shared:
	// in a small one, a few tools taking the same "path" is no boilerplate.
	minSharedTools = 8
	// sharedShare is the share of a server's tools that must carry a parameter for it to
	// be boilerplate. Half (Azure's resource-group, on 89 of 180) took out parameters that
	// tell tools apart; nine in ten leaves the ones every tool has.
	sharedShare = 0.9
	// minSharedWords is how many words a shared description needs to be boilerplate.
	minSharedWords = 10
)

// sharedSample bounds what SharedParams keeps: after this many tools, only parameters
// that at least half of them carry are counted further, so that a server of 100,000 tools
// with parameters of their own costs a small map, not one entry per parameter. A
// parameter nine in ten tools carry is among them, unless the tools come sorted by it.
const sharedSample = 64

// SharedParams counts how many tools of one server carry each parameter.
type SharedParams struct {
	tools  int
	counts map[uint64]int32
}

var paramSeed = maphash.MakeSeed()

func paramKey(p Param) uint64 {
	var h maphash.Hash
	h.SetSeed(paramSeed)
	h.WriteString(p.Name)
	h.WriteByte(0)
	h.WriteString(p.Description)
	return h.Sum64()
}

// Count adds a tool's parameters. Only those with a description of a sentence or more are
// counted: a shorter one is never boilerplate.
func (sp *SharedParams) Count(d Document) {
	if d.Kind != KindTool {
		return
	}
	if sp.counts == nil {
		sp.counts = map[uint64]int32{}
	}
	sp.tools++
	for _, p := range d.Params {
		if wordCount(p.Description) < minSharedWords {
			continue
		}
		k := paramKey(p)
		if n, ok := sp.counts[k]; ok || sp.tools <= sharedSample {
			sp.counts[k] = n + 1
		}
	}
	if sp.tools == sharedSample {
		maps.DeleteFunc(sp.counts, func(_ uint64, n int32) bool { return 2*n < sharedSample })
	}
}

// isShared reports whether a parameter carried by n of the counted tools is boilerplate.
func (sp *SharedParams) isShared(n int32) bool {
	return sp.tools >= minSharedTools && float64(n) >= sharedShare*float64(sp.tools)
}

// Fingerprint identifies which parameters are shared: two counts with the same
// fingerprint drop the same descriptions (0 when none is shared).
func (sp *SharedParams) Fingerprint() uint64 {
	var f uint64
	for k, n := range sp.counts {
		if sp.isShared(n) {
			f += k * 0x9E3779B97F4A7C15 // order-free, and not undone by a pair of keys
		}
	}
	return f
}

// Drop clears, in a tool's document, the descriptions of the parameters that the counted
// tools share. A document without shared parameters keeps its own.
func (sp *SharedParams) Drop(d *Document) {
	if sp == nil || sp.tools < minSharedTools || d.Kind != KindTool {
		return
	}
	shared := func(p Param) bool {
		if wordCount(p.Description) < minSharedWords {
			return false // never counted: no need to hash it
		}
		n, ok := sp.counts[paramKey(p)]
		return ok && sp.isShared(n)
	}
	var ps []Param // a copy, made at the first shared parameter: the caller's stay as they are
	for i, p := range d.Params {
		if shared(p) {
			if ps == nil {
				ps = slices.Clone(d.Params)
			}
			ps[i].Description = ""
		}
	}
	if ps != nil {
		d.Params = ps
	}
}

// wordCount counts the words of s, up to minSharedWords.
func wordCount(s string) int {
	n := 0
	for range strings.FieldsSeq(s) {
		if n++; n == minSharedWords {
			break
		}
	}
	return n
}
