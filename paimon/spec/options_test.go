package spec

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestCoreOptionsDefaults(t *testing.T) {
	o := NewCoreOptions(map[string]string{})
	checks := []struct {
		name      string
		got, want any
	}{
		{"Bucket", o.Bucket(), -1},
		{"BucketKey", o.BucketKey(), []string(nil)},
		{"MergeEngine", o.MergeEngine(), "deduplicate"},
		{"SequenceField", o.SequenceField(), []string(nil)},
		{"FileFormat", o.FileFormat(), "parquet"},
		{"FileCompression", o.FileCompression(), "zstd"},
		{"ZstdLevel", o.ZstdLevel(), 1},
		{"TargetFileSize(pk)", o.TargetFileSize(true), int64(128 << 20)},
		{"TargetFileSize(append)", o.TargetFileSize(false), int64(256 << 20)},
		{"ManifestTargetFileSize", o.ManifestTargetFileSize(), int64(8 << 20)},
		{"ManifestMergeMinCount", o.ManifestMergeMinCount(), 30},
		{"ManifestFullCompactionThresholdSize", o.ManifestFullCompactionThresholdSize(), int64(16 << 20)},
		{"DeletionVectorsEnabled", o.DeletionVectorsEnabled(), false},
		{"PartitionDefaultName", o.PartitionDefaultName(), "__DEFAULT_PARTITION__"},
		{"PartitionLegacyName", o.PartitionLegacyName(), true},
		{"IgnoreDelete", o.IgnoreDelete(), false},
		{"FieldAggregateFunction", o.FieldAggregateFunction("v"), ""},
		{"FieldsDefaultAggregateFunction", o.FieldsDefaultAggregateFunction(), ""},
		{"FieldIgnoreRetract", o.FieldIgnoreRetract("v"), false},
		{"ChangelogProducer", o.ChangelogProducer(), "none"},
		{"DataFilePrefix", o.DataFilePrefix(), "data-"},
		{"FileSuffixIncludeCompression", o.FileSuffixIncludeCompression(), false},
		{"CommitMaxRetries", o.CommitMaxRetries(), 10},
		{"SnapshotNumRetainedMin", o.SnapshotNumRetainedMin(), 10},
		{"SnapshotNumRetainedMax", o.SnapshotNumRetainedMax(), math.MaxInt32},
		{"SnapshotTimeRetained", o.SnapshotTimeRetained(), time.Hour},
		{"MetadataStatsMode", o.MetadataStatsMode(), "truncate(16)"},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %#v, want %#v", c.name, c.got, c.want)
		}
	}
	if err := o.Validate(); err != nil {
		t.Error(err)
	}
}

func TestCoreOptionsSetValues(t *testing.T) {
	m := map[string]string{
		"bucket": "4", "bucket-key": "a,b", "merge-engine": "Partial-Update", "sequence.field": " s0 , s1 ",
		"file.format": "ORC", "target-file-size": "64 mb", "manifest.target-file-size": "1 kb",
		"deletion-vectors.enabled": "TRUE", "partition.legacy-name": "false",
		"fields.v.aggregate-function": "sum", "fields.v.ignore-retract": "true",
		"fields.default-aggregate-function": "last_non_null_value", "snapshot.time-retained": "30 min",
		"changelog-producer": "input",
	}
	o := NewCoreOptions(m)
	if b := o.Bucket(); b != 4 {
		t.Errorf("Bucket = %d", b)
	}
	if got := o.BucketKey(); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("BucketKey = %v", got)
	}
	if o.MergeEngine() != "partial-update" || o.FileFormat() != "orc" || o.ChangelogProducer() != "input" {
		t.Errorf("enum options: %s %s %s", o.MergeEngine(), o.FileFormat(), o.ChangelogProducer())
	}
	if got := o.SequenceField(); !reflect.DeepEqual(got, []string{"s0", "s1"}) {
		t.Errorf("SequenceField = %q", got)
	}
	if n := o.TargetFileSize(true); n != 64<<20 {
		t.Errorf("TargetFileSize = %d", n)
	}
	if n := o.ManifestTargetFileSize(); n != 1024 {
		t.Errorf("ManifestTargetFileSize = %d", n)
	}
	if !o.DeletionVectorsEnabled() {
		t.Error("DeletionVectorsEnabled")
	}
	if o.PartitionLegacyName() {
		t.Error("PartitionLegacyName")
	}
	if o.FieldAggregateFunction("v") != "sum" || o.FieldsDefaultAggregateFunction() != "last_non_null_value" {
		t.Error("aggregate functions")
	}
	if !o.FieldIgnoreRetract("v") {
		t.Error("FieldIgnoreRetract")
	}
	if d := o.SnapshotTimeRetained(); d != 30*time.Minute {
		t.Errorf("SnapshotTimeRetained = %v", d)
	}
	c := o.Map()
	c["bucket"] = "9"
	if v, _ := o.Get("bucket"); v != "4" {
		t.Error("Map must return a copy")
	}
}

