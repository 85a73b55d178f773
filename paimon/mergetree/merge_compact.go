package mergetree

// MergeKeepingRetracts is Merge for a compaction whose output is not the bucket's highest level
// (Java MergeTreeCompactRewriter with dropDelete=false): a key whose merged result is a retract
// (-U/-D) is emitted too, so it still shadows the same key in older files of higher levels.
func MergeKeepingRetracts(c *Config, runs []Run, emit func(KeyValue) error) error {
	return mergeRuns(c, runs, false, emit)
}
