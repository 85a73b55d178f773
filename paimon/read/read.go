package read

import (
	"context"
	"fmt"

	"github.com/lakeload/lakeload/paimon/mergetree"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// Reader reads splits of one table. It is not safe for concurrent use.
type Reader struct {
	t        *table.Table
	schema   *spec.TableSchema
	files    *fileReader
	merge    *mergetree.Config // nil for append tables
	where    *Predicate        // rows it rejects are not emitted (Where)
	selected []int             // columns Select asked for; nil = all
}

// NewReader returns a reader of t's rows in the given schema (nil: the table's latest); pass Plan.Schema.
func NewReader(t *table.Table, schema *spec.TableSchema) (*Reader, error) {
	if schema == nil {
		schema = t.Schema
	}
	r := &Reader{t: t, schema: schema, files: newFileReader(t, schema)}
	if t.HasPrimaryKey() {
		c, err := mergetree.NewConfig(schema)
		if err != nil {
			return nil, fmt.Errorf("table %s: %w", t.Path, err)
		}
		r.merge = c
	}
	return r, nil
}

// ReadSplit calls emit with every visible row of s, in the table's column order. Rows of a
// primary-key split come in key order. emit must not keep row after it returns.
func (r *Reader) ReadSplit(ctx context.Context, s Split, emit func(row []any) error) error {
	if r.where != nil {
		inner := emit
		emit = func(row []any) error {
			if !r.where.Eval(row) {
				return nil
			}
			return inner(row)
		}
	}
	if r.merge == nil || r.rawReadable(s) {
		for _, f := range s.Files {
			if err := r.files.read(ctx, s, f, func(kv mergetree.KeyValue) error { return emit(kv.Value) }); err != nil {
				return err
			}
		}
		return nil
	}
	return r.mergeSections(ctx, s, true, func(kv mergetree.KeyValue) error { return emit(kv.Value) }, nil)
}

// rawReadable mirrors Java's MergeTreeSplitGenerator: a split whose files are all above level 0, hold
// no retract rows and either use deletion vectors / first-row or sit on one level is read without merging.
func (r *Reader) rawReadable(s Split) bool {
	level := int32(-1)
	oneLevel := true
	for _, f := range s.Files {
		if f.Level == 0 || hasRetracts(f) {
			return false
		}
		if level >= 0 && f.Level != level {
			oneLevel = false
		}
		level = f.Level
	}
	dv := r.t.Options.DeletionVectorsEnabled()
	return dv || r.t.Options.MergeEngine() == "first-row" || oneLevel
}

func hasRetracts(f manifest.DataFileMeta) bool {
	return f.DeleteRowCount != nil && *f.DeleteRowCount > 0
}

// Rows reads every visible row of t at the snapshot selected by o (that o.Filter accepts, if set),
// with the schema they are in.
func Rows(ctx context.Context, t *table.Table, o ScanOptions) (*spec.TableSchema, [][]any, error) {
	plan, err := Scan(ctx, t, o)
	if err != nil {
		return nil, nil, err
	}
	r, err := NewReader(t, plan.Schema)
	if err != nil {
		return nil, nil, err
	}
	if err := r.Where(o.Filter); err != nil {
		return nil, nil, err
	}
	var out [][]any
	for _, s := range plan.Splits {
		err := r.ReadSplit(ctx, s, func(row []any) error {
			out = append(out, append([]any(nil), row...))
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	return plan.Schema, out, nil
}

func keyTypesOf(s *spec.TableSchema) []spec.DataType {
	fs, _ := s.FieldsByName(s.TrimmedPrimaryKeys())
	out := make([]spec.DataType, len(fs))
	for i, f := range fs {
		out[i] = f.Type
	}
	return out
}
