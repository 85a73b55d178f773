package write

import (
	"fmt"
	"sort"
	"strings"
)

// OptionClass says what lakeload does with a table option when it writes to the table.
type OptionClass int

// The classes of table options (docs/table-options.md).
const (
	// Honoured options change what lakeload writes or how it commits, expires or compacts, as Java does.
	Honoured OptionClass = iota + 1
	// Irrelevant options do not change what a writer must put into the table for readers to see
	// the rows Java would: read, scan and streaming options, engine (Flink/Spark) job settings,
	// writer tuning (buffers, spilling, file and page sizes, codecs), and optional read
	// accelerators (file indexes, statistics detail) without which every reader is still exact.
	Irrelevant
	// Refused options have an effect lakeload does not reproduce; a table that sets one to a value
	// other than those listed is not written (exit 4), the error names the option and the advice.
	Refused
)

func (c OptionClass) String() string {
	switch c {
	case Honoured:
		return "honoured"
	case Irrelevant:
		return "irrelevant"
	case Refused:
		return "refused"
	}
	return fmt.Sprintf("OptionClass(%d)", int(c))
}

// optionRule classifies one key of Java's table options, or a family of keys: in a pattern "*"
// stands for one column name or index type and "#" for a callback's name (Java's own notation).
type optionRule struct {
	key   string
	class OptionClass
	// allowed (Refused only) are the values, compared case-insensitively after trimming, that keep
	// the option's effect away (its default and equivalents); nil: any value is refused.
	allowed []string
	why     string // what lakeload does with it; for Refused, the advice
}

// Reasons shared by many rules.
const (
	whyRead       = "read/scan option: applies to readers, not to what is written"
	whyStream     = "streaming or Flink/Spark job option: no effect on the files and snapshots a batch writer produces"
	whyTuning     = "writer tuning (memory, spilling, sizes, threads): no effect on the rows readers see"
	whyCompaction = "compaction tuning: lakeload's compaction picks files by its own honoured options; any file layout reads the same"
	whyMaintain   = "snapshot/partition maintenance setting of Java jobs; no effect on what lakeload writes"
	whyOnlyWith   = "takes effect only together with an option lakeload refuses"
	whyIndex      = "optional read accelerator: files without it are read in full, exactly"
	whyCatalog    = "catalog/table metadata or schema-change behaviour; no effect on data files or snapshots"
)

