package spec

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Option keys read by CoreOptions (Java api/CoreOptions.java).
const (
	OptBucket                     = "bucket"
	OptBucketKey                  = "bucket-key"
	OptMergeEngine                = "merge-engine"
	OptSequenceField              = "sequence.field"
	OptFileFormat                 = "file.format"
	OptFileCompression            = "file.compression"
	OptZstdLevel                  = "file.compression.zstd-level"
	OptTargetFileSize             = "target-file-size"
	OptManifestTargetFileSize     = "manifest.target-file-size"
	OptManifestMergeMinCount      = "manifest.merge-min-count"
	OptManifestFullCompactionSize = "manifest.full-compaction-threshold-size"
	OptDeletionVectorsEnabled     = "deletion-vectors.enabled"
	OptPartitionDefaultName       = "partition.default-name"
	OptPartitionLegacyName        = "partition.legacy-name"
	OptIgnoreDelete               = "ignore-delete"
	OptFieldsDefaultAggFunc       = "fields.default-aggregate-function"
	OptChangelogProducer          = "changelog-producer"
	OptDataFilePrefix             = "data-file.prefix"
	OptFileSuffixIncludeCompress  = "file.suffix.include.compression"
	OptCommitMaxRetries           = "commit.max-retries"
	OptSnapshotNumRetainedMin     = "snapshot.num-retained.min"
	OptSnapshotNumRetainedMax     = "snapshot.num-retained.max"
	OptSnapshotTimeRetained       = "snapshot.time-retained"
	OptMetadataStatsMode          = "metadata.stats-mode"
)

// IgnoreDeleteFallbackKeys are the older spellings Java 1.x/2.x still accept for ignore-delete, in lookup order.
var IgnoreDeleteFallbackKeys = []string{"first-row.ignore-delete", "deduplicate.ignore-delete", "partial-update.ignore-delete"}

// CoreOptions is a typed read-only view of table options with Java's defaults (paimon-format.md §9).
// Accessors never fail: a malformed value reads as the default. Validate reports malformed values, naming the
// option; NewSchema calls it, and code opening existing tables should too.
type CoreOptions struct{ m map[string]string }

// NewCoreOptions wraps an option map (not copied; CoreOptions never modifies it).
func NewCoreOptions(m map[string]string) CoreOptions { return CoreOptions{m: m} }

// Keys returns the keys of all options, sorted.
func (o CoreOptions) Keys() []string {
	keys := make([]string, 0, len(o.m))
	for k := range o.m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Get returns the raw value of key and whether it is set.
func (o CoreOptions) Get(key string) (string, bool) {
	v, ok := o.m[key]
	return v, ok
}

// Map returns a copy of all options.
func (o CoreOptions) Map() map[string]string {
	c := make(map[string]string, len(o.m))
	for k, v := range o.m {
		c[k] = v
	}
	return c
}

func (o CoreOptions) str(key, def string) string {
	if v, ok := o.m[key]; ok {
		return v
	}
	return def
}

// The parsers below are Java's OptionsUtils rules, the one place lakeload parses a table option's
// value: each returns def when key is unset and, for a malformed value, def and an error naming
// the option and the value. Callers add their own range checks and advice.

// Int parses key as a Java int (32 bits, surrounding blanks ignored).
func (o CoreOptions) Int(key string, def int) (int, error) {
	return parsed(o, key, def, func(v string) (int, error) {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 32)
		if err != nil {
			return 0, fmt.Errorf("%q is not an int", v)
		}
		return int(n), nil
	})
}

// Int64 parses key as a Java long.
func (o CoreOptions) Int64(key string, def int64) (int64, error) {
	return parsed(o, key, def, func(v string) (int64, error) {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%q is not a long", v)
		}
		return n, nil
	})
}

