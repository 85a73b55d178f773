package compact

import (
	"slices"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec/manifest"
)

// The vectors below are the scenarios of Java's UniversalCompactionTest (paimon-core), expressed with
// Strategy; Java's constructor order is (maxSizeAmp, sizeRatio, trigger).

func uc(amp, ratio, trigger int) Strategy {
	return Strategy{MaxSizeAmp: amp, SizeRatio: ratio, Trigger: trigger}
}

func run(level int32, size int64) SortedRun {
	return SortedRun{Level: level, Files: []manifest.DataFileMeta{{FileSize: size, Level: level}}}
}

func level0(sizes ...int64) []SortedRun {
	var out []SortedRun
	for _, s := range sizes {
		out = append(out, run(0, s))
	}
	return out
}

func sizes(u Unit) []int64 {
	var out []int64
	for _, f := range u.Files() {
		out = append(out, f.FileSize)
	}
	return out
}

func withLevels(s Strategy, n int) Strategy { s.NumLevels = n; return s }

func TestCreateUnitOutputLevel(t *testing.T) {
	runs := []SortedRun{run(0, 1), run(0, 1), run(1, 1), run(3, 1), run(4, 1)}
	for count, want := range map[int]int32{1: 1, 2: 1, 3: 2, 4: 3, 5: 5} {
		if got := createUnit(runs, 5, count).OutputLevel; got != want {
			t.Errorf("createUnit(count %d).OutputLevel = %d, want %d", count, got, want)
		}
	}
}

func TestPickLikeJava(t *testing.T) {
	cases := []struct {
		name   string
		s      Strategy
		runs   []SortedRun
		want   []int64
		output int32
	}{
		{"size amplification", withLevels(uc(25, 1, 3), 3), level0(1, 2, 3, 3), []int64{1, 2, 3, 3}, 2},
		{"size ratio", withLevels(uc(25, 1, 3), 4), []SortedRun{run(0, 1), run(1, 1), run(2, 1), run(3, 50)}, []int64{1, 1, 1}, 2},
		{"file num", withLevels(uc(25, 1, 3), 4), []SortedRun{run(0, 1), run(1, 2), run(2, 3), run(3, 50)}, []int64{1, 2, 3}, 2},
		{"no output level 0", withLevels(uc(25, 1, 3), 3), []SortedRun{run(0, 1), run(0, 1), run(1, 1), run(2, 50)}, []int64{1, 1, 1}, 1},
		{"no output level 0 by file num", withLevels(uc(25, 1, 3), 3), []SortedRun{run(0, 1), run(0, 2), run(1, 3), run(2, 50)}, []int64{1, 2, 3}, 1},
		{"extreme: all level 0", withLevels(uc(200, 1, 5), 6), level0(1, 1, 1, 1024, 1024*1024), []int64{1, 1, 1, 1024, 1024 * 1024}, 5},
	}
	for _, c := range cases {
		u, ok := c.s.Pick(c.runs)
		if !ok {
			t.Errorf("%s: nothing picked, want %v", c.name, c.want)
			continue
		}
		if got := sizes(u); !slices.Equal(got, c.want) || u.OutputLevel != c.output {
			t.Errorf("%s: picked %v to level %d, want %v to level %d", c.name, got, u.OutputLevel, c.want, c.output)
		}
	}
	// Below the trigger nothing is picked.
	if u, ok := withLevels(uc(200, 1, 5), 6).Pick(level0(1, 1, 1, 1)); ok {
		t.Errorf("4 runs under trigger 5: picked %v", sizes(u))
	}
}

// TestSizeAmplificationSequence replays Java's testSizeAmplification: add a run of size 1 at the
// front and compact when size amplification says so.
func TestSizeAmplificationSequence(t *testing.T) {
	s := uc(25, 0, 1)
	want := [][]int64{{2}, {3}, {4}, {1, 4}, {6}, {1, 6}, {8}, {1, 8}, {1, 1, 8}, {11}, {1, 11}, {1, 1, 11}, {14}, {1, 14}, {1, 1, 14}, {1, 1, 1, 14}, {18}}
	cur := []int64{1}
	for i, w := range want {
		cur = append([]int64{1}, cur...)
		if u, ok := s.pickForSizeAmp(2, level0(cur...)); ok {
			var sum int64
			for _, x := range sizes(u) {
				sum += x
			}
			cur = []int64{sum}
		}
		if !slices.Equal(cur, w) {
			t.Fatalf("step %d: %v, want %v", i, cur, w)
		}
	}
}

