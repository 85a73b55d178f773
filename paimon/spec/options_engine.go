package spec

import (
	"fmt"
	"strings"
	"time"
)

// Option keys of merging, writing, compaction, dynamic buckets and expiry (Java CoreOptions). Their
// accessors return the parse error, so the package that applies an option refuses a malformed
// value with its own advice.
const (
	OptSequenceFieldSortOrder            = "sequence.field.sort-order"
	OptSequenceSnapshotOrdering          = "sequence.snapshot-ordering"
	OptAggregationRemoveRecordOnDelete   = "aggregation.remove-record-on-delete"
	OptPartialUpdateRemoveRecordOnDelete = "partial-update.remove-record-on-delete"
	OptPartialUpdateRemoveOnSeqGroup     = "partial-update.remove-record-on-sequence-group"
	OptIgnoreUpdateBefore                = "ignore-update-before"
	OptRowKindField                      = "rowkind.field"
	OptWriteBufferSize                   = "write-buffer-size"
	OptManifestFormat                    = "manifest.format"
	OptBucketFunctionType                = "bucket-function.type"
	OptRowTrackingEnabled                = "row-tracking.enabled"
	OptDataEvolutionEnabled              = "data-evolution.enabled"
	OptDeletionVectorsMergeOnRead        = "deletion-vectors.merge-on-read"
	OptAddColumnBeforePartition          = "add-column-before-partition"
	OptDataFileExternalPaths             = "data-file.external-paths"
	OptDynamicBucketTargetRowNum         = "dynamic-bucket.target-row-num"
	OptDynamicBucketMaxBuckets           = "dynamic-bucket.max-buckets"
	OptNumSortedRunCompactionTrigger     = "num-sorted-run.compaction-trigger"
	OptNumSortedRunStopTrigger           = "num-sorted-run.stop-trigger"
	OptNumLevels                         = "num-levels"
	OptCompactionMaxSizeAmplification    = "compaction.max-size-amplification-percent"
	OptCompactionSizeRatio               = "compaction.size-ratio"
	OptCompactionMinFileNum              = "compaction.min.file-num"
	OptSnapshotExpireLimit               = "snapshot.expire.limit"
	OptConsumerExpirationTime            = "consumer.expiration-time"
	OptConsumerChangelogOnly             = "consumer.changelog-only"
	OptChangelogNumRetainedMin           = "changelog.num-retained.min"
	OptChangelogNumRetainedMax           = "changelog.num-retained.max"
	OptChangelogTimeRetained             = "changelog.time-retained"
)

// FieldOptKey builds the per-column option key "fields.<column>.<suffix>" (e.g. aggregate-function).
func FieldOptKey(column, suffix string) string { return "fields." + column + "." + suffix }

// SequenceFieldDescending is "sequence.field.sort-order" (ascending, the default, or descending,
// in any case); another value is an error.
func (o CoreOptions) SequenceFieldDescending() (bool, error) {
	v, ok := o.m[OptSequenceFieldSortOrder]
	if !ok {
		return false, nil
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "ascending":
		return false, nil
	case "descending":
		return true, nil
	}
	return false, fmt.Errorf("option %q: unknown sort order %q", OptSequenceFieldSortOrder, v)
}

// IgnoreUpdateBefore is "ignore-update-before" (default false).
func (o CoreOptions) IgnoreUpdateBefore() (bool, error) { return o.Bool(OptIgnoreUpdateBefore, false) }

// RowKindField is "rowkind.field", the column holding each row's kind ("" when unset or empty).
func (o CoreOptions) RowKindField() string { return o.str(OptRowKindField, "") }

// WriteBufferSize is "write-buffer-size" in bytes (default 256 mb).
func (o CoreOptions) WriteBufferSize() (int64, error) {
	return o.MemorySize(OptWriteBufferSize, 256<<20)
}

// ManifestFormat is "manifest.format" as set (default "avro"); compare it case-insensitively.
func (o CoreOptions) ManifestFormat() string { return o.str(OptManifestFormat, "avro") }

// BucketFunctionType is "bucket-function.type" as set (default "default"); compare it case-insensitively.
func (o CoreOptions) BucketFunctionType() string { return o.str(OptBucketFunctionType, "default") }

// DataFileExternalPaths is "data-file.external-paths" split on commas, each root trimmed, blanks
// dropped (nil when unset).
func (o CoreOptions) DataFileExternalPaths() []string {
	var out []string
	for _, r := range strings.Split(o.str(OptDataFileExternalPaths, ""), ",") {
		if r = strings.TrimSpace(r); r != "" {
			out = append(out, r)
		}
	}
	return out
}

// RowTrackingEnabled is "row-tracking.enabled" (default false).
func (o CoreOptions) RowTrackingEnabled() (bool, error) { return o.Bool(OptRowTrackingEnabled, false) }

// DataEvolutionEnabled is "data-evolution.enabled" (default false).
func (o CoreOptions) DataEvolutionEnabled() (bool, error) {
	return o.Bool(OptDataEvolutionEnabled, false)
}

// DeletionVectorsMergeOnRead is "deletion-vectors.merge-on-read" (default false).
func (o CoreOptions) DeletionVectorsMergeOnRead() (bool, error) {
	return o.Bool(OptDeletionVectorsMergeOnRead, false)
}

// AddColumnBeforePartition is "add-column-before-partition" (default false).
func (o CoreOptions) AddColumnBeforePartition() (bool, error) {
	return o.Bool(OptAddColumnBeforePartition, false)
}

// DynamicBucketTargetRowNum is "dynamic-bucket.target-row-num" (default 2,000,000).
func (o CoreOptions) DynamicBucketTargetRowNum() (int64, error) {
	return o.Int64(OptDynamicBucketTargetRowNum, 2_000_000)
}

// DynamicBucketMaxBuckets is "dynamic-bucket.max-buckets" (default -1: unbounded).
func (o CoreOptions) DynamicBucketMaxBuckets() (int, error) {
	return o.Int(OptDynamicBucketMaxBuckets, -1)
}

// NumSortedRunCompactionTrigger is "num-sorted-run.compaction-trigger" (default 5).
func (o CoreOptions) NumSortedRunCompactionTrigger() (int, error) {
	return o.Int(OptNumSortedRunCompactionTrigger, 5)
}

// SnapshotExpireLimit is "snapshot.expire.limit" (default 50).
func (o CoreOptions) SnapshotExpireLimit() (int, error) { return o.Int(OptSnapshotExpireLimit, 50) }

// ConsumerExpirationTime is "consumer.expiration-time" (no default: 0, consumers never expire).
func (o CoreOptions) ConsumerExpirationTime() (time.Duration, error) {
	return o.Duration(OptConsumerExpirationTime, 0)
}

// ConsumerChangelogOnly is "consumer.changelog-only" (default false).
func (o CoreOptions) ConsumerChangelogOnly() (bool, error) {
	return o.Bool(OptConsumerChangelogOnly, false)
}