// tableOptionRules classifies every key of Java Paimon 1.4.2's CoreOptions, IcebergOptions and
// OrcOptions (fallback keys included) and the key families CoreOptions builds from constants.
// TestTableOptionsClassified fails on any key of the Java oracle's jar this table misses, so a new
// Paimon version's options must be classified before they are accepted.
var tableOptionRules = []optionRule{
	// Table kind, layout and paths.
	{key: "type", class: Refused, allowed: []string{"table"}, why: "lakeload writes only plain Paimon tables; format, object, materialized and other table types are not written"},
	{key: "path", class: Irrelevant, why: whyCatalog},
	{key: "branch", class: Refused, allowed: []string{"main"}, why: "lakeload writes the main branch only; write other branches with Java Paimon"},
	{key: "primary-key", class: Honoured, why: "becomes the schema's primary key at table creation"},
	{key: "partition", class: Honoured, why: "becomes the schema's partition keys at table creation"},
	{key: "bucket", class: Honoured, why: "fixed (N > 0) and dynamic (-1) buckets; postpone (-2) refused"},
	{key: "bucket-key", class: Honoured, why: "bucket assignment by Java's hash of these columns"},
	{key: "bucket-append-ordered", class: Irrelevant, why: whyRead},
	{key: "bucket-function.type", class: Honoured, why: "'default' only; other bucket functions are refused"},
	{key: "upsert-key", class: Refused, why: "Java turns INSERT into an upsert by this key on an append table; lakeload only appends, which would duplicate rows; use a primary-key table"},
	{key: "data-file.external-paths", class: Irrelevant, why: "used only when data-file.external-paths.strategy is set, which is refused"},
	{key: "data-file.external-paths.strategy", class: Refused, allowed: []string{"none"}, why: "lakeload writes data files under the table path only, not to external paths; unset the strategy or write with Java Paimon"},
	{key: "data-file.external-paths.specific-fs", class: Irrelevant, why: whyOnlyWith},
	{key: "data-file.external-paths.weights", class: Irrelevant, why: whyOnlyWith},
	{key: "data-file.path-directory", class: Refused, why: "Java reads data files from this subdirectory of the table, lakeload writes them directly under the table (partition/bucket); unset it"},
	{key: "data-file.prefix", class: Honoured, why: "data file names"},
	{key: "data-file.thin-mode", class: Refused, allowed: []string{"false"}, why: "thin-mode files leave out the key columns, lakeload writes them; unset the option"},
	{key: "index-file-in-data-file-dir", class: Refused, allowed: []string{"false"}, why: "lakeload writes index files (HASH, deletion vectors) into index/, Java would look for them in the data directories; unset the option"},
	{key: "chain-table.enabled", class: Refused, allowed: []string{"false"}, why: "chain tables are written by Java Paimon only"},
	{key: "chain-table.chain-partition-keys", class: Irrelevant, why: whyOnlyWith},
	{key: "scan.fallback-snapshot-branch", class: Irrelevant, why: whyRead},
	{key: "scan.fallback-delta-branch", class: Irrelevant, why: whyRead},
	{key: "scan.fallback-branch", class: Irrelevant, why: whyRead},
	{key: "scan.primary-branch", class: Irrelevant, why: whyRead},

	// File formats and codecs.
	{key: "file.format", class: Honoured, why: "lakeload writes parquet; tables of other formats are read, not written"},
	{key: "file.format.per.level", class: Irrelevant, why: "lakeload writes parquet at every level; readers pick each file's format by its extension, so any mix reads the same"},
	{key: "file.compression", class: Honoured, why: "the Parquet codec"},
	{key: "file.compression.zstd-level", class: Honoured, why: "the zstd level"},
	{key: "file.compression.per.level", class: Irrelevant, why: "codec choice per level; every reader reads any codec"},
	{key: "file.suffix.include.compression", class: Honoured, why: "data file names"},
	{key: "file.block-size", class: Irrelevant, why: whyTuning},
	{key: "parquet.enable.dictionary", class: Irrelevant, why: whyTuning},
	{key: "parquet.*", class: Irrelevant, why: "Parquet writer tuning passed to Java's format writer; lakeload's files read the same in every reader"},
	{key: "orc.*", class: Irrelevant, why: "ORC writer settings; lakeload writes parquet only"},
	{key: "avro.*", class: Irrelevant, why: "Avro writer settings; lakeload writes parquet data files"},
	{key: "orc.column.encoding.direct", class: Irrelevant, why: "ORC writer settings; lakeload writes parquet only"},
	{key: "orc.dictionary.key.threshold", class: Irrelevant, why: "ORC writer settings; lakeload writes parquet only"},
	{key: "orc.timestamp-ltz.legacy.type", class: Irrelevant, why: "ORC writer settings; lakeload writes parquet only"},
	{key: "orc.write.batch-size", class: Irrelevant, why: whyTuning},
	{key: "write.batch-size", class: Irrelevant, why: whyTuning},
	{key: "write.batch-memory", class: Irrelevant, why: whyTuning},
	{key: "read.batch-size", class: Irrelevant, why: whyRead},
	{key: "variant.shreddingSchema", class: Refused, why: "lakeload does not write shredded VARIANT columns; unset it"},
	{key: "parquet.variant.shreddingSchema", class: Refused, why: "lakeload does not write shredded VARIANT columns; unset it"},
	{key: "variant.inferShreddingSchema", class: Refused, allowed: []string{"false"}, why: "lakeload does not write shredded VARIANT columns; unset it"},
	{key: "variant.shredding.maxSchemaWidth", class: Irrelevant, why: whyOnlyWith},
	{key: "variant.shredding.maxSchemaDepth", class: Irrelevant, why: whyOnlyWith},
	{key: "variant.shredding.minFieldCardinalityRatio", class: Irrelevant, why: whyOnlyWith},
	{key: "variant.shredding.maxInferBufferRow", class: Irrelevant, why: whyOnlyWith},
	{key: "changelog-file.prefix", class: Irrelevant, why: "lakeload writes no changelog files (Java's compactions do)"},
	{key: "changelog-file.format", class: Irrelevant, why: "lakeload writes no changelog files (Java's compactions do)"},
	{key: "changelog-file.compression", class: Irrelevant, why: "lakeload writes no changelog files (Java's compactions do)"},
	{key: "changelog-file.stats-mode", class: Irrelevant, why: "lakeload writes no changelog files (Java's compactions do)"},

	// Manifests and statistics.
	{key: "manifest.format", class: Honoured, why: "'avro' only (ORC manifests are read, not written)"},
	{key: "manifest.compression", class: Irrelevant, why: "lakeload writes zstandard Avro manifests; every reader reads any Avro codec"},
	{key: "manifest.target-file-size", class: Honoured, why: "manifest rolling"},
	{key: "manifest.full-compaction-threshold-size", class: Honoured, why: "manifest full compaction"},
	{key: "manifest.merge-min-count", class: Honoured, why: "manifest merging"},
	{key: "manifest.delete-file-drop-stats", class: Irrelevant, why: whyIndex},
	{key: "metadata.stats-mode", class: Irrelevant, why: "lakeload writes truncate(16) statistics (Java's default) for every column: valid bounds for every reader's pruning"},
	{key: "metadata.stats-mode.per.level", class: Irrelevant, why: "lakeload writes truncate(16) statistics (Java's default) for every column: valid bounds for every reader's pruning"},
	{key: "metadata.stats-dense-store", class: Irrelevant, why: "both manifest statistics layouts read the same"},
	{key: "metadata.stats-keep-first-n-columns", class: Irrelevant, why: whyIndex},
	{key: "fields.*.stats-mode", class: Irrelevant, why: "lakeload writes truncate(16) statistics (Java's default) for every column: valid bounds for every reader's pruning"},
	{key: "file-index.in-manifest-threshold", class: Irrelevant, why: whyIndex},
	{key: "file-index.read.enabled", class: Irrelevant, why: whyRead},
	{key: "file-index.*.columns", class: Irrelevant, why: "lakeload writes no file indexes; " + whyIndex},
	{key: "file-index.*.*", class: Irrelevant, why: "lakeload writes no file indexes; " + whyIndex},

	// Merge engines and row semantics.
	{key: "merge-engine", class: Honoured, why: "deduplicate, partial-update, aggregation, first-row"},
	{key: "ignore-delete", class: Honoured, why: "retract rows dropped as Java does"},
	{key: "first-row.ignore-delete", class: Honoured, why: "fallback key of ignore-delete"},
	{key: "deduplicate.ignore-delete", class: Honoured, why: "fallback key of ignore-delete"},
	{key: "partial-update.ignore-delete", class: Honoured, why: "fallback key of ignore-delete"},
	{key: "ignore-update-before", class: Honoured, why: "-U rows dropped as Java does"},
	{key: "sequence.field", class: Honoured, why: "merge order"},
	{key: "sequence.field.sort-order", class: Honoured, why: "merge order"},
	{key: "rowkind.field", class: Honoured, why: "row kinds from a column"},
	{key: "aggregation.remove-record-on-delete", class: Honoured, why: "aggregation semantics"},
	{key: "partial-update.remove-record-on-delete", class: Honoured, why: "partial-update semantics"},
	{key: "partial-update.remove-record-on-sequence-group", class: Refused, why: "sequence groups are not supported; unset it"},
	{key: "fields.default-aggregate-function", class: Honoured, why: "aggregation semantics"},
	{key: "fields.*.aggregate-function", class: Honoured, why: "aggregation semantics (unsupported functions are refused by name)"},
	{key: "fields.*.ignore-retract", class: Honoured, why: "aggregation semantics"},
	{key: "fields.*.distinct", class: Honoured, why: "listagg semantics"},
	{key: "fields.*.list-agg-delimiter", class: Honoured, why: "listagg semantics"},
	{key: "fields.*.sequence-group", class: Refused, why: "sequence groups are not supported; unset it or write with Java Paimon"},
	{key: "fields.*.nested-key", class: Refused, why: "nested_update/nested_partial_update keys are not supported; write with Java Paimon"},
	{key: "fields.*.count-limit", class: Refused, why: "aggregate count limits are not supported; write with Java Paimon"},
	{key: "fields.*.ts-field", class: Refused, why: "merge_map_with_keytime is not supported; write with Java Paimon"},
	{key: "record-level.expire-time", class: Refused, why: "Java drops expired records in its compactions, lakeload's compaction does not; unset it or compact with Java Paimon only"},
	{key: "record-level.time-field", class: Irrelevant, why: whyOnlyWith},
	{key: "pk-clustering-override", class: Refused, allowed: []string{"false"}, why: "data files sorted by clustering columns instead of the primary key are not written; unset it"},
	{key: "deletion-vectors.enabled", class: Honoured, why: "deletion-vector tables are refused unless the caller compacts before publishing"},
	{key: "deletion-vectors.modifiable", class: Irrelevant, why: whyStream},
	{key: "deletion-vectors.bitmap64", class: Irrelevant, why: "Java reads 32- and 64-bit deletion vectors alike"},
	{key: "deletion-vector.index-file.target-size", class: Irrelevant, why: whyTuning},
	{key: "changelog-producer", class: Honoured, why: "none, lookup, full-compaction (Java's compactions write the changelog); input refused"},
	{key: "changelog-producer.row-deduplicate", class: Irrelevant, why: "changelog content of Java's compactions"},
	{key: "changelog-producer.row-deduplicate-ignore-fields", class: Irrelevant, why: "changelog content of Java's compactions"},
	{key: "changelog-producer.lookup-wait", class: Irrelevant, why: whyStream},
	{key: "delete.force-produce-changelog", class: Irrelevant, why: "changelog content of Java's compactions"},
	{key: "row-tracking.enabled", class: Refused, allowed: []string{"false"}, why: "row tracking is not written"},
	{key: "data-evolution.enabled", class: Refused, allowed: []string{"false"}, why: "data evolution is not written"},
	{key: "blob-field", class: Refused, why: "BLOB tables are not written"},
	{key: "blob-descriptor-field", class: Irrelevant, why: whyOnlyWith},
	{key: "blob.stored-descriptor-fields", class: Irrelevant, why: whyOnlyWith},
	{key: "blob-as-descriptor", class: Irrelevant, why: whyOnlyWith},
	{key: "blob-external-storage-path", class: Irrelevant, why: whyOnlyWith},
	{key: "blob-external-storage-field", class: Irrelevant, why: whyOnlyWith},
	{key: "blob.target-file-size", class: Irrelevant, why: whyOnlyWith},
	{key: "blob.split-by-file-size", class: Irrelevant, why: whyOnlyWith},
	{key: "blob-descriptor.*", class: Irrelevant, why: whyOnlyWith},
	{key: "vector-field", class: Refused, why: "vector columns are not written"},
	{key: "vector.file.format", class: Irrelevant, why: whyOnlyWith},
	{key: "vector.target-file-size", class: Irrelevant, why: whyOnlyWith},

	// Writer memory and sizes.
	{key: "write-buffer-size", class: Honoured, why: "the write buffer"},
	{key: "target-file-size", class: Honoured, why: "data file rolling"},
	{key: "write-only", class: Irrelevant, why: "lakeload compacts and expires only when asked (compact/expire commands, --compaction)"},
	{key: "write.compaction-skip", class: Irrelevant, why: "lakeload compacts and expires only when asked (compact/expire commands, --compaction)"},
	{key: "write-buffer-spill.max-disk-size", class: Irrelevant, why: whyTuning},
	{key: "write-buffer-spillable", class: Irrelevant, why: whyTuning},
	{key: "write-buffer-for-append", class: Irrelevant, why: whyTuning},
	{key: "write-max-writers-to-spill", class: Irrelevant, why: whyTuning},
	{key: "local-sort.max-num-file-handles", class: Irrelevant, why: whyTuning},
	{key: "page-size", class: Irrelevant, why: whyTuning},
	{key: "cache-page-size", class: Irrelevant, why: whyTuning},
	{key: "sort-engine", class: Irrelevant, why: whyTuning},
	{key: "sort-spill-threshold", class: Irrelevant, why: whyTuning},
	{key: "sort-spill-buffer-size", class: Irrelevant, why: whyTuning},
	{key: "spill-compression", class: Irrelevant, why: whyTuning},
	{key: "spill-compression.zstd-level", class: Irrelevant, why: whyTuning},
	{key: "async-file-write", class: Irrelevant, why: whyTuning},
	{key: "file-operation.thread-num", class: Irrelevant, why: whyTuning},
	{key: "delete-file.thread-num", class: Irrelevant, why: whyTuning},
	{key: "file-reader-async-threshold", class: Irrelevant, why: whyRead},
	{key: "local-merge-buffer-size", class: Irrelevant, why: whyStream},
	{key: "dynamic-bucket.target-row-num", class: Honoured, why: "dynamic bucket assignment"},
	{key: "dynamic-bucket.max-buckets", class: Honoured, why: "dynamic bucket assignment"},
	{key: "dynamic-bucket.initial-buckets", class: Irrelevant, why: "how Java's assigner spreads new keys; the HASH index keeps every key in one bucket either way"},
	{key: "dynamic-bucket.assigner-parallelism", class: Irrelevant, why: whyStream},
	{key: "cross-partition-upsert.index-ttl", class: Irrelevant, why: whyStream},
	{key: "cross-partition-upsert.bootstrap-parallelism", class: Irrelevant, why: whyStream},
	{key: "postpone.batch-write-fixed-bucket", class: Irrelevant, why: "postpone-bucket tables (bucket=-2) are refused"},
	{key: "postpone.batch-write-fixed-bucket.max-parallelism", class: Irrelevant, why: "postpone-bucket tables (bucket=-2) are refused"},
	{key: "postpone.default-bucket-num", class: Irrelevant, why: "postpone-bucket tables (bucket=-2) are refused"},
	{key: "clustering.columns", class: Irrelevant, why: "file layout of append tables (sorting within files); any order reads the same"},
	{key: "sink.clustering.by-columns", class: Irrelevant, why: "file layout of append tables (sorting within files); any order reads the same"},
	{key: "clustering.strategy", class: Irrelevant, why: "file layout of append tables (sorting within files); any order reads the same"},
	{key: "sink.clustering.strategy", class: Irrelevant, why: "file layout of append tables (sorting within files); any order reads the same"},
	{key: "clustering.incremental", class: Irrelevant, why: whyCompaction},
	{key: "clustering.history-partition.limit", class: Irrelevant, why: whyCompaction},
	{key: "clustering.history-partition.idle-to-full-sort", class: Irrelevant, why: whyCompaction},
	{key: "clustering.incremental.optimize-write", class: Irrelevant, why: whyCompaction},
	{key: "clustering.incremental.mode", class: Irrelevant, why: whyCompaction},
	{key: "zorder.var-length-contribution", class: Irrelevant, why: whyCompaction},
	{key: "sort-compaction.range-strategy", class: Irrelevant, why: whyCompaction},
	{key: "sort-compaction.local-sample.magnification", class: Irrelevant, why: whyCompaction},

	// Commit.
	{key: "commit.max-retries", class: Honoured, why: "commit retries"},
	{key: "commit.timeout", class: Irrelevant, why: whyTuning},
	{key: "commit.min-retry-wait", class: Irrelevant, why: whyTuning},
	{key: "commit.max-retry-wait", class: Irrelevant, why: whyTuning},
	{key: "commit.force-compact", class: Irrelevant, why: "Java compacts at every commit; lakeload compacts when asked; any file layout reads the same"},
	{key: "commit.force-create-snapshot", class: Irrelevant, why: "lakeload commits a snapshot for every window"},
	{key: "commit.user-prefix", class: Irrelevant, why: "lakeload uses its own commit users (the job identity)"},
	{key: "commit.strict-mode.last-safe-snapshot", class: Irrelevant, why: whyStream},
	{key: "commit.discard-duplicate-files", class: Irrelevant, why: "lakeload never commits a file twice"},
	{key: "commit.callbacks", class: Refused, allowed: []string{""}, why: "Java runs these classes after each commit (e.g. metastore sync), lakeload cannot; unset it or sync after lakeload's commits with Java"},
	{key: "commit.callback.#.param", class: Irrelevant, why: whyOnlyWith},
	{key: "snapshot.ignore-empty-commit", class: Irrelevant, why: "lakeload does not commit empty windows except to record its marker"},
	{key: "visibility-callback.enabled", class: Irrelevant, why: whyStream},
	{key: "visibility-callback.timeout", class: Irrelevant, why: whyStream},
	{key: "visibility-callback.check-interval", class: Irrelevant, why: whyStream},
	{key: "overwrite-upgrade", class: Irrelevant, why: "file levels after an overwrite; any layout reads the same"},
	{key: "dynamic-partition-overwrite", class: Irrelevant, why: "SQL INSERT OVERWRITE semantics of engines; lakeload's --overwrite names what it replaces"},
	{key: "metastore.partitioned-table", class: Refused, allowed: []string{"false"}, why: "Java registers new partitions in the Hive metastore on commit, lakeload does not; unset it or add the partitions with Java/Hive"},
	{key: "metastore.tag-to-partition", class: Refused, allowed: []string{""}, why: "tags mapped to metastore partitions are maintained by Java only; unset it"},
	{key: "metastore.tag-to-partition.preview", class: Irrelevant, why: whyOnlyWith},

	// Compaction.
	{key: "num-sorted-run.compaction-trigger", class: Honoured, why: "compaction"},
	{key: "num-sorted-run.stop-trigger", class: Honoured, why: "compaction"},
	{key: "num-levels", class: Honoured, why: "compaction"},
	{key: "compaction.max-size-amplification-percent", class: Honoured, why: "compaction"},
	{key: "compaction.size-ratio", class: Honoured, why: "compaction"},
	{key: "compaction.min.file-num", class: Honoured, why: "compaction"},
	{key: "compaction.force-up-level-0", class: Irrelevant, why: whyCompaction},
	{key: "compaction.force-rewrite-all-files", class: Irrelevant, why: whyCompaction},
	{key: "compaction.offpeak.start.hour", class: Irrelevant, why: whyCompaction},
	{key: "compaction.offpeak.end.hour", class: Irrelevant, why: whyCompaction},
	{key: "compaction.offpeak-ratio", class: Irrelevant, why: whyCompaction},
	{key: "compaction.optimization-interval", class: Irrelevant, why: whyCompaction},
	{key: "compaction.total-size-threshold", class: Irrelevant, why: whyCompaction},
	{key: "compaction.incremental-size-threshold", class: Irrelevant, why: whyCompaction},
	{key: "compaction.file-num-limit", class: Irrelevant, why: whyCompaction},
	{key: "compaction.delete-ratio-threshold", class: Irrelevant, why: whyCompaction},
	{key: "full-compaction.delta-commits", class: Irrelevant, why: whyCompaction},
	{key: "lookup-compact", class: Irrelevant, why: whyStream},
	{key: "lookup-compact.max-interval", class: Irrelevant, why: whyStream},
	{key: "lookup-wait", class: Irrelevant, why: whyStream},
	{key: "force-lookup", class: Irrelevant, why: whyStream},

	// Snapshot, changelog, partition and tag maintenance.
	{key: "snapshot.num-retained.min", class: Honoured, why: "expire"},
	{key: "snapshot.num-retained.max", class: Honoured, why: "expire"},
	{key: "snapshot.time-retained", class: Honoured, why: "expire"},
	{key: "snapshot.expire.limit", class: Honoured, why: "expire"},
	{key: "changelog.num-retained.min", class: Honoured, why: "expire"},
	{key: "changelog.num-retained.max", class: Honoured, why: "expire"},
	{key: "changelog.time-retained", class: Honoured, why: "expire"},
	{key: "consumer.expiration-time", class: Honoured, why: "expire keeps consumers' snapshots"},
	{key: "consumer.changelog-only", class: Honoured, why: "expire keeps consumers' snapshots"},
	{key: "snapshot.expire.execution-mode", class: Irrelevant, why: whyMaintain},
	{key: "snapshot.clean-empty-directories", class: Irrelevant, why: whyMaintain},
	{key: "snapshot.expire.clean-empty-directories", class: Irrelevant, why: whyMaintain},
	{key: "partition.default-name", class: Honoured, why: "partition directory names"},
	{key: "partition.legacy-name", class: Honoured, why: "partition directory names"},
	{key: "partition.expiration-time", class: Refused, allowed: []string{""}, why: "Java drops expired partitions during its commits, lakeload does not; unset it or expire partitions with Java (expire_partitions)"},
	{key: "partition.expiration-strategy", class: Irrelevant, why: whyOnlyWith},
	{key: "partition.expiration-check-interval", class: Irrelevant, why: whyOnlyWith},
	{key: "partition.expiration-max-num", class: Irrelevant, why: whyOnlyWith},
	{key: "partition.expiration-batch-size", class: Irrelevant, why: whyOnlyWith},
	{key: "partition.timestamp-formatter", class: Irrelevant, why: whyOnlyWith},
	{key: "partition.timestamp-pattern", class: Irrelevant, why: whyOnlyWith},
	{key: "partition.timestamp-format.strict", class: Irrelevant, why: whyOnlyWith},
	{key: "partition.end-input-to-done", class: Irrelevant, why: whyStream},
	{key: "partition.mark-done-action", class: Irrelevant, why: whyStream},
	{key: "partition.mark-done-action.custom.class", class: Irrelevant, why: whyStream},
	{key: "partition.mark-done-action.http.url", class: Irrelevant, why: whyStream},
	{key: "partition.mark-done-action.http.params", class: Irrelevant, why: whyStream},
	{key: "partition.sink-strategy", class: Irrelevant, why: whyStream},
	{key: "partition.idle-time-to-report-statistic", class: Irrelevant, why: whyStream},
	{key: "end-input.check-partition-expire", class: Irrelevant, why: whyStream},
	{key: "tag.automatic-creation", class: Refused, allowed: []string{"none"}, why: "Java creates tags during its commits, lakeload does not; unset it or create tags with Java"},
	{key: "tag.create-success-file", class: Irrelevant, why: whyOnlyWith},
	{key: "tag.creation-period", class: Irrelevant, why: whyOnlyWith},
	{key: "tag.creation-delay", class: Irrelevant, why: whyOnlyWith},
	{key: "tag.period-formatter", class: Irrelevant, why: whyOnlyWith},
	{key: "tag.creation-period-duration", class: Irrelevant, why: whyOnlyWith},
	{key: "tag.num-retained-max", class: Irrelevant, why: whyOnlyWith},
	{key: "tag.default-time-retained", class: Irrelevant, why: whyMaintain},
	{key: "tag.time-expire-enabled", class: Irrelevant, why: whyMaintain},
	{key: "tag.automatic-completion", class: Irrelevant, why: whyOnlyWith},
	{key: "tag.batch.customized-name", class: Irrelevant, why: whyStream},
	{key: "tag.callbacks", class: Irrelevant, why: "lakeload creates no tags"},
	{key: "tag.callback.#.param", class: Irrelevant, why: "lakeload creates no tags"},
	{key: "snapshot.watermark-idle-timeout", class: Irrelevant, why: whyStream},
	{key: "sink.watermark-time-zone", class: Irrelevant, why: whyStream},
	{key: "sink.process-time-zone", class: Irrelevant, why: whyStream},

	// Reads, scans, streaming, lookups.
	{key: "continuous.discovery-interval", class: Irrelevant, why: whyStream},
	{key: "scan.max-splits-per-task", class: Irrelevant, why: whyRead},
	{key: "source.split.target-size", class: Irrelevant, why: whyRead},
	{key: "source.split.open-file-cost", class: Irrelevant, why: whyRead},
	{key: "scan.mode", class: Irrelevant, why: whyRead},
	{key: "log.scan", class: Irrelevant, why: whyRead},
	{key: "scan.timestamp", class: Irrelevant, why: whyRead},
	{key: "scan.timestamp-millis", class: Irrelevant, why: whyRead},
	{key: "log.scan.timestamp-millis", class: Irrelevant, why: whyRead},
	{key: "scan.watermark", class: Irrelevant, why: whyRead},
	{key: "scan.file-creation-time-millis", class: Irrelevant, why: whyRead},
	{key: "scan.creation-time-millis", class: Irrelevant, why: whyRead},
	{key: "scan.snapshot-id", class: Irrelevant, why: whyRead},
	{key: "scan.tag-name", class: Irrelevant, why: whyRead},
	{key: "scan.version", class: Irrelevant, why: whyRead},
	{key: "scan.bounded.watermark", class: Irrelevant, why: whyRead},
	{key: "scan.manifest.parallelism", class: Irrelevant, why: whyRead},
	{key: "scan.ignore-corrupt-files", class: Irrelevant, why: whyRead},
	{key: "scan.ignore-lost-files", class: Irrelevant, why: whyRead},
	{key: "scan.plan-sort-partition", class: Irrelevant, why: whyRead},
	{key: "streaming.read.snapshot.delay", class: Irrelevant, why: whyStream},
	{key: "streaming-read-overwrite", class: Irrelevant, why: whyStream},
	{key: "streaming-read-append-overwrite", class: Irrelevant, why: whyStream},
	{key: "table-read.sequence-number.enabled", class: Irrelevant, why: whyRead},
	{key: "key-value.sequence_number.enabled", class: Irrelevant, why: whyRead},
	{key: "consumer-id", class: Irrelevant, why: whyRead},
	{key: "consumer.mode", class: Irrelevant, why: whyRead},
	{key: "consumer.ignore-progress", class: Irrelevant, why: whyRead},
	{key: "stream-scan-mode", class: Irrelevant, why: whyRead},
	{key: "batch-scan-mode", class: Irrelevant, why: whyRead},
	{key: "incremental-between", class: Irrelevant, why: whyRead},
	{key: "incremental-between-scan-mode", class: Irrelevant, why: whyRead},
	{key: "incremental-between-timestamp", class: Irrelevant, why: whyRead},
	{key: "incremental-to-auto-tag", class: Irrelevant, why: whyRead},
	{key: "incremental-between-tag-to-snapshot", class: Irrelevant, why: whyRead},
	{key: "lookup.hash-load-factor", class: Irrelevant, why: whyStream},
	{key: "lookup.cache-file-retention", class: Irrelevant, why: whyStream},
	{key: "lookup.cache-max-disk-size", class: Irrelevant, why: whyStream},
	{key: "lookup.cache-spill-compression", class: Irrelevant, why: whyStream},
	{key: "lookup.cache-max-memory-size", class: Irrelevant, why: whyStream},
	{key: "lookup.cache.high-priority-pool-ratio", class: Irrelevant, why: whyStream},
	{key: "lookup.cache.bloom.filter.enabled", class: Irrelevant, why: whyStream},
	{key: "lookup.cache.bloom.filter.fpp", class: Irrelevant, why: whyStream},
	{key: "lookup.remote-file.enabled", class: Irrelevant, why: whyStream},
	{key: "lookup.remote-file.level-threshold", class: Irrelevant, why: whyStream},
	{key: "lookup.merge-buffer-size", class: Irrelevant, why: whyStream},
	{key: "lookup.merge-records-threshold", class: Irrelevant, why: whyStream},
	{key: "global-index.enabled", class: Irrelevant, why: whyRead},
	{key: "global-index.external-path", class: Irrelevant, why: "global indexes exist only on row-tracking tables, which are refused"},
	{key: "global-index.column-update-action", class: Irrelevant, why: "global indexes exist only on row-tracking tables, which are refused"},
	{key: "global-index.row-count-per-shard", class: Irrelevant, why: "global indexes exist only on row-tracking tables, which are refused"},
	{key: "global-index.build.max-shard", class: Irrelevant, why: "global indexes exist only on row-tracking tables, which are refused"},
	{key: "global-index.build.max-parallelism", class: Irrelevant, why: "global indexes exist only on row-tracking tables, which are refused"},
	{key: "global-index.thread-num", class: Irrelevant, why: "global indexes exist only on row-tracking tables, which are refused"},

	// Catalog, schema changes, engine metadata.
	{key: "auto-create", class: Irrelevant, why: whyCatalog},
	{key: "query-auth.enabled", class: Irrelevant, why: whyCatalog},
	{key: "alter-column-null-to-not-null.disabled", class: Irrelevant, why: whyCatalog},
	{key: "disable-explicit-type-casting", class: Irrelevant, why: whyCatalog},
	{key: "add-column-before-partition", class: Refused, allowed: []string{"false"}, why: "Java adds new columns before the partition columns, lakeload's --evolve-schema appends them; unset it"},
	{key: "materialized-table.definition-query", class: Irrelevant, why: whyCatalog},
	{key: "materialized-table.interval-freshness", class: Irrelevant, why: whyCatalog},
	{key: "materialized-table.interval-freshness.time-unit", class: Irrelevant, why: whyCatalog},
	{key: "materialized-table.logical-refresh-mode", class: Irrelevant, why: whyCatalog},
	{key: "materialized-table.refresh-mode", class: Irrelevant, why: whyCatalog},
	{key: "materialized-table.refresh-status", class: Irrelevant, why: whyCatalog},
	{key: "materialized-table.refresh-handler-description", class: Irrelevant, why: whyCatalog},
	{key: "materialized-table.refresh-handler-bytes", class: Irrelevant, why: whyCatalog},
	{key: "format-table.implementation", class: Irrelevant, why: "format tables ('type'='format-table') are refused"},
	{key: "format-table.partition-path-only-value", class: Irrelevant, why: "format tables ('type'='format-table') are refused"},
	{key: "format-table.file.compression", class: Irrelevant, why: "format tables ('type'='format-table') are refused"},
	{key: "format-table.commit-hive-sync-url", class: Irrelevant, why: "format tables ('type'='format-table') are refused"},

	// Iceberg compatibility (IcebergOptions).
	{key: "metadata.iceberg.storage", class: Refused, allowed: []string{"disabled"}, why: "lakeload does not generate Iceberg metadata, so Iceberg readers would never see its commits; set 'metadata.iceberg.storage'='disabled' (and read the table as Paimon) or load with Java Paimon"},
	{key: "metadata.iceberg.storage-location", class: Irrelevant, why: whyOnlyWith},
	{key: "metadata.iceberg.format-version", class: Irrelevant, why: whyOnlyWith},
	{key: "metadata.iceberg.compaction.min.file-num", class: Irrelevant, why: whyOnlyWith},
	{key: "metadata.iceberg.compaction.max.file-num", class: Irrelevant, why: whyOnlyWith},
	{key: "metadata.iceberg.delete-after-commit.enabled", class: Irrelevant, why: whyOnlyWith},
	{key: "metadata.iceberg.previous-versions-max", class: Irrelevant, why: whyOnlyWith},
	{key: "metadata.iceberg.uri", class: Irrelevant, why: whyOnlyWith},
	{key: "metadata.iceberg.hive-conf-dir", class: Irrelevant, why: whyOnlyWith},
	{key: "metadata.iceberg.hadoop-conf-dir", class: Irrelevant, why: whyOnlyWith},
	{key: "metadata.iceberg.manifest-compression", class: Irrelevant, why: whyOnlyWith},
	{key: "metadata.iceberg.manifest-legacy-version", class: Irrelevant, why: whyOnlyWith},
	{key: "metadata.iceberg.hive-client-class", class: Irrelevant, why: whyOnlyWith},
	{key: "metadata.iceberg.database", class: Irrelevant, why: whyOnlyWith},
	{key: "metadata.iceberg.table", class: Irrelevant, why: whyOnlyWith},
	{key: "metadata.iceberg.glue.skip-archive", class: Irrelevant, why: whyOnlyWith},
	{key: "metadata.iceberg.hive-skip-update-stats", class: Irrelevant, why: whyOnlyWith},
}

