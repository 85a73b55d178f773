package spec

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestCoreOptionsEngineDefaults: the accessors of options_engine.go return Java CoreOptions'
// defaults (release 1.4: paimon-api CoreOptions.java) when the options are unset.
func TestCoreOptionsEngineDefaults(t *testing.T) {
	o := NewCoreOptions(nil)
	must := func(v any, err error) any {
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"SequenceFieldDescending", must(o.SequenceFieldDescending()), false},
		{"IgnoreUpdateBefore", must(o.IgnoreUpdateBefore()), false},
		{"RowKindField", o.RowKindField(), ""},
		{"WriteBufferSize", must(o.WriteBufferSize()), int64(256 << 20)},
		{"ManifestFormat", o.ManifestFormat(), "avro"},
		{"BucketFunctionType", o.BucketFunctionType(), "default"},
		{"RowTrackingEnabled", must(o.RowTrackingEnabled()), false},
		{"DataEvolutionEnabled", must(o.DataEvolutionEnabled()), false},
		{"DeletionVectorsMergeOnRead", must(o.DeletionVectorsMergeOnRead()), false},
		{"AddColumnBeforePartition", must(o.AddColumnBeforePartition()), false},
		{"DataFileExternalPaths", o.DataFileExternalPaths(), []string(nil)},
		{"DynamicBucketTargetRowNum", must(o.DynamicBucketTargetRowNum()), int64(2_000_000)},
		{"DynamicBucketMaxBuckets", must(o.DynamicBucketMaxBuckets()), -1},
		{"NumSortedRunCompactionTrigger", must(o.NumSortedRunCompactionTrigger()), 5},
		{"SnapshotExpireLimit", must(o.SnapshotExpireLimit()), 50},
		{"ConsumerExpirationTime", must(o.ConsumerExpirationTime()), time.Duration(0)},
		{"ConsumerChangelogOnly", must(o.ConsumerChangelogOnly()), false},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %#v, want %#v", c.name, c.got, c.want)
		}
	}
}

// TestCoreOptionsParsers: the one set of value rules (Java OptionsUtils) every package uses, and
// errors that name the option and the value.
func TestCoreOptionsParsers(t *testing.T) {
	o := NewCoreOptions(map[string]string{
		"i": " 7 ", "big": "4294967296", "b": "TRUE", "nb": "1", "m": "1 kb", "d": "30 min",
		"sequence.field.sort-order": "Descending", "data-file.external-paths": " s3://a/ ,, /b ",
		"first-row.ignore-delete": "true",
	})
	if n, err := o.Int("i", 0); n != 7 || err != nil {
		t.Errorf("Int(' 7 ') = %d, %v", n, err)
	}
	if n, err := o.Int("big", 3); n != 3 || err == nil || !strings.Contains(err.Error(), `option "big": "4294967296" is not an int`) {
		t.Errorf("Int(2^32) = %d, %v; want the default and an error (Java int)", n, err)
	}
	if n, err := o.Int64("big", 0); n != 1<<32 || err != nil {
		t.Errorf("Int64(2^32) = %d, %v", n, err)
	}
	if b, err := o.Bool("b", false); !b || err != nil {
		t.Errorf("Bool(TRUE) = %v, %v", b, err)
	}
	if _, err := o.Bool("nb", false); err == nil || !strings.Contains(err.Error(), `option "nb": "1" is not a boolean`) {
		t.Errorf("Bool(1) = %v; want an error (Java takes only true/false)", err)
	}
	if b, err := o.Bool("ignore-delete", false, "deduplicate.ignore-delete", "first-row.ignore-delete"); !b || err != nil {
		t.Errorf("Bool with fallback keys = %v, %v", b, err)
	}
	if n, err := o.MemorySize("m", 0); n != 1024 || err != nil {
		t.Errorf("MemorySize(1 kb) = %d, %v", n, err)
	}
	if d, err := o.Duration("d", 0); d != 30*time.Minute || err != nil {
		t.Errorf("Duration(30 min) = %v, %v", d, err)
	}
	if desc, err := o.SequenceFieldDescending(); !desc || err != nil {
		t.Errorf("SequenceFieldDescending(Descending) = %v, %v", desc, err)
	}
	if _, err := NewCoreOptions(map[string]string{"sequence.field.sort-order": "up"}).SequenceFieldDescending(); err == nil ||
		!strings.Contains(err.Error(), `option "sequence.field.sort-order": unknown sort order "up"`) {
		t.Errorf("sort order 'up': %v", err)
	}
	if got := o.DataFileExternalPaths(); !reflect.DeepEqual(got, []string{"s3://a/", "/b"}) {
		t.Errorf("DataFileExternalPaths = %q", got)
	}
	if got := o.Keys(); !reflect.DeepEqual(got[:3], []string{"b", "big", "d"}) {
		t.Errorf("Keys not sorted: %q", got)
	}
}
