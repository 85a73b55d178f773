package compact

import (
	"fmt"
	"strings"
	"time"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// Options select what a compaction does.
type Options struct {
	// Partition, if set, restricts compaction to partitions whose columns have these values, written
	// as in partition directory names (column → value, e.g. {"dt": "2024-01-01"}).
	Partition map[string]string
	// Full compacts every bucket into the highest level (Java full compaction) instead of letting
	// universal compaction decide.
	Full bool
	// CommitUser is the commit user of the COMPACT snapshot; default "lakeload-compact-<uuid>". It must
	// never be a load job's commit user.
	CommitUser string
	// MaxAttempts bounds fresh scans after commit conflicts (default 3).
	MaxAttempts int
	// Now is the clock for file creation times and the snapshot; default time.Now.
	Now func() time.Time
	// BeforeCommit, if set, runs after the outputs are written and before the commit (tests use it to
	// interleave a concurrent writer).
	BeforeCommit func() error
	// Progress, if set, is called with the compaction's progress (see Progress), on Run's goroutine;
	// it must return quickly.
	Progress func(Progress)
}

// StrategyOf reads the universal-compaction options of t with Java's defaults:
// num-sorted-run.compaction-trigger 5, num-levels trigger+1, compaction.max-size-amplification-percent
// 200, compaction.size-ratio 1, compaction.min.file-num 5. A malformed value is an error naming the option.
func StrategyOf(t *table.Table) (Strategy, error) {
	get := func(key string, def int) (int, error) {
		n, err := t.Options.Int(key, def)
		if err != nil || n < 0 {
			v, _ := t.Options.Get(key)
			return 0, fmt.Errorf("table %s: option %s=%q is not a non-negative integer; fix it with ALTER TABLE … SET", t.Path, key, v)
		}
		return n, nil
	}
	var s Strategy
	var err error
	if s.Trigger, err = get(spec.OptNumSortedRunCompactionTrigger, 5); err != nil {
		return s, err
	}
	if s.StopTrigger, err = get(spec.OptNumSortedRunStopTrigger, s.Trigger+3); err != nil {
		return s, err
	}
	if s.NumLevels, err = get(spec.OptNumLevels, s.Trigger+1); err != nil {
		return s, err
	}
	if s.NumLevels < 2 {
		return s, fmt.Errorf("table %s: option num-levels=%d must be at least 2", t.Path, s.NumLevels)
	}
	if s.MaxSizeAmp, err = get(spec.OptCompactionMaxSizeAmplification, 200); err != nil {
		return s, err
	}
	if s.SizeRatio, err = get(spec.OptCompactionSizeRatio, 1); err != nil {
		return s, err
	}
	if s.AppendMinFiles, err = get(spec.OptCompactionMinFileNum, 5); err != nil {
		return s, err
	}
	return s, nil
}

// partitionFilter returns a filter over partition values (partition-key order) accepting the
// partitions named by want, or nil when want is empty.
func partitionFilter(t *table.Table, want map[string]string) (func([]any) bool, error) {
	if len(want) == 0 {
		return nil, nil
	}
	fields := t.PartitionFields()
	wanted := make([]string, len(fields))
	have := map[string]bool{}
	for i, f := range fields {
		if v, ok := want[f.Name]; ok {
			wanted[i] = spec.EscapePathName(f.Name) + "=" + spec.EscapePathName(v)
			have[f.Name] = true
		}
	}
	for k := range want {
		if !have[k] {
			names := make([]string, len(fields))
			for i, f := range fields {
				names[i] = f.Name
			}
			return nil, fmt.Errorf("partition filter names column %q, which is not a partition key of %s (partition keys: %s)", k, t.Path, strings.Join(names, ", "))
		}
	}
	def, legacy := t.Options.PartitionDefaultName(), t.Options.PartitionLegacyName()
	return func(values []any) bool {
		p, err := spec.PartitionPath(fields, values, def, legacy)
		if err != nil {
			return false
		}
		segs := strings.Split(strings.TrimSuffix(p, "/"), "/")
		for i, w := range wanted {
			if w != "" && (i >= len(segs) || segs[i] != w) {
				return false
			}
		}
		return true
	}, nil
}
