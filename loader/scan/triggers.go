package scan

// A triggerSet finds which of a fixed set of literals occur in a text, in
// one pass over its bytes whatever their number (an Aho-Corasick
// automaton). Matching ignores ASCII case. Searching for each literal in
// turn cost more than every regular expression together.
type triggerSet struct {
	words   []string
	class   [256]uint8 // byte -> column of next; 0 for bytes in no literal
	classes int
	next    []int32  // state*classes + class -> state
	found   []bitset // state -> the literals that end there
	ends    []bool   // state -> whether any literal ends there
	index   map[string]int
}

// A bitset holds one bit per literal of a triggerSet.
type bitset [32]uint64

const maxTriggers = 2048

func (b *bitset) set(i int) { b[i/64] |= 1 << (i % 64) }
func (b *bitset) or(o *bitset) {
	for i := range b {
		b[i] |= o[i]
	}
}
func (b *bitset) any(o *bitset) bool {
	var x uint64
	for i := range b {
		x |= b[i] & o[i]
	}
	return x != 0
}
func (b *bitset) empty() bool { return *b == bitset{} }

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// newTriggerSet builds the automaton for the literals (lowercase ASCII).
func newTriggerSet(words []string) *triggerSet {
	t := &triggerSet{index: map[string]int{}}
	for _, w := range words {
		if _, ok := t.index[w]; ok {
			continue
		}
		if len(t.words) == maxTriggers {
			panic("scan: too many trigger literals")
		}
		t.index[w] = len(t.words)
		t.words = append(t.words, w)
	}
	t.classes = 1
	for _, w := range t.words {
		for i := 0; i < len(w); i++ {
			c := w[i]
			if t.class[c] == 0 {
				t.class[c] = uint8(t.classes)
				t.classes++
			}
		}
	}
	for c := 'A'; c <= 'Z'; c++ {
		t.class[c] = t.class[c+'a'-'A']
	}
	// The trie, with -1 for edges it lacks.
	goTo := [][]int32{make([]int32, t.classes)}
	fill := func(row []int32) {
		for i := range row {
			row[i] = -1
		}
	}
	fill(goTo[0])
	t.found = []bitset{{}}
	for id, w := range t.words {
		s := int32(0)
		for i := 0; i < len(w); i++ {
			c := t.class[w[i]]
			if goTo[s][c] < 0 {
				row := make([]int32, t.classes)
				fill(row)
				goTo = append(goTo, row)
				t.found = append(t.found, bitset{})
				goTo[s][c] = int32(len(goTo) - 1)
			}
			s = goTo[s][c]
		}
		t.found[s].set(id)
	}
	// Failure links by breadth, folded into a full transition table.
	fail := make([]int32, len(goTo))
	t.next = make([]int32, len(goTo)*t.classes)
	var queue []int32
	for c := 0; c < t.classes; c++ {
		if s := goTo[0][c]; s > 0 {
			queue = append(queue, s)
			t.next[c] = s
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		t.found[s].or(&t.found[fail[s]])
		for c := 0; c < t.classes; c++ {
			if n := goTo[s][c]; n > 0 {
				fail[n] = t.next[int(fail[s])*t.classes+c]
				queue = append(queue, n)
				t.next[int(s)*t.classes+c] = n
			} else {
				t.next[int(s)*t.classes+c] = t.next[int(fail[s])*t.classes+c]
			}
		}
	}
	t.ends = make([]bool, len(t.found))
	for i := range t.found {
		t.ends[i] = !t.found[i].empty()
	}
	return t
}

// scan returns the literals that occur in s.
func (t *triggerSet) scan(s string) bitset {
	var out bitset
	state := int32(0)
	for i := 0; i < len(s); i++ {
		state = t.next[int(state)*t.classes+int(t.class[s[i]])]
		if t.ends[state] {
			out.or(&t.found[state])
		}
	}
	return out
}

// mask returns the bits of the given literals, which must be in the set.
func (t *triggerSet) mask(words []string) bitset {
	var b bitset
	for _, w := range words {
		i, ok := t.index[w]
		if !ok {
			panic("scan: trigger not in the set: " + w)
		}
		b.set(i)
	}
	return b
}
