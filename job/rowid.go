package job

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/paimon/spec"
)

// Row-id mode (Config.IDColumn): every row carries a unique id in a table column. Tasks record the
// ids they wrote in their results; the committed attempt's ids are published with the window; a row
// whose id an earlier window published is skipped, not written again. Duplicates are refused when a
// window is assigned: before the `assigned` record is written the driver reads the id column of the
// window's splits once (one extra read per window) and fails on an id seen twice in the window or
// already published by an earlier window.

// ErrDuplicateID is wrapped by the input error for an id found twice (row-id mode).
var ErrDuplicateID = errors.New("duplicate row id")

// idColumnIndex returns the position of the id column in the table schema, refusing a column that
// does not exist or whose type has no canonical id text (only integer and string types do).
func idColumnIndex(s *spec.TableSchema, name string) (int, error) {
	for i, f := range s.Fields {
		if f.Name != name {
			continue
		}
		switch f.Type.Root {
		case spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt, spec.Char, spec.VarChar:
			return i, nil
		}
		return -1, fmt.Errorf("job: id column %q has type %s; an id column must be an integer (TINYINT…BIGINT) or string (CHAR, VARCHAR) column", name, f.Type)
	}
	return -1, fmt.Errorf("job: id column %q is not a column of the table", name)
}

// idTexts returns the canonical text of each id in col (decimal for integers, the string itself);
// a null id is an error naming its row via at.
func idTexts(col arrow.Array, at func(i int) string) ([]string, error) {
	out := make([]string, col.Len())
	for i := range out {
		if col.IsNull(i) {
			return nil, fmt.Errorf("null id at %s: every row needs an id in row-id mode", at(i))
		}
		switch c := col.(type) {
		case *array.Int8:
			out[i] = strconv.FormatInt(int64(c.Value(i)), 10)
		case *array.Int16:
			out[i] = strconv.FormatInt(int64(c.Value(i)), 10)
		case *array.Int32:
			out[i] = strconv.FormatInt(int64(c.Value(i)), 10)
		case *array.Int64:
			out[i] = strconv.FormatInt(c.Value(i), 10)
		case *array.String:
			out[i] = c.Value(i)
		case *array.LargeString:
			out[i] = c.Value(i)
		default:
			return nil, fmt.Errorf("job: id column of arrow type %s is not supported", col.DataType())
		}
	}
	return out, nil
}

// rowAt names row r (0-based within the file, header excluded) of a split's file for messages.
func rowAt(path string, r int64) string { return fmt.Sprintf("%s data row %d", path, r+1) }

// publishedIDs returns the ids published by live (not voided) windows before window w, each with
// the window that published it. It is maintained incrementally across windows of one run.
func (d *driver) publishedIDs(w int64) map[string]int64 {
	if d.pubIDs == nil {
		d.pubIDs, d.pubFrom = map[string]int64{}, map[int64]bool{}
	}
	for _, ws := range d.st.Windows() {
		if ws.Published == nil || ws.Voided != nil || d.pubFrom[ws.Window] {
			continue
		}
		d.pubFrom[ws.Window] = true
		for _, id := range ws.Published.IDs {
			d.pubIDs[id] = ws.Window
		}
	}
	if len(d.pubFrom) == 0 {
		return nil
	}
	// Windows are published in order, so every id here is from a window before w when w is being
	// assigned or run; filter only in the unusual case of a later window published first.
	for win := range d.pubFrom {
		if win >= w {
			out := map[string]int64{}
			for id, pw := range d.pubIDs {
				if pw < w {
					out[id] = pw
				}
			}
			return out
		}
	}
	return d.pubIDs
}

// checkWindowIDs reads only the id column of the given splits (the window about to be assigned as
// w) and fails with an input error naming file, row and id for an id seen twice in the window or
// already published by an earlier window.
func (d *driver) checkWindowIDs(ctx context.Context, w int64, splits []int) error {
	published := d.publishedIDs(w)
	field := d.t.Schema.Fields[d.idCol]
	proj := &spec.TableSchema{Fields: []spec.DataField{field}}
	opts := d.cfg.mapping
	opts.OpColumn, opts.IgnoreExtra = "", true // the op column and the other columns are not read
	seen := map[string]string{}
	for _, i := range d.st.InInputOrder(splits) {
		sp := d.plan[i]
		if err := func() error {
			r, err := d.cfg.Source.Open(ctx, sp, proj, opts)
			if err != nil {
				return &InputError{Err: err}
			}
			defer r.Close()
			for {
				b, err := r.Next(ctx)
				if errors.Is(err, io.EOF) {
					return nil
				}
				if err != nil {
					return &InputError{Err: err}
				}
				at := func(k int) string { return rowAt(sp.Path, b.FirstRow+int64(k)) }
				ids, err := idTexts(b.Record.Column(0), at)
				b.Record.Release()
				if err != nil {
					return &InputError{Err: err}
				}
				for k, id := range ids {
					if pw, ok := published[id]; ok {
						return &InputError{Err: fmt.Errorf("%w %q at %s: already loaded by window %d of job %s", ErrDuplicateID, id, at(k), pw, d.cfg.Name)}
					}
					if prev, ok := seen[id]; ok {
						return &InputError{Err: fmt.Errorf("%w %q at %s: also at %s (window %d)", ErrDuplicateID, id, at(k), prev, w)}
					}
					seen[id] = at(k)
				}
			}
		}(); err != nil {
			return err
		}
	}
	return nil
}

// idFilter is what a task needs in row-id mode: where the id is and which ids to skip.
type idFilter struct {
	col       int
	published map[string]int64 // ids published by earlier windows: skipped
}

// keep records the ids of rec's rows and returns which rows to write (nil: all of them).
func (f *idFilter) keep(rec arrow.RecordBatch, at func(int) string, ids *[]string) ([]bool, error) {
	texts, err := idTexts(rec.Column(f.col), at)
	if err != nil {
		return nil, &InputError{Err: err}
	}
	var keep []bool
	for k, id := range texts {
		if _, done := f.published[id]; done {
			if keep == nil {
				keep = make([]bool, len(texts))
				for j := range k {
					keep[j] = true
				}
			}
			continue
		}
		if keep != nil {
			keep[k] = true
		}
		*ids = append(*ids, id)
	}
	return keep, nil
}

// publishedOf returns the sorted union of the ids of an attempt's results.
func publishedOf(results []checkpoint.TaskResult) checkpoint.IDList {
	var out checkpoint.IDList
	for _, r := range results {
		out = append(out, r.IDs...)
	}
	slices.Sort(out)
	return out
}
