package read

import (
	"context"
	"fmt"

	"github.com/lakeload/lakeload/paimon/mergetree"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/dv"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

const batchRows = 8192

// mergeRows is the number of records a merge of one section may hold at once: each of its runs
// reads batches of mergeRows/runs rows (at least minMergeBatch, at most batchRows), so a section of
// many runs costs no more memory than one of two.
const (
	mergeRows     = 16384
	minMergeBatch = 1024
)

// fileReader reads data files into KeyValues whose Value is in the table's current column order.
type fileReader struct {
	t       *table.Table
	cur     *spec.TableSchema // schema rows are produced in
	paths   *table.Paths
	schemas map[int64]*spec.TableSchema
	keyIdx  []int
	need    []bool // reading-schema fields decoded from files; nil = all (Reader.Select)
	batch   int64  // rows per Parquet record batch (batchRows)
	// mergeRows and minBatch size the batches of merged runs (see mergeRows, minMergeBatch).
	mergeRows, minBatch int64
	// buffered counts the records currently held by the open runs of merges, peakBuffered its
	// highest value: the bound on merge memory (runs × batch), checked by tests.
	buffered, peakBuffered int
}

func newFileReader(t *table.Table, cur *spec.TableSchema) *fileReader {
	fr := &fileReader{t: t, cur: cur, paths: t.NewPaths(), schemas: map[int64]*spec.TableSchema{cur.ID: cur},
		batch: batchRows, mergeRows: mergeRows, minBatch: minMergeBatch}
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

// read calls fn for every row of file f not removed by its deletion vector, one batch at a time.
func (fr *fileReader) read(ctx context.Context, s Split, f manifest.DataFileMeta, fn func(mergetree.KeyValue) error) error {
	b, err := fr.open(ctx, s, f, fr.batch)
	if err != nil {
		return err
	}
	defer b.close()
	var buf []mergetree.KeyValue
	for {
		kvs, ok, err := b.next(buf[:0])
		if err != nil || !ok {
			return err
		}
		for _, kv := range kvs {
			if err := fn(kv); err != nil {
				return err
			}
		}
		clear(kvs)
		buf = kvs
	}
}

func (fr *fileReader) readDV(ctx context.Context, d DeletionFile) (dv.DeletionVector, error) {
	path, err := fr.t.IndexFile(d.IndexFile, nil, "the deletion vector of data file "+d.Meta.DataFileName)
	if err != nil {
		return nil, err
	}
	f, err := fr.t.FS.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return dv.ReadDeletionVector(f, d.Meta)
}
