package mergetree

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

func fr(id int, lo, hi int32) FileRange {
	return FileRange{ID: id, MinKey: []any{lo}, MaxKey: []any{hi}}
}

// ids renders a partition as file ids: sections → runs → ids.
func ids(p [][][]FileRange) [][][]int {
	out := make([][][]int, len(p))
	for i, sec := range p {
		for _, run := range sec {
			var r []int
			for _, f := range run {
				r = append(r, f.ID)
			}
			out[i] = append(out[i], r)
		}
	}
	return out
}

func TestIntervalPartitionHandComputed(t *testing.T) {
	c := mustConfig(t, nil)
	cases := []struct {
		name  string
		files []FileRange
		want  [][][]int
	}{
		{"empty", nil, [][][]int{}},
		// Java MergeTreeSplitGenerator example: [1,2] [3,4] [5,180] [5,190] [200,600] [210,700].
		{"split generator example",
			[]FileRange{fr(0, 1, 2), fr(1, 3, 4), fr(2, 5, 180), fr(3, 5, 190), fr(4, 200, 600), fr(5, 210, 700)},
			[][][]int{{{0}}, {{1}}, {{2}, {3}}, {{4}, {5}}}},
		// Shared boundary keys overlap (inclusive bounds); disjoint files chain into one run.
		{"touching bounds overlap", []FileRange{fr(0, 1, 5), fr(1, 5, 9)}, [][][]int{{{0}, {1}}}},
		{"chain into runs",
			[]FileRange{fr(0, 1, 10), fr(1, 2, 3), fr(2, 4, 5), fr(3, 11, 20), fr(4, 6, 12)},
			// sorted: [1,10] [2,3] [4,5] [6,12] [11,20]; one section (bound grows to 20)
			// run0 [1,10] [11,20]; run1 [2,3] [4,5] [6,12]
			[][][]int{{{0, 3}, {1, 2, 4}}}},
		{"input order irrelevant", []FileRange{fr(7, 30, 40), fr(8, 0, 9), fr(9, 10, 29)}, [][][]int{{{8}}, {{9}}, {{7}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := ids(IntervalPartition(c, tc.files))
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestIntervalPartitionInvariants(t *testing.T) {
	c := mustConfig(t, nil)
	r := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 500; trial++ {
		n := r.IntN(30)
		files := make([]FileRange, n)
		for i := range files {
			lo := int32(r.IntN(200))
			files[i] = fr(i, lo, lo+int32(r.IntN(40)))
		}
		p := IntervalPartition(c, files)
		var seen []int
		var prevMax []any
		for si, sec := range p {
			var secMin, secMax []any
			for _, run := range sec {
				if len(run) == 0 {
					t.Fatalf("trial %d: empty run", trial)
				}
				for i, f := range run {
					seen = append(seen, f.ID)
					if i > 0 && c.CompareKeys(run[i-1].MaxKey, f.MinKey) >= 0 {
						t.Fatalf("trial %d: files overlap within a run: %v", trial, run)
					}
					if secMin == nil || c.CompareKeys(f.MinKey, secMin) < 0 {
						secMin = f.MinKey
					}
					if secMax == nil || c.CompareKeys(f.MaxKey, secMax) > 0 {
						secMax = f.MaxKey
					}
				}
			}
			if si > 0 && c.CompareKeys(prevMax, secMin) >= 0 {
				t.Fatalf("trial %d: sections overlap or are out of order", trial)
			}
			prevMax = secMax
			// Minimality: the number of runs equals the maximum number of files covering one key.
			depth := 0
			for k := secMin[0].(int32); k <= secMax[0].(int32); k++ {
				d := 0
				for _, run := range sec {
					for _, f := range run {
						if f.MinKey[0].(int32) <= k && k <= f.MaxKey[0].(int32) {
							d++
						}
					}
				}
				depth = max(depth, d)
			}
			if len(sec) != depth {
				t.Fatalf("trial %d: section has %d runs, max overlap depth is %d", trial, len(sec), depth)
			}
		}
		slices.Sort(seen)
		for i := range seen {
			if seen[i] != i {
				t.Fatalf("trial %d: files lost or duplicated: %v", trial, seen)
			}
		}
		if n == 0 && len(seen) != 0 {
			t.Fatal("files from nothing")
		}
	}
}
