package compact

import (
	"sort"

	"github.com/lakeload/lakeload/paimon/spec/manifest"
)

// SortedRun is the files of one sorted run of a bucket: one level-0 file, or all files of a level ≥ 1
// (Java LevelSortedRun).
type SortedRun struct {
	Level int32
	Files []manifest.DataFileMeta
}

// Size is the total size of the run's files in bytes.
func (r SortedRun) Size() int64 {
	var n int64
	for _, f := range r.Files {
		n += f.FileSize
	}
	return n
}

// Unit is a compaction unit: the runs to merge and the level their output goes to.
type Unit struct {
	OutputLevel int32
	Runs        []SortedRun
}

// Files returns the unit's input files.
func (u Unit) Files() []manifest.DataFileMeta {
	var out []manifest.DataFileMeta
	for _, r := range u.Runs {
		out = append(out, r.Files...)
	}
	return out
}

// Strategy holds the universal-compaction parameters (Java UniversalCompaction).
type Strategy struct {
	NumLevels      int // num-levels; max level = NumLevels-1
	Trigger        int // num-sorted-run.compaction-trigger
	StopTrigger    int // num-sorted-run.stop-trigger (default Trigger+3): writers wait for compaction above it
	MaxSizeAmp     int // compaction.max-size-amplification-percent
	SizeRatio      int // compaction.size-ratio
	AppendMinFiles int // compaction.min.file-num (append tables)
}

// SortedRuns orders a bucket's files as Java's Levels does: every level-0 file is a run of its own,
// newest first (max sequence number descending, then min sequence number, creation time, file name),
// followed by one run per non-empty level ≥ 1 in ascending level, files in key order as given by less.
func SortedRuns(files []manifest.DataFileMeta, keyLess func(a, b manifest.DataFileMeta) bool) []SortedRun {
	var l0 []manifest.DataFileMeta
	byLevel := map[int32][]manifest.DataFileMeta{}
	var levels []int32
	for _, f := range files {
		if f.Level == 0 {
			l0 = append(l0, f)
			continue
		}
		if _, ok := byLevel[f.Level]; !ok {
			levels = append(levels, f.Level)
		}
		byLevel[f.Level] = append(byLevel[f.Level], f)
	}
	sort.Slice(l0, func(i, j int) bool {
		a, b := l0[i], l0[j]
		if a.MaxSequenceNumber != b.MaxSequenceNumber {
			return a.MaxSequenceNumber > b.MaxSequenceNumber
		}
		if a.MinSequenceNumber != b.MinSequenceNumber {
			return a.MinSequenceNumber < b.MinSequenceNumber
		}
		if a.CreationTimeMillis != b.CreationTimeMillis {
			return a.CreationTimeMillis < b.CreationTimeMillis
		}
		return a.FileName < b.FileName
	})
	runs := make([]SortedRun, 0, len(l0)+len(levels))
	for _, f := range l0 {
		runs = append(runs, SortedRun{Level: 0, Files: []manifest.DataFileMeta{f}})
	}
	sort.Slice(levels, func(i, j int) bool { return levels[i] < levels[j] })
	for _, lv := range levels {
		fs := byLevel[lv]
		if keyLess != nil {
			sort.SliceStable(fs, func(i, j int) bool { return keyLess(fs[i], fs[j]) })
		}
		runs = append(runs, SortedRun{Level: lv, Files: fs})
	}
	return runs
}

// Pick chooses what to compact among runs (ordered as SortedRuns returns them), as Java's
// UniversalCompaction.pick: size amplification, then size ratio, then run count above the trigger.
// Units that would only rewrite one file onto its own level are dropped, as MergeTreeCompactManager does.
func (s Strategy) Pick(runs []SortedRun) (Unit, bool) {
	u, ok := s.pick(runs)
	if !ok || len(u.Runs) == 0 {
		return Unit{}, false
	}
	if fs := u.Files(); len(fs) == 1 && fs[0].Level == u.OutputLevel {
		return Unit{}, false
	}
	return u, true
}

func (s Strategy) pick(runs []SortedRun) (Unit, bool) {
	maxLevel := int32(s.NumLevels - 1)
	if u, ok := s.pickForSizeAmp(maxLevel, runs); ok {
		return u, true
	}
	if len(runs) >= s.Trigger {
		if u, ok := s.pickForSizeRatio(maxLevel, runs, 1, false); ok {
			return u, true
		}
	}
	if len(runs) > s.Trigger {
		return s.pickForSizeRatio(maxLevel, runs, len(runs)-s.Trigger+1, false)
	}
	return Unit{}, false
}

// PickFull is Java's CompactStrategy.pickFullCompaction: every run into the highest level, unless the
// bucket already is one run on that level.
func (s Strategy) PickFull(runs []SortedRun) (Unit, bool) {
	maxLevel := int32(s.NumLevels - 1)
	if len(runs) == 0 || (len(runs) == 1 && runs[0].Level == maxLevel) {
		return Unit{}, false
	}
	return Unit{OutputLevel: maxLevel, Runs: runs}, true
}

func (s Strategy) pickForSizeAmp(maxLevel int32, runs []SortedRun) (Unit, bool) {
	if len(runs) < s.Trigger {
		return Unit{}, false
	}
	var candidate int64
	for _, r := range runs[:len(runs)-1] {
		candidate += r.Size()
	}
	earliest := runs[len(runs)-1].Size()
	if candidate*100 > int64(s.MaxSizeAmp)*earliest {
		return Unit{OutputLevel: maxLevel, Runs: runs}, true
	}
	return Unit{}, false
}

func (s Strategy) pickForSizeRatio(maxLevel int32, runs []SortedRun, count int, force bool) (Unit, bool) {
	var candidate int64
	for _, r := range runs[:count] {
		candidate += r.Size()
	}
	triggered := force || count > 1
	for i := count; i < len(runs); i++ {
		next := runs[i]
		if float64(candidate)*(100.0+float64(s.SizeRatio))/100.0 < float64(next.Size()) {
			if !triggered || next.Level > 1 {
				break
			}
		}
		candidate += next.Size()
		count++
		triggered = true
	}
	if !triggered {
		return Unit{}, false
	}
	return createUnit(runs, maxLevel, count), true
}

// createUnit is Java's UniversalCompaction.createUnit: output one level below the next run, never 0.
func createUnit(runs []SortedRun, maxLevel int32, count int) Unit {
	var out int32
	if count == len(runs) {
		out = maxLevel
	} else {
		out = max(0, runs[count].Level-1)
	}
	if out == 0 {
		for i := count; i < len(runs); i++ {
			count++
			if runs[i].Level != 0 {
				out = runs[i].Level
				break
			}
		}
	}
	if count == len(runs) {
		out = maxLevel
	}
	return Unit{OutputLevel: out, Runs: runs[:count]}
}
