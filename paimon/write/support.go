package write

import (
	"fmt"
	"strings"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// ErrUnsupportedTable is returned (wrapped) for tables lakeload cannot write yet.
var ErrUnsupportedTable = fmt.Errorf("table not supported for writing")

// CheckWritable refuses tables whose files lakeload cannot write correctly yet, and tables setting
// an option whose effect lakeload does not reproduce (table_options.go classifies every key of Java's
// table options); the error names the option at fault and what to do.
func CheckWritable(t *table.Table) error { return checkWritable(t, false) }

// checkWritable is CheckWritable; hiddenLevel0OK accepts tables whose level-0 files Java's batch
// reads skip (the caller compacts before publishing).
func checkWritable(t *table.Table, hiddenLevel0OK bool) error {
	o := t.Options
	fail := func(format string, a ...any) error {
		return fmt.Errorf("%w: table %s: %s", ErrUnsupportedTable, t.Path, fmt.Sprintf(format, a...))
	}
	if f := strings.ToLower(o.FileFormat()); f != "parquet" {
		return fail("file.format=%s; lakeload writes parquet only: create the table with 'file.format'='parquet'", f)
	}
	b := o.Bucket()
	switch {
	case b == -2:
		return fail("bucket=-2 (postpone bucket) is not supported; use a fixed bucket count ('bucket'='N')")
	case b == -1 && t.HasPrimaryKey():
		if err := checkDynamicBucket(t); err != nil {
			return fail("%v", err)
		}
	case b == 0 || b < -2:
		return fail("bucket=%d is invalid; use -1 or a positive bucket count", b)
	}
	if v := o.ManifestFormat(); !strings.EqualFold(v, "avro") {
		return fail("manifest.format=%s: lakeload reads ORC manifests but writes Avro ones only, which Java would then misread; create the table with 'manifest.format'='avro' (the default)", v)
	}
	if v := o.BucketFunctionType(); !strings.EqualFold(v, "default") {
		return fail("bucket-function.type=%s is not supported; only 'default' is", v)
	}
	// A malformed value of either is refused by checkOptions below.
	if on, _ := o.RowTrackingEnabled(); on {
		return fail("%s=true is not supported", spec.OptRowTrackingEnabled)
	}
	if on, _ := o.DataEvolutionEnabled(); on {
		return fail("%s=true is not supported", spec.OptDataEvolutionEnabled)
	}
	for _, f := range t.PartitionFields() {
		if f.Type.Root == spec.Float || f.Type.Root == spec.Double {
			return fail("partition column %s is %s: Java names its directory with %s.toString, whose output differs between JDK <= 18 and >= 19 (1e23 is 9.999999999999999E22 on JDK 17, 1.0E23 on JDK 19+), so Java and lakeload readers may look for the files in different directories; partition by a STRING, INT/BIGINT or DECIMAL column instead",
				f.Name, f.Type, javaBoxName(f.Type.Root))
		}
	}
	if err := checkOptions(o.Map()); err != nil {
		return fail("%v", err)
	}
	if !t.HasPrimaryKey() {
		return nil
	}
	if o.DeletionVectorsEnabled() && !hiddenLevel0OK {
		return fail("deletion-vectors.enabled=true: Java's batch reads skip the level-0 files lakeload writes, so rows would be invisible until a compaction; use 'lakeload load', which compacts each window before publishing it, or a table without deletion vectors")
	}
	if me := o.MergeEngine(); me == "first-row" && !hiddenLevel0OK {
		return fail("merge-engine=first-row: Java's batch reads skip the level-0 files lakeload writes, so rows would be invisible until a compaction; use 'lakeload load', which compacts each window before publishing it, or the merge engine deduplicate, partial-update or aggregation")
	}
	if cp := o.ChangelogProducer(); cp == "input" {
		return fail("changelog-producer=input needs changelog files, which lakeload does not write yet; use 'none', 'lookup' or 'full-compaction'")
	}
	return nil
}

func javaBoxName(r spec.TypeRoot) string {
	if r == spec.Float {
		return "Float"
	}
	return "Double"
}