func TestIgnoreDeleteFallbackKeys(t *testing.T) {
	for _, k := range []string{"ignore-delete", "first-row.ignore-delete", "deduplicate.ignore-delete", "partial-update.ignore-delete"} {
		if !NewCoreOptions(map[string]string{k: "true"}).IgnoreDelete() {
			t.Errorf("%s=true not honoured", k)
		}
	}
	// The main key wins over fallbacks.
	if NewCoreOptions(map[string]string{"ignore-delete": "false", "deduplicate.ignore-delete": "true"}).IgnoreDelete() {
		t.Error("ignore-delete=false must win")
	}
	o := NewCoreOptions(map[string]string{"partial-update.ignore-delete": "yes"})
	if o.IgnoreDelete() {
		t.Error("malformed value must read as the default")
	}
	if err := o.Validate(); err == nil || !strings.Contains(err.Error(), `"partial-update.ignore-delete"`) {
		t.Errorf("bad bool error = %v", err)
	}
}

func TestCoreOptionsParseErrorsNameOption(t *testing.T) {
	cases := map[string]string{
		"bucket": "x", "file.compression.zstd-level": "1.5", "target-file-size": "-1 mb",
		"manifest.merge-min-count": "", "deletion-vectors.enabled": "1", "snapshot.time-retained": "1 fortnight",
		"commit.max-retries": "99999999999", "manifest.full-compaction-threshold-size": "16 zb",
	}
	cases["fields.v.ignore-retract"] = "maybe"
	for k, v := range cases {
		err := NewCoreOptions(map[string]string{k: v}).Validate()
		if err == nil || !strings.Contains(err.Error(), `"`+k+`"`) {
			t.Errorf("%s=%q: Validate error = %v", k, v, err)
		}
	}
	// Malformed values read as defaults.
	o := NewCoreOptions(map[string]string{"bucket": "x", "target-file-size": "big", "deletion-vectors.enabled": "1"})
	if o.Bucket() != -1 || o.TargetFileSize(true) != 128<<20 || o.DeletionVectorsEnabled() {
		t.Error("malformed options must read as defaults")
	}
}

func TestParseMemorySize(t *testing.T) {
	ok := map[string]int64{
		"128 mb": 128 << 20, "256MB": 256 << 20, "1 kb": 1024, "4096": 4096, "0": 0, " 7 b ": 7, "3bytes": 3,
		"2k": 2048, "1 m": 1 << 20, "1g": 1 << 30, "2 GB": 2 << 30, "1 t": 1 << 40, "1 tebibytes": 1 << 40,
		"5 Mebibytes": 5 << 20, "9223372036854775807": math.MaxInt64,
	}
	for in, want := range ok {
		if got, err := ParseMemorySize(in); err != nil || got != want {
			t.Errorf("ParseMemorySize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "mb", "-1", "1.5 mb", "12 parsecs", "9999999999 tb", "99999999999999999999"} {
		if _, err := ParseMemorySize(in); err == nil {
			t.Errorf("ParseMemorySize(%q) accepted", in)
		}
	}
}

func TestParseJavaDuration(t *testing.T) {
	ok := map[string]time.Duration{"1 h": time.Hour, "30min": 30 * time.Minute, "500": 500 * time.Millisecond,
		"2 d": 48 * time.Hour, "10 s": 10 * time.Second, "7ms": 7 * time.Millisecond, "3 hours": 3 * time.Hour}
	for in, want := range ok {
		if got, err := ParseJavaDuration(in); err != nil || got != want {
			t.Errorf("ParseJavaDuration(%q) = %v, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "h", "1 fortnight", "99999999999 d"} {
		if _, err := ParseJavaDuration(in); err == nil {
			t.Errorf("ParseJavaDuration(%q) accepted", in)
		}
	}
}
