package search

import (
	"encoding/binary"
	"math/bits"
)

// A term's postings are kept coded, about two bytes a posting where a struct of a slot and
// its packed frequencies takes eight: at 100,000 tools they are a tenth of the index, and a
// bulk load holds them with the room appending leaves as well.
//
// Each posting is two varints. The first is the slot minus the previous posting's slot,
// signed, since a reused slot can be lower; lists grow in slot order, so it is mostly one
// byte. The second says which fields hold the term, one bit each, shifted left by one; when
// the lowest bit is set, a third varint follows with the frequencies of those fields, three
// bits each from the lowest field up. Most postings count the term once in each of their
// fields and need no third.

// add appends a posting of the term in slot s with the packed frequencies tf.
func (ts *termStats) add(s int32, tf uint32) {
	ts.postings = binary.AppendVarint(ts.postings, int64(s-ts.last))
	ts.last = s
	var fields, freqs uint64
	n, ones := 0, true
	for t := tf; t != 0; {
		f := bits.TrailingZeros32(t) / tfBits
		v := t >> (f * tfBits) & tfMax
		fields |= 1 << f
		freqs |= uint64(v) << (n * tfBits)
		n++
		ones = ones && v == 1
		t &^= tfMax << (f * tfBits)
	}
	if ones {
		ts.postings = binary.AppendUvarint(ts.postings, fields<<1)
		return
	}
	ts.postings = binary.AppendUvarint(ts.postings, fields<<1|1)
	ts.postings = binary.AppendUvarint(ts.postings, freqs)
}

// postingReader reads a term's postings in order.
type postingReader struct {
	b    []byte
	slot int32
}

func (ts *termStats) reader() postingReader { return postingReader{b: ts.postings} }

// next returns the next posting's slot and packed frequencies, or ok false at the end.
func (r *postingReader) next() (slot int32, tf uint32, ok bool) {
	// Most postings are two bytes, a near slot and fields counted once: read those
	// without the general varint loops, which the scoring loop would feel.
	if b := r.b; len(b) >= 2 && b[0] < 0x80 && b[1] < 0x80 && b[1]&1 == 0 {
		r.b = b[2:]
		r.slot += int32(b[0]>>1) ^ -int32(b[0]&1)
		for fields := uint32(b[1] >> 1); fields != 0; fields &= fields - 1 {
			tf |= 1 << (bits.TrailingZeros32(fields) * tfBits)
		}
		return r.slot, tf, true
	}
	d, n := binary.Varint(r.b)
	if n <= 0 {
		return 0, 0, false
	}
	r.slot += int32(d)
	x, m := binary.Uvarint(r.b[n:])
	if m <= 0 {
		return 0, 0, false
	}
	r.b = r.b[n+m:]
	fields := x >> 1
	if x&1 == 0 {
		for ; fields != 0; fields &= fields - 1 {
			tf |= 1 << (bits.TrailingZeros64(fields) * tfBits)
		}
		return r.slot, tf, true
	}
	freqs, k := binary.Uvarint(r.b)
	if k <= 0 {
		return 0, 0, false
	}
	r.b = r.b[k:]
	for ; fields != 0; fields &= fields - 1 {
		tf |= uint32(freqs&tfMax) << (bits.TrailingZeros64(fields) * tfBits)
		freqs >>= tfBits
	}
	return r.slot, tf, true
}