// ruleIndex maps exact keys to their rules; patterns are matched in table order.
var ruleIndex, rulePatterns = func() (map[string]*optionRule, []*optionRule) {
	m := map[string]*optionRule{}
	var pats []*optionRule
	for i := range tableOptionRules {
		r := &tableOptionRules[i]
		if strings.ContainsAny(r.key, "*#") {
			pats = append(pats, r)
		} else {
			m[r.key] = r
		}
	}
	return m, pats
}()

// patternMatch reports whether key matches pattern p: "*" and "#" each stand for one or more
// characters (a column name may contain dots, so they are not limited to one segment).
func patternMatch(p, key string) bool {
	i := strings.IndexAny(p, "*#")
	if i < 0 {
		return p == key
	}
	if !strings.HasPrefix(key, p[:i]) {
		return false
	}
	rest, tail := key[i:], p[i+1:]
	for j := 1; j <= len(rest); j++ {
		if patternMatch(tail, rest[j:]) {
			return true
		}
	}
	return false
}

// classify returns the rule of a table option key, nil when Java Paimon defines no such key
// (connector options of Flink/Spark, user properties): Java's writer ignores those too.
// ClassifyOption returns how lakeload treats table option key (ok = false: no rule covers it).
func ClassifyOption(key string) (c OptionClass, ok bool) {
	if r := classify(key); r != nil {
		return r.class, true
	}
	return 0, false
}

// RuleKeys returns the exact option keys (not patterns) the classification has a rule for.
func RuleKeys() []string {
	var out []string
	for _, r := range tableOptionRules {
		if !strings.ContainsAny(r.key, "*#") {
			out = append(out, r.key)
		}
	}
	return out
}

func classify(key string) *optionRule {
	if r, ok := ruleIndex[key]; ok {
		return r
	}
	for _, r := range rulePatterns {
		if patternMatch(r.key, key) {
			return r
		}
	}
	return nil
}

// checkOptions refuses the first (in key order) option set to a value whose effect lakeload does
// not reproduce.
func checkOptions(opts map[string]string) error {
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		r := classify(k)
		if r == nil || r.class != Refused {
			continue
		}
		v := strings.TrimSpace(opts[k])
		ok := false
		for _, a := range r.allowed {
			ok = ok || strings.EqualFold(v, a)
		}
		if !ok {
			return fmt.Errorf("option %s=%s: %s", k, opts[k], r.why)
		}
	}
	return nil
}