// pickSizeRatio is Java's test helper: runs at levels 0..n-1, the picked ones replaced by their sum in front.
func pickSizeRatio(s Strategy, cur []int64) []int64 {
	runs := make([]SortedRun, len(cur))
	for i, x := range cur {
		runs[i] = run(int32(i), x)
	}
	if len(runs) < s.Trigger {
		return cur
	}
	u, ok := s.pickForSizeRatio(int32(len(cur)), runs, 1, false)
	if !ok {
		return cur
	}
	var sum int64
	rest := slices.Clone(cur)
	for _, x := range sizes(u) {
		sum += x
		rest = slices.Delete(rest, slices.Index(rest, x), slices.Index(rest, x)+1)
	}
	return append([]int64{sum}, rest...)
}

func TestSizeRatioSequence(t *testing.T) {
	s := uc(25, 1, 5)
	want := [][]int64{{5}, {1, 5}, {1, 1, 5}, {1, 1, 1, 5}, {4, 5}, {1, 4, 5}, {1, 1, 4, 5}, {3, 4, 5}, {1, 3, 4, 5}, {2, 3, 4, 5},
		{1, 2, 3, 4, 5}, {16}, {1, 16}, {1, 1, 16}, {1, 1, 1, 16}, {4, 16}, {1, 4, 16}, {1, 1, 4, 16}, {3, 4, 16}, {1, 3, 4, 16},
		{2, 3, 4, 16}, {1, 2, 3, 4, 16}, {11, 16}}
	cur := []int64{1, 1, 1, 1}
	for i, w := range want {
		cur = pickSizeRatio(s, append([]int64{1}, cur...))
		if !slices.Equal(cur, w) {
			t.Fatalf("step %d: %v, want %v", i, cur, w)
		}
	}
	if got := pickSizeRatio(uc(25, 10, 2), []int64{8, 9, 10}); !slices.Equal(got, []int64{8, 9, 10}) {
		t.Errorf("ratio 10: %v", got)
	}
	if got := pickSizeRatio(uc(25, 20, 2), []int64{8, 9, 10}); !slices.Equal(got, []int64{27}) {
		t.Errorf("ratio 20: %v", got)
	}
}

func TestSortedRunsOrderLevel0NewestFirst(t *testing.T) {
	files := []manifest.DataFileMeta{
		{FileName: "a", Level: 0, MinSequenceNumber: 0, MaxSequenceNumber: 5},
		{FileName: "b", Level: 2, MinKey: []byte{2}},
		{FileName: "c", Level: 0, MinSequenceNumber: 6, MaxSequenceNumber: 9},
		{FileName: "d", Level: 2, MinKey: []byte{1}},
		{FileName: "e", Level: 1},
	}
	less := func(a, b manifest.DataFileMeta) bool { return a.MinKey[0] < b.MinKey[0] }
	runs := SortedRuns(files, less)
	var got []string
	for _, r := range runs {
		for _, f := range r.Files {
			got = append(got, f.FileName)
		}
		got = append(got, "|")
	}
	want := []string{"c", "|", "a", "|", "e", "|", "d", "b", "|"}
	if !slices.Equal(got, want) {
		t.Errorf("runs %v, want %v", got, want)
	}
}

func TestPickFull(t *testing.T) {
	s := Strategy{NumLevels: 6, Trigger: 5, MaxSizeAmp: 200, SizeRatio: 1}
	if _, ok := s.PickFull([]SortedRun{run(5, 10)}); ok {
		t.Error("a bucket that is one run on the max level was picked")
	}
	u, ok := s.PickFull([]SortedRun{run(0, 1), run(5, 10)})
	if !ok || u.OutputLevel != 5 || len(u.Files()) != 2 {
		t.Errorf("full pick = %+v, %v", u, ok)
	}
	// A single file already on its output level is not rewritten.
	if _, ok := s.Pick([]SortedRun{run(5, 1)}); ok {
		t.Error("single max-level run picked")
	}
}
