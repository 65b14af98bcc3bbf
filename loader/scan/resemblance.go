package scan

import (
	"cmp"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The other rules read what a sentence or a line of code does. Attacks
// written to avoid their words still read, as a whole, like attacks: they
// speak of a user's keys and of sending, of mirrors and backups, of what
// the summary may leave out, in proportions clean skills and tools do not.
// The resemblance rule weighs that: a linear model of a definition's words
// and word pairs, trained on the development half of the public corpora
// and on the attacks and clean look-alikes of testdata/paraphrases, by
// TestTrainResemblance, which writes the two models in resemblance/. No
// held-out sample is read to make them.
//
// A skill that resembles the harvesters withholds; a tool that resembles
// the poisoned tools is flagged, since a tool's text is short and a
// description of a real tool that handles keys reads much like one that
// steals them. Each finding names the words that weigh most, so a person
// reviewing it sees why.

//go:embed resemblance/skills.tsv
var skillModelText string

//go:embed resemblance/tools.tsv
var toolModelText string

var (
	skillModel = sync.OnceValue(func() *linearModel { return mustParseModel("resemblance/skills.tsv", skillModelText) })
	toolModel  = sync.OnceValue(func() *linearModel { return mustParseModel("resemblance/tools.tsv", toolModelText) })
)

// maxModelText bounds the text a model reads of one definition: its work
// grows with the text, and a hostile skill may be large.
const maxModelText = 256 << 10

// A linearModel scores a text by the weights of the terms it holds.
type linearModel struct {
	bias      float64
	threshold float64 // the score from which the model's finding is made
	minTerms  int     // see termScale
	weights   map[string]float64
}

// score is the model's probability that text is an attack: the logistic
// of the bias and the sum of the weights of its distinct terms, scaled by
// termScale. It also returns the terms present that weigh most towards an
// attack, at most maxTopTerms. It reads the text once and allocates little
// beyond a set of the terms' hashes: a start-up scans every skill.
func (m *linearModel) score(text string) (float64, []string) {
	seen := make(map[uint64]struct{}, min(len(text)/16, 1<<11))
	n, sum := 0, 0.0
	var top [maxTopTerms]weighed
	forEachTerm(text, func(term []byte) {
		key := fnv1a(term)
		if _, dup := seen[key]; dup {
			return
		}
		seen[key] = struct{}{}
		n++
		w, ok := m.weights[string(term)]
		if !ok {
			return
		}
		sum += w
		if w > top[maxTopTerms-1].w {
			top[maxTopTerms-1] = weighed{string(term), w}
			slices.SortStableFunc(top[:], func(a, b weighed) int { return cmp.Compare(b.w, a.w) })
		}
	})
	var names []string
	for _, t := range top {
		if t.w > 0 {
			names = append(names, t.term)
		}
	}
	return m.probability(sum, n), names
}

// probability is the model's score of a text of n distinct terms whose
// weights sum to sum.
func (m *linearModel) probability(sum float64, n int) float64 {
	return logistic(m.bias + sum*termScale(n, m.minTerms))
}

// fnv1a is the 64-bit FNV-1a hash of b: a term's key in score's set, where
// two terms of a text sharing one is too rare to move a score.
func fnv1a(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h
}

// maxTopTerms is how many of the words that weigh most a finding names.
const maxTopTerms = 6

type weighed struct {
	term string
	w    float64
}

// termScale is what the sum of weights of a text of n distinct terms is
// multiplied by: less the more terms it has, so that a long text does not
// win on length alone, but no more for a text shorter than minTerms, so
// that a short one is not judged on a handful of common words.
func termScale(n, minTerms int) float64 {
	return modelScale / math.Sqrt(float64(max(n, minTerms)+1))
}

// modelScale keeps the scaled sum of weights in the range the logistic
// separates; training uses the same.
const modelScale = 10

func logistic(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// forEachTerm calls fn with each word of text, lowercased, and each pair
// of words that follow each other, joined by a space; fn must not keep
// the slice. A word is a run of ASCII letters, digits and underscores,
// with a dot before it kept (".ssh", ".env"). The text is read in its
// normalized form, so look-alike letters read as the words they imitate,
// and only its first maxModelText bytes.
func forEachTerm(text string, fn func(term []byte)) {
	if len(text) > maxModelText {
		text = text[:maxModelText]
	}
	text = normalizedText(text)
	var word, pair []byte
	havePrev := false
	for i := 0; i < len(text); {
		start := i
		if text[i] == '.' && i+1 < len(text) && termByte(lower(text[i+1])) {
			i++
		}
		j := i
		for j < len(text) && termByte(lower(text[j])) {
			j++
		}
		if j == i {
			i = start + 1
			continue
		}
		if havePrev {
			pair = append(append(pair[:0], word...), ' ')
		}
		word = word[:0]
		for k := start; k < j; k++ {
			word = append(word, lower(text[k]))
		}
		fn(word)
		if havePrev {
			pair = append(pair, word...)
			fn(pair)
		}
		havePrev, i = true, j
	}
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// termByte is a byte of a word, once lowercased.
func termByte(c byte) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_'
}

// skillText is the text the skill model reads: every text file with
// its path.
func skillText(files []File) string {
	size := 0
	for _, f := range files {
		size += len("=== \n\n") + len(f.Path) + len(f.Data)
	}
	var b strings.Builder
	b.Grow(min(size, maxModelText+len("=== \n\n")+1024))
	for _, f := range files {
		if b.Len() >= maxModelText {
			break
		}
		b.WriteString("=== ")
		b.WriteString(f.Path)
		b.WriteString("\n")
		b.Write(f.Data[:min(len(f.Data), maxModelText)])
		b.WriteString("\n")
	}
	return b.String()
}

// toolText is the text the tool model reads: the name, the description
// and the input schema.
func toolText(t *mcp.Tool) string {
	schema, _ := json.Marshal(t.InputSchema)
	return t.Name + "\n" + t.Description + "\n" + string(schema)
}

// skillResemblance is the skill model's finding on a skill's files, or
// none. It is reported on the skill's SKILL.md, or its first file.
func skillResemblance(dir string, files []File) []Finding {
	if len(files) == 0 {
		return nil
	}
	p, top := skillModel().score(skillText(files))
	if p < skillModel().threshold {
		return nil
	}
	field := files[0].Path
	for _, f := range files {
		if f.Path == "SKILL.md" {
			field = f.Path
		}
	}
	if dir != "" {
		field = dir + "/" + field
	}
	return []Finding{resemblanceFinding(SeverityWithhold, field, 1, p, "the skill, read as a whole, resembles the credential harvesters of the corpora", top)}
}

// toolResemblance is the tool model's finding on a definition, or none.
func toolResemblance(t *mcp.Tool) []Finding {
	p, top := toolModel().score(toolText(t))
	if p < toolModel().threshold {
		return nil
	}
	return []Finding{resemblanceFinding(SeverityWarn, "description", 0, p, "the definition, read as a whole, resembles the poisoned tools of the corpora", top)}
}

func resemblanceFinding(sev Severity, field string, line int, p float64, what string, top []string) Finding {
	return Finding{
		Rule:     RuleResemblance,
		Severity: sev,
		Field:    field,
		Line:     line,
		Span:     quoteSpan(strings.Join(top, ", ")),
		Message:  fmt.Sprintf("%s (%.2f); the words that weigh most", what, p),
	}
}

// mustParseModel reads a model as TestTrainResemblance writes it: lines
// of a term and its weight, separated by a tab, and the lines "@bias",
// "@threshold" and "@minterms"; lines starting with # are comments. The models are built
// into the binary, so a malformed one is a fault of the build.
func mustParseModel(name, text string) *linearModel {
	m, err := parseModel(text)
	if err != nil {
		panic(fmt.Sprintf("scan: %s: %v", name, err))
	}
	return m
}

func parseModel(text string) (*linearModel, error) {
	m := &linearModel{weights: map[string]float64{}, threshold: math.NaN(), bias: math.NaN()}
	for n, line := range strings.Split(text, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		term, value, ok := strings.Cut(line, "\t")
		w, err := strconv.ParseFloat(value, 64)
		if !ok || err != nil || math.IsNaN(w) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("line %d: want a term, a tab and a number: %q", n+1, line)
		}
		switch term {
		case "@bias":
			m.bias = w
		case "@threshold":
			m.threshold = w
		case "@minterms":
			m.minTerms = int(w)
		default:
			m.weights[term] = w
		}
	}
	if math.IsNaN(m.bias) || math.IsNaN(m.threshold) || m.threshold <= 0 || m.threshold >= 1 {
		return nil, fmt.Errorf("want @bias and a @threshold between 0 and 1")
	}
	return m, nil
}
