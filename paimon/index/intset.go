package index

import "math"

// intSet is an open-addressing set of int32 that iterates in the order of the fastutil
// IntOpenHashSet Java's DynamicBucketIndexMaintainer writes from (linear probing over
// mix(k) = (k*0x9E3779B9) ^ ((k*0x9E3779B9) >>> 16), load factor 0.75, the zero key kept apart and
// returned first, slots walked from the top down). Matching it makes HASH files byte-identical to
// Java's for the same keys in the same order.
type intSet struct {
	slots   []int32 // len n; 0 = empty
	mask    int32
	size    int // including the zero key
	hasZero bool
	maxFill int
}

const loadFactor float32 = 0.75

// newIntSet returns a set sized for expected elements (fastutil: arraySize(expected, 0.75)).
func newIntSet(expected int) *intSet {
	n := arraySize(expected)
	return &intSet{slots: make([]int32, n), mask: int32(n - 1), maxFill: maxFill(n)}
}

// arraySize is fastutil HashCommon.arraySize: the next power of two of ceil(expected / 0.75f), at least 2.
func arraySize(expected int) int {
	need := int64(math.Ceil(float64(float32(expected) / loadFactor)))
	s := int64(1)
	for s < need {
		s <<= 1
	}
	return int(max(2, s))
}

// maxFill is fastutil HashCommon.maxFill: min(ceil(n * 0.75f), n - 1).
func maxFill(n int) int {
	return min(int(math.Ceil(float64(float32(n)*loadFactor))), n-1)
}

func mix(x int32) int32 {
	h := uint32(x) * 0x9E3779B9
	return int32(h ^ (h >> 16))
}

// add inserts v and reports whether it was absent.
func (s *intSet) add(v int32) bool {
	if v == 0 {
		if s.hasZero {
			return false
		}
		s.hasZero = true
	} else {
		pos := mix(v) & s.mask
		for s.slots[pos] != 0 {
			if s.slots[pos] == v {
				return false
			}
			pos = (pos + 1) & s.mask
		}
		s.slots[pos] = v
	}
	s.size++
	if s.size-1 >= s.maxFill {
		s.rehash(arraySize(s.size + 1))
	}
	return true
}

// rehash moves the elements into a table of n slots, visiting old slots from the top down as fastutil does.
func (s *intSet) rehash(n int) {
	mask := int32(n - 1)
	slots := make([]int32, n)
	for i := len(s.slots) - 1; i >= 0; i-- {
		v := s.slots[i]
		if v == 0 {
			continue
		}
		pos := mix(v) & mask
		for slots[pos] != 0 {
			pos = (pos + 1) & mask
		}
		slots[pos] = v
	}
	s.slots, s.mask, s.maxFill = slots, mask, maxFill(n)
}

// values returns the elements in fastutil iteration order.
func (s *intSet) values() []int32 {
	out := make([]int32, 0, s.size)
	if s.hasZero {
		out = append(out, 0)
	}
	for i := len(s.slots) - 1; i >= 0; i-- {
		if v := s.slots[i]; v != 0 {
			out = append(out, v)
		}
	}
	return out
}

// contains reports whether v is in the set.
func (s *intSet) contains(v int32) bool {
	if v == 0 {
		return s.hasZero
	}
	pos := mix(v) & s.mask
	for s.slots[pos] != 0 {
		if s.slots[pos] == v {
			return true
		}
		pos = (pos + 1) & s.mask
	}
	return false
}
