package read

import (
	"context"
	"fmt"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/binrow"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// Pruned counts what a scan with a Filter left out.
type Pruned struct {
	Partitions int // distinct partitions whose values fail the filter
	Buckets    int // (partition, bucket) pairs outside the buckets the filter's key equalities hash to
	Files      int // data files skipped (by partition, bucket or their min/max/null-count statistics)
}

// pruner decides, for the entries of one scan, which the filter cannot match. Every answer is
// conservative: an entry is skipped only when no row it holds can satisfy the filter.
type pruner struct {
	p       *Predicate
	schema  *spec.TableSchema
	partCol []int // schema column of each partition field
	partTyp []spec.DataType
	parts   map[string]bool
	// bucket pruning (fixed-bucket tables whose filter pins every bucket-key column)
	bucketTypes []spec.DataType
	bucketVals  [][]any
	buckets     map[int32]map[int32]bool // total buckets → allowed buckets
	// file statistics
	keyCols []int // schema column of each trimmed primary-key field (key stats)
	pk      bool
	seen    map[string]bool // (partition, bucket) pairs already counted as pruned
	out     Pruned
}

// maxBucketCombinations bounds the IN-list products hashed for bucket pruning.
const maxBucketCombinations = 4096

func newPruner(t *table.Table, schema *spec.TableSchema, p *Predicate) (*pruner, error) {
	if !sameFields(p.fields, schema.Fields) {
		return nil, fmt.Errorf("filter %q was parsed for other columns than those of schema %d of %s", p.text, schema.ID, t.Path)
	}
	pr := &pruner{p: p, schema: schema, parts: map[string]bool{}, buckets: map[int32]map[int32]bool{},
		pk: len(schema.PrimaryKeys) > 0, seen: map[string]bool{}}
	for _, name := range schema.PartitionKeys {
		f, i, ok := schema.Field(name)
		if !ok {
			return nil, fmt.Errorf("table %s: partition key %s is not a column", t.Path, name)
		}
		pr.partCol = append(pr.partCol, i)
		pr.partTyp = append(pr.partTyp, f.Type)
	}
	for _, name := range schema.TrimmedPrimaryKeys() {
		_, i, _ := schema.Field(name)
		pr.keyCols = append(pr.keyCols, i)
	}
	if t.Options.Bucket() > 0 {
		bk, err := t.BucketKeyFields()
		if err == nil && len(bk) > 0 {
			cols := make([]int, len(bk))
			for i, f := range bk {
				_, cols[i], _ = schema.Field(f.Name)
				pr.bucketTypes = append(pr.bucketTypes, f.Type)
			}
			if vals, ok := p.Equalities(cols); ok {
				n := 1
				for _, v := range vals {
					n *= len(v)
					if n > maxBucketCombinations {
						break
					}
				}
				if n <= maxBucketCombinations {
					pr.bucketVals = vals
				}
			}
		}
	}
	return pr, nil
}

func sameFields(a, b []spec.DataField) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ID != b[i].ID || a[i].Name != b[i].Name || a[i].Type.String() != b[i].Type.String() {
			return false
		}
	}
	return true
}

// keep reports whether entry e may hold a row the filter accepts, counting what it skips.
func (pr *pruner) keep(e manifest.ManifestEntry) (bool, error) {
	ok, err := pr.keepPartition(e.Partition)
	if err != nil {
		return false, fmt.Errorf("partition of %s: %w", e.File.FileName, err)
	}
	pairKey := string(e.Partition) + "\x00" + fmt.Sprint(e.Bucket)
	if ok && !pr.keepBucket(e.Bucket, e.TotalBuckets) {
		if !pr.seen[pairKey] {
			pr.seen[pairKey] = true
			pr.out.Buckets++
		}
		ok = false
	}
	if ok && !pr.keepFile(e.File) {
		ok = false
	}
	if !ok {
		pr.out.Files++
	}
	return ok, nil
}

func (pr *pruner) keepPartition(part []byte) (bool, error) {
	if len(pr.partCol) == 0 {
		return true, nil
	}
	if ok, seen := pr.parts[string(part)]; seen {
		return ok, nil
	}
	vals, err := binrow.Deserialize(pr.partTyp, part)
	if err != nil {
		return false, err
	}
	ok := pr.p.MayMatch(func(col int) Bounds {
		for i, c := range pr.partCol {
			if c == col {
				return ExactBounds(vals[i])
			}
		}
		return Bounds{}
	})
	pr.parts[string(part)] = ok
	if !ok {
		pr.out.Partitions++
	}
	return ok, nil
}

