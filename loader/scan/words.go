package scan

import "strings"

// A wordSet is a list of words to look for in a text, as containsAny
// does, in one pass over the text: the scanner asks its longest lists
// (storeWords' hundred and more) of every line of every skill, and a
// strings.Contains per word was a good part of a scan's time.
type wordSet struct {
	always bool                 // an empty word: every text holds it
	single [256]bool            // the words of one byte
	pairs  [1 << 16 / 64]uint64 // the first two bytes of the longer words
	byHead [256][]string        // the longer words by their first byte
}

func newWordSet(words ...string) *wordSet {
	ws := &wordSet{}
	for _, w := range words {
		switch len(w) {
		case 0:
			ws.always = true
		case 1:
			ws.single[w[0]] = true
		default:
			p := int(w[0])<<8 | int(w[1])
			ws.pairs[p/64] |= 1 << (p % 64)
			ws.byHead[w[0]] = append(ws.byHead[w[0]], w)
		}
	}
	return ws
}

// in reports whether s holds one of the words, as containsAny does.
func (ws *wordSet) in(s string) bool {
	if ws.always {
		return true
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if ws.single[c] {
			return true
		}
		if i+1 == len(s) {
			break
		}
		if p := int(c)<<8 | int(s[i+1]); ws.pairs[p/64]&(1<<(p%64)) == 0 {
			continue
		}
		for _, w := range ws.byHead[c] {
			if strings.HasPrefix(s[i:], w) {
				return true
			}
		}
	}
	return false
}
