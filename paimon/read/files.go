package read

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/format/parquet"
	"github.com/lakeload/lakeload/paimon/mergetree"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/dv"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

const batchRows = 8192

// fileReader reads data files into KeyValues whose Value is in the table's current column order.
type fileReader struct {
	t       *table.Table
	cur     *spec.TableSchema // schema rows are produced in
	paths   *table.Paths
	schemas map[int64]*spec.TableSchema
	keyIdx  []int
}

func newFileReader(t *table.Table, cur *spec.TableSchema) *fileReader {
	fr := &fileReader{t: t, cur: cur, paths: t.NewPaths(), schemas: map[int64]*spec.TableSchema{cur.ID: cur}}
	for _, k := range cur.TrimmedPrimaryKeys() {
		_, pos, _ := cur.Field(k)
		fr.keyIdx = append(fr.keyIdx, pos)
	}
	return fr
}

func (fr *fileReader) schema(ctx context.Context, id int64) (*spec.TableSchema, error) {
	if s, ok := fr.schemas[id]; ok {
		return s, nil
	}
	s, err := fr.t.Schemas().Get(ctx, id)
	if err != nil {
		return nil, err
	}
	fr.schemas[id] = s
	return s, nil
}

// column says where field i of the reading schema comes from in a data file.
type column struct {
	name     string // file column name; "" = field added later, read as null
	fileType spec.DataType
	cast     castFunc
}

// columnPlan maps the reading schema's fields onto the columns of a file written with schema file
// (by field id, as Java does), with the casts an ALTER TABLE … TYPE needs.
func columnPlan(cur, file *spec.TableSchema) ([]column, error) {
	byID := map[int]spec.DataField{}
	for _, f := range file.Fields {
		byID[f.ID] = f
	}
	out := make([]column, len(cur.Fields))
	for i, f := range cur.Fields {
		ff, ok := byID[f.ID]
		if !ok {
			continue
		}
		c, err := castFor(ff.Type, f.Type)
		if err != nil {
			return nil, fmt.Errorf("column %s (schema %d → %d): %w", f.Name, file.ID, cur.ID, err)
		}
		out[i] = column{name: ff.Name, fileType: ff.Type, cast: c}
	}
	return out, nil
}

// read calls fn for every row of file f not removed by its deletion vector.
func (fr *fileReader) read(ctx context.Context, s Split, f manifest.DataFileMeta, fn func(mergetree.KeyValue) error) error {
	path, err := fr.paths.DataFile(s.Partition, s.Bucket, f.FileName, f.ExternalPath)
	if err != nil {
		return err
	}
	fileSchema, err := fr.schema(ctx, f.SchemaID)
	if err != nil {
		return fmt.Errorf("data file %s: %w", path, err)
	}
	plan, err := columnPlan(fr.cur, fileSchema)
	if err != nil {
		return fmt.Errorf("data file %s: %w", path, err)
	}
	var deleted dv.DeletionVector
	if d, ok := s.Deletions[f.FileName]; ok {
		if deleted, err = fr.readDV(ctx, d); err != nil {
			return fmt.Errorf("deletion vector of %s: %w", path, err)
		}
	}
	pk := fr.t.HasPrimaryKey()
	cols := make([]string, 0, len(plan)+2)
	if pk {
		cols = append(cols, "_SEQUENCE_NUMBER", "_VALUE_KIND")
	}
	for _, c := range plan {
		if c.name != "" {
			cols = append(cols, c.name)
		}
	}
	fields := fr.cur.Fields
	var pos int64
	return forEachBatch(ctx, fr.t.FS, path, f.FileSize, cols, func(rec arrow.RecordBatch) error {
		idx := map[string]int{}
		for i, fd := range rec.Schema().Fields() {
			idx[fd.Name] = i
		}
		n := int(rec.NumRows())
		for r := 0; r < n; r, pos = r+1, pos+1 {
			if deleted != nil && deleted.IsDeleted(pos) {
				continue
			}
			kv := mergetree.KeyValue{Value: make([]any, len(fields))}
			for i, c := range plan {
				if c.name == "" {
					continue
				}
				ci, ok := idx[c.name]
				if !ok {
					return fmt.Errorf("data file %s has no column %s", path, c.name)
				}
				v, err := parquet.DatumAt(rec.Column(ci), r, c.fileType)
				if err != nil {
					return fmt.Errorf("data file %s row %d column %s: %w", path, pos, c.name, err)
				}
				if v != nil && c.cast != nil {
					if v, err = c.cast(v); err != nil {
						return fmt.Errorf("data file %s row %d column %s: %w", path, pos, c.name, err)
					}
				}
				kv.Value[i] = v
			}
			if pk {
				seq, ok1 := idx["_SEQUENCE_NUMBER"]
				kind, ok2 := idx["_VALUE_KIND"]
				if !ok1 || !ok2 {
					return fmt.Errorf("data file %s of a primary-key table lacks _SEQUENCE_NUMBER/_VALUE_KIND", path)
				}
				sv, err := parquet.DatumAt(rec.Column(seq), r, spec.DataType{Root: spec.BigInt})
				if err != nil {
					return err
				}
				kd, err := parquet.DatumAt(rec.Column(kind), r, spec.DataType{Root: spec.TinyInt})
				if err != nil {
					return err
				}
				kv.Seq, kv.Kind = sv.(int64), spec.RowKind(kd.(int8))
				kv.Key = make([]any, len(fr.keyIdx))
				for j, p := range fr.keyIdx {
					kv.Key[j] = kv.Value[p]
				}
			}
			if err := fn(kv); err != nil {
				return err
			}
		}
		return nil
	})
}

