package search

import (
	"slices"
	"strings"
)

// stopWords are dropped from documents and queries alike. Besides the usual English function
// words the list holds the politeness and filler of spoken requests ("please", "could you",
// "I want"), which never describe what a tool does. Contractions written without their
// apostrophe ("dont", "im") are stop words, but not "id": in tool catalogs it is the
// identifier.
var stopWords = toSet(`
a about above after again against all am an and any are as at be because been before being
below both but by can could did do does doing done down during each either else etc ever every
few for from further had has have having he her here hers herself him himself his how i if in
into is it its itself just let lets me might mine more most must my myself no nor not now of
off on once only or other our ours ourselves out over own per please same shall she should so
some such than that the their theirs them themselves then there these they this those through
to too under until up upon us very was we were what whatever when whenever where whether which
while who whom whose why will with within would yet you your yours yourself yourselves
hey hi thanks thank kindly want wants wanted need needs needed like would im ive
youre dont cant wont also may maybe
`)

// abbreviations maps short forms that are common in tool names and parameters to the word a
// user would type (possibly several words), on both the document and the query side. Shell
// commands whose tools describe themselves in words anyway ("mkdir": "Create a new
// directory") are not expanded: "make directory" made every request that says "make" or
// "remove" look like one. A
// short form with two common senses ("temp": temperature or temporary) stands for both;
// one whose senses are many or far apart ("pwd": password or working directory, "hr":
// hour or human resources, "ts": timestamp or TypeScript) is left out.
var abbreviations = map[string]string{
	"addr": "address", "arg": "argument", "args": "arguments", "attr": "attribute",
	"avg": "average", "btn": "button", "calc": "calculate", "cfg": "configuration",
	"config": "configuration", "conf": "configuration", "cmd": "command", "cnt": "count",
	"db": "database", "del": "delete", "desc": "description", "dest": "destination",
	"dir": "directory", "dirs": "directories", "doc": "document", "docs": "documents",
	"env": "environment", "err": "error", "exec": "execute", "fn": "function",
	"func": "function", "img": "image", "imgs": "images", "info": "information",
	"len": "length", "lang": "language", "loc": "location", "max": "maximum",
	"min": "minimum", "msg": "message", "msgs": "messages", "num": "number",
	"obj": "object", "param": "parameter", "params": "parameters", "pic": "picture",
	"pics": "pictures", "pkg": "package", "prev": "previous", "qty": "quantity",
	"repo": "repository", "repos": "repositories", "req": "request", "res": "response",
	"src": "source", "stats": "statistics", "str": "string", "sync": "synchronize",
	"tmp": "temporary", "txn": "transaction", "usr": "user", "val": "value", "vals": "values",
	"ls": "list", "rm": "remove", "mv": "move", "cp": "copy", "cd": "change directory", "wc": "word count",
	"amt": "amount", "acct": "account", "app": "application", "apps": "applications",
	"org": "organization", "orgs": "organizations", "dept": "department", "ref": "reference",
	"lat": "latitude", "lng": "longitude", "lon": "longitude", "coord": "coordinate",
	"coords": "coordinates", "freq": "frequency", "tel": "telephone", "yr": "year",
	"yrs": "years", "hrs": "hours", "mins": "minutes", "secs": "seconds", "wk": "week",
	"pct": "percent", "diff": "difference", "init": "initialize", "opts": "options",
	"ctx": "context", "lib": "library", "libs": "libraries", "ver": "version",
	"dob": "date birth", "fav": "favorite", "favs": "favorites", "mgr": "manager",
	"temp": "temperature temporary",
}

// synonymGroups are words that tool descriptions and requests use interchangeably. A query
// word also searches for the other members of its group, at a lower weight. Only general
// vocabulary of tool catalogs belongs here, never a word put in for the requests of one test
// set: the verbs of the CRUD family and the common nouns of catalogs, each group a set of
// words that any English speaker takes for the same action or thing (BENCHMARKS.md argues
// for each group kept and lists those dropped).
// Words with a second common sense are left out, since the stemmer conflates forms and a
// synonym then fires on the wrong sense: "locate" (stem of "location"), "set" (a set of),
// "open" (open issues), "end" (end date), "rate" (rating), "track", "share" (a file),
// "store", "issue" (an issue is not always an error). "order" stays with "buy": in tool
// catalogs placing an order is the common sense.
var synonymGroups = [][]string{
	{"get", "fetch", "retrieve", "obtain", "read", "load"},
	{"create", "add", "new", "make", "insert", "generate"},
	{"delete", "remove", "erase", "destroy", "drop", "discard"},
	{"list", "show", "enumerate", "display", "view"},
	{"search", "find", "lookup", "query", "seek", "grep"},
	{"update", "modify", "edit", "change", "alter", "patch"},
	{"send", "post", "transmit", "deliver", "submit"},
	{"calculate", "compute"},
	{"buy", "purchase", "order"},
	{"book", "reserve", "reservation"},
	{"start", "begin", "launch", "run", "execute"},
	{"stop", "terminate", "halt", "kill", "close", "finish"},
	{"copy", "duplicate", "clone"},
	{"move", "relocate", "rename"},
	{"check", "verify", "validate", "inspect"},
	{"picture", "image", "photo"},
	{"movie", "film"},
	{"car", "vehicle", "automobile"},
	{"price", "cost", "fee"},
	{"directory", "folder"},
	{"song", "music"},
	{"convert", "transform"},
	{"count", "tally"},
	{"total", "sum"},
	{"average", "mean"},
	{"probability", "odds", "likelihood"},
	{"reminder", "alert", "notification", "notify"},
	{"email", "mail"},
	{"cancel", "revoke", "abort"},
	{"login", "signin", "authenticate"},
	{"chart", "graph", "plot", "diagram"},
	{"summary", "summarize", "overview"},
	{"download", "save"},
	{"speed", "velocity"},
	{"write", "save"},
	{"user", "account", "member"},
	{"company", "business", "organization"},
	{"doctor", "physician"},
	{"trip", "travel", "journey"},
	{"city", "town"},
	{"large", "big"},
	{"small", "little"},
	{"error", "bug"},
	{"news", "headline", "article"},
	{"stock", "equity"},
}

// synonyms maps a term to the other terms of its groups, built from synonymGroups.
var synonyms = buildSynonyms(synonymGroups)

func buildSynonyms(groups [][]string) map[string][]string {
	m := map[string][]string{}
	for _, g := range groups {
		var ts []string
		for _, w := range g {
			if t := normalize(w); t != "" {
				ts = append(ts, t)
			}
		}
		for _, t := range ts {
			for _, u := range ts {
				if u != t && !slices.Contains(m[t], u) {
					m[t] = append(m[t], u)
				}
			}
		}
	}
	return m
}

func toSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
