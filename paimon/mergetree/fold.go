package mergetree

import "slices"

// Fold is the writer-side fold of a write buffer (Java MergeTreeWriter flush through
// SortBufferWriteBuffer.forEach): records, in arrival order, are sorted by key then Config.Less
// and each key is folded with the merge function. The output is sorted by key with at most one
// record per key; keys whose fold yields no row (e.g. only retracts under ignore-delete) are
// omitted, while retract results (a trailing -D under deduplicate) are kept so they shadow
// older files. records is not modified.
func Fold(c *Config, records []KeyValue) ([]KeyValue, error) {
	sorted := slices.Clone(records)
	slices.SortStableFunc(sorted, c.compareRecords)
	out := make([]KeyValue, 0, len(sorted))
	mf := c.NewMergeFunction()
	for i := 0; i < len(sorted); {
		mf.Reset()
		j := i
		for ; j < len(sorted) && compareRows(sorted[j].Key, sorted[i].Key) == 0; j++ {
			if err := mf.Add(sorted[j]); err != nil {
				return nil, err
			}
		}
		if kv, ok := mf.Result(); ok {
			out = append(out, kv)
		}
		i = j
	}
	return out, nil
}