func (fr *fileReader) readDV(ctx context.Context, d DeletionFile) (dv.DeletionVector, error) {
	f, err := fr.t.FS.Open(ctx, fileio.Join(fr.paths.IndexDir(), d.IndexFile))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return dv.ReadDeletionVector(f, d.Meta)
}

// run returns the records of files (one sorted run, files in key order) as a mergetree.Run.
// The run is materialised file by file.
func (fr *fileReader) run(ctx context.Context, s Split, files []manifest.DataFileMeta) (mergetree.Run, error) {
	return &fileRun{ctx: ctx, fr: fr, s: s, files: files}, nil
}

type fileRun struct {
	ctx   context.Context
	fr    *fileReader
	s     Split
	files []manifest.DataFileMeta
	buf   []mergetree.KeyValue
	pos   int
}

func (r *fileRun) Next() (mergetree.KeyValue, bool, error) {
	for r.pos >= len(r.buf) {
		if len(r.files) == 0 {
			return mergetree.KeyValue{}, false, nil
		}
		f := r.files[0]
		r.files = r.files[1:]
		r.buf, r.pos = r.buf[:0], 0
		err := r.fr.read(r.ctx, r.s, f, func(kv mergetree.KeyValue) error {
			r.buf = append(r.buf, kv)
			return nil
		})
		if err != nil {
			return mergetree.KeyValue{}, false, err
		}
	}
	kv := r.buf[r.pos]
	r.pos++
	return kv, true, nil
}

// forEachBatch reads the given columns of a data file in batches.
func forEachBatch(ctx context.Context, fs fileio.FileIO, path string, size int64, columns []string, fn func(arrow.RecordBatch) error) error {
	return forEachBatchSized(ctx, fs, path, size, columns, batchRows, fn)
}

// forEachBatchSized reads the given columns of a data file in batches of at most rows rows.
func forEachBatchSized(ctx context.Context, fs fileio.FileIO, path string, size int64, columns []string, rows int64, fn func(arrow.RecordBatch) error) error {
	f, err := fs.Open(ctx, path)
	if err != nil {
		return fmt.Errorf("open data file %s: %w", path, err)
	}
	defer f.Close()
	if size <= 0 {
		size = f.Size()
	}
	rd, err := parquet.OpenReader(f, size)
	if err != nil {
		return fmt.Errorf("data file %s: %w", path, err)
	}
	it, err := rd.Read(ctx, columns, rows)
	if err != nil {
		return fmt.Errorf("data file %s: %w", path, err)
	}
	defer it.Release()
	for it.Next() {
		if err := fn(it.RecordBatch()); err != nil {
			return err
		}
	}
	if err := it.Err(); err != nil {
		return fmt.Errorf("data file %s: %w", path, err)
	}
	return nil
}