// Bool parses key as a Java boolean: "true" or "false" in any case, nothing else. When key is
// unset the fallback keys are tried in order (Java's FallbackKey); the error names the key read.
func (o CoreOptions) Bool(key string, def bool, fallbacks ...string) (bool, error) {
	v, ok := o.m[key]
	for _, fb := range fallbacks {
		if ok {
			break
		}
		key = fb
		v, ok = o.m[fb]
	}
	if !ok {
		return def, nil
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return def, fmt.Errorf("option %q: %q is not a boolean (true/false)", key, v)
}

// MemorySize parses key as a Java MemorySize ("256 mb") in bytes.
func (o CoreOptions) MemorySize(key string, def int64) (int64, error) {
	return parsed(o, key, def, ParseMemorySize)
}

// Duration parses key as a Java duration ("1 h", "30 min").
func (o CoreOptions) Duration(key string, def time.Duration) (time.Duration, error) {
	return parsed(o, key, def, ParseJavaDuration)
}

// parsed is key's value parsed by parse, def when key is unset; on an error def and the error,
// prefixed with the option's name.
func parsed[T any](o CoreOptions, key string, def T, parse func(string) (T, error)) (T, error) {
	v, ok := o.m[key]
	if !ok {
		return def, nil
	}
	x, err := parse(v)
	if err != nil {
		return def, fmt.Errorf("option %q: %w", key, err)
	}
	return x, nil
}

// Bucket is "bucket" (default -1: dynamic bucket for PK tables, unaware for append tables).
func (o CoreOptions) Bucket() int { return val(o.Int(OptBucket, -1)) }

// BucketKey is "bucket-key" split on commas exactly as Java does (no trimming); nil when unset or blank.
func (o CoreOptions) BucketKey() []string {
	v, ok := o.m[OptBucketKey]
	if !ok || isJavaBlank(v) {
		return nil
	}
	return javaSplitComma(v)
}

// MergeEngine is "merge-engine" lower-cased (default "deduplicate").
func (o CoreOptions) MergeEngine() string {
	return strings.ToLower(strings.TrimSpace(o.str(OptMergeEngine, "deduplicate")))
}

// SequenceField is "sequence.field" split on commas with each name trimmed (Java sequenceField); nil if unset.
func (o CoreOptions) SequenceField() []string {
	v, ok := o.m[OptSequenceField]
	if !ok {
		return nil
	}
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// FileFormat is "file.format" lower-cased (default "parquet").
func (o CoreOptions) FileFormat() string {
	return strings.ToLower(strings.TrimSpace(o.str(OptFileFormat, "parquet")))
}

// FileCompression is "file.compression" (default "zstd").
func (o CoreOptions) FileCompression() string { return o.str(OptFileCompression, "zstd") }

// ZstdLevel is "file.compression.zstd-level" (default 1).
func (o CoreOptions) ZstdLevel() int { return val(o.Int(OptZstdLevel, 1)) }

// TargetFileSize is "target-file-size" in bytes (default 128 MB for PK tables, 256 MB for append tables).
func (o CoreOptions) TargetFileSize(hasPK bool) int64 {
	def := int64(256 << 20)
	if hasPK {
		def = 128 << 20
	}
	return val(o.MemorySize(OptTargetFileSize, def))
}

// ManifestTargetFileSize is "manifest.target-file-size" in bytes (default 8 MB).
func (o CoreOptions) ManifestTargetFileSize() int64 {
	return val(o.MemorySize(OptManifestTargetFileSize, 8<<20))
}

// ManifestMergeMinCount is "manifest.merge-min-count" (default 30).
func (o CoreOptions) ManifestMergeMinCount() int { return val(o.Int(OptManifestMergeMinCount, 30)) }

// ManifestFullCompactionThresholdSize is "manifest.full-compaction-threshold-size" in bytes (default 16 MB).
func (o CoreOptions) ManifestFullCompactionThresholdSize() int64 {
	return val(o.MemorySize(OptManifestFullCompactionSize, 16<<20))
}

// DeletionVectorsEnabled is "deletion-vectors.enabled" (default false).
func (o CoreOptions) DeletionVectorsEnabled() bool {
	return val(o.Bool(OptDeletionVectorsEnabled, false))
}

// PartitionDefaultName is "partition.default-name" (default "__DEFAULT_PARTITION__").
func (o CoreOptions) PartitionDefaultName() string {
	return o.str(OptPartitionDefaultName, "__DEFAULT_PARTITION__")
}

// PartitionLegacyName is "partition.legacy-name" (default true).
func (o CoreOptions) PartitionLegacyName() bool { return val(o.Bool(OptPartitionLegacyName, true)) }

// IgnoreDelete is "ignore-delete", falling back to "first-row.ignore-delete", "deduplicate.ignore-delete" and
// "partial-update.ignore-delete" as Java does (default false).
func (o CoreOptions) IgnoreDelete() bool { return val(o.ignoreDelete()) }

func (o CoreOptions) ignoreDelete() (bool, error) {
	return o.Bool(OptIgnoreDelete, false, IgnoreDeleteFallbackKeys...)
}

// FieldAggregateFunction is "fields.<col>.aggregate-function" ("" if unset).
func (o CoreOptions) FieldAggregateFunction(col string) string {
	return o.str("fields."+col+".aggregate-function", "")
}

// FieldsDefaultAggregateFunction is "fields.default-aggregate-function" ("" if unset).
func (o CoreOptions) FieldsDefaultAggregateFunction() string {
	return o.str(OptFieldsDefaultAggFunc, "")
}

// FieldIgnoreRetract is "fields.<col>.ignore-retract" (default false).
func (o CoreOptions) FieldIgnoreRetract(col string) bool {
	return val(o.Bool("fields."+col+".ignore-retract", false))
}

// ChangelogProducer is "changelog-producer" lower-cased (default "none").
func (o CoreOptions) ChangelogProducer() string {
	return strings.ToLower(strings.TrimSpace(o.str(OptChangelogProducer, "none")))
}

// DataFilePrefix is "data-file.prefix" (default "data-").
func (o CoreOptions) DataFilePrefix() string { return o.str(OptDataFilePrefix, "data-") }

// FileSuffixIncludeCompression is "file.suffix.include.compression" (default false).
func (o CoreOptions) FileSuffixIncludeCompression() bool {
	return val(o.Bool(OptFileSuffixIncludeCompress, false))
}

// CommitMaxRetries is "commit.max-retries" (default 10).
func (o CoreOptions) CommitMaxRetries() int { return val(o.Int(OptCommitMaxRetries, 10)) }

// SnapshotNumRetainedMin is "snapshot.num-retained.min" (default 10).
func (o CoreOptions) SnapshotNumRetainedMin() int {
	return val(o.Int(OptSnapshotNumRetainedMin, 10))
}

// SnapshotNumRetainedMax is "snapshot.num-retained.max" (default Integer.MAX_VALUE).
func (o CoreOptions) SnapshotNumRetainedMax() int {
	return val(o.Int(OptSnapshotNumRetainedMax, math.MaxInt32))
}

// SnapshotTimeRetained is "snapshot.time-retained" (default 1 h).
func (o CoreOptions) SnapshotTimeRetained() time.Duration {
	return val(o.Duration(OptSnapshotTimeRetained, time.Hour))
}

// MetadataStatsMode is "metadata.stats-mode" (default "truncate(16)").
func (o CoreOptions) MetadataStatsMode() string { return o.str(OptMetadataStatsMode, "truncate(16)") }

// Validate parses every typed option above and returns the first error (in key order), naming the option.
func (o CoreOptions) Validate() error {
	for _, k := range o.Keys() {
		var err error
		switch {
		case k == OptBucket || k == OptZstdLevel || k == OptManifestMergeMinCount || k == OptCommitMaxRetries ||
			k == OptSnapshotNumRetainedMin || k == OptSnapshotNumRetainedMax:
			_, err = o.Int(k, 0)
		case k == OptTargetFileSize || k == OptManifestTargetFileSize || k == OptManifestFullCompactionSize:
			_, err = o.MemorySize(k, 0)
		case k == OptDeletionVectorsEnabled || k == OptPartitionLegacyName || k == OptFileSuffixIncludeCompress ||
			k == OptIgnoreDelete || contains(IgnoreDeleteFallbackKeys, k) ||
			(strings.HasPrefix(k, "fields.") && strings.HasSuffix(k, ".ignore-retract")):
			_, err = o.Bool(k, false)
		case k == OptSnapshotTimeRetained:
			_, err = o.Duration(k, 0)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// val drops the error of a (value, error) pair; the value is already the default when the error is set.
func val[T any](v T, _ error) T { return v }

// javaSplitComma mimics Java String.split(","): trailing empty strings are dropped.
func javaSplitComma(s string) []string {
	parts := strings.Split(s, ",")
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}