// keepBucket hashes the filter's bucket-key values as the writer does (binrow.Hash of the bucket-key
// row, binrow.Bucket over the entry's total buckets) and keeps only the buckets they land in.
func (pr *pruner) keepBucket(bucket, total int32) bool {
	if pr.bucketVals == nil || total <= 0 || bucket < 0 {
		return true
	}
	allowed, ok := pr.buckets[total]
	if !ok {
		allowed = map[int32]bool{}
		var b binrow.Builder
		row := make([]any, len(pr.bucketVals))
		var rec func(i int) bool
		rec = func(i int) bool {
			if i == len(row) {
				b.Reset(len(row))
				for j, v := range row {
					if err := b.Set(j, pr.bucketTypes[j], v); err != nil {
						return false
					}
				}
				allowed[int32(binrow.Bucket(b.Hash(), int(total)))] = true
				return true
			}
			for _, v := range pr.bucketVals[i] {
				row[i] = v
				if !rec(i + 1) {
					return false
				}
			}
			return true
		}
		if !rec(0) {
			allowed = nil // a value the builder refuses: do not prune
		}
		pr.buckets[total] = allowed
	}
	return allowed == nil || allowed[bucket]
}

// keepFile uses the file's statistics: value stats for append tables, key stats for primary-key
// tables (a key's versions share its key, so skipping by key never removes a version the merge
// needs; value columns of older versions say nothing about the merged row). Statistics of files
// written with another schema, and of FLOAT/DOUBLE columns (NaN is outside Parquet's min/max), are
// not used.
func (pr *pruner) keepFile(f manifest.DataFileMeta) bool {
	if f.SchemaID != pr.schema.ID {
		return true
	}
	var cols []int
	var stats manifest.SimpleStats
	if pr.pk {
		cols, stats = pr.keyCols, f.KeyStats
	} else {
		stats = f.ValueStats
		if f.ValueStatsCols == nil {
			cols = make([]int, len(pr.schema.Fields))
			for i := range cols {
				cols[i] = i
			}
		} else {
			for _, name := range f.ValueStatsCols {
				_, i, ok := pr.schema.Field(name)
				if !ok {
					return true
				}
				cols = append(cols, i)
			}
		}
	}
	types := make([]spec.DataType, len(cols))
	for i, c := range cols {
		types[i] = pr.schema.Fields[c].Type
	}
	mins, err1 := decodeStatsRow(types, stats.MinValues)
	maxs, err2 := decodeStatsRow(types, stats.MaxValues)
	if err1 != nil || err2 != nil || len(mins) != len(cols) || len(maxs) != len(cols) {
		return true // empty or foreign statistics: nothing is known
	}
	return pr.p.MayMatch(func(col int) Bounds {
		for i, c := range cols {
			if c != col {
				continue
			}
			if r := types[i].Root; r == spec.Float || r == spec.Double {
				return Bounds{}
			}
			b := Bounds{Known: true, Min: mins[i], Max: maxs[i], Nulls: -1, Rows: f.RowCount}
			if i < len(stats.NullCounts) && stats.NullCounts[i] != nil {
				b.Nulls = *stats.NullCounts[i]
			}
			if pr.pk {
				b.Nulls = 0 // key columns are never null
			}
			return b
		}
		return Bounds{}
	})
}

func decodeStatsRow(types []spec.DataType, b []byte) ([]any, error) {
	if len(b) < 4 || int(int32(uint32(b[0])<<24|uint32(b[1])<<16|uint32(b[2])<<8|uint32(b[3]))) != len(types) {
		return nil, fmt.Errorf("stats arity differs")
	}
	return binrow.Deserialize(types, b)
}

// SchemaAt returns the schema a scan of snapshot id (0: latest) reads rows in: the table's, or the
// snapshot's own for time travel. Parse a filter over its fields.
func SchemaAt(ctx context.Context, t *table.Table, snapshotID int64) (*spec.TableSchema, error) {
	if snapshotID <= 0 {
		return t.Schema, nil
	}
	snap, err := t.Snapshots().Get(ctx, snapshotID)
	if err != nil {
		return nil, fmt.Errorf("snapshot %d of %s: %w", snapshotID, t.Path, err)
	}
	if snap.SchemaID == t.Schema.ID {
		return t.Schema, nil
	}
	return t.Schemas().Get(ctx, snap.SchemaID)
}
