package job

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/job/task"
	"github.com/lakeload/lakeload/paimon/spec"
)

// Row-id mode (Config.IDColumn): every row carries a unique id in a table column. Tasks record the
// ids they wrote in their results; the committed attempt's ids are published with the window; a row
// whose id an earlier window published is skipped, not written again. Duplicates are refused when a
// window is assigned: before the `assigned` record is written the driver reads the id column of the
// window's splits once (one extra read per window) and fails on an id seen twice in the window or
// already published by an earlier window.

// rowIDs is the driver's row-id state: the id column's position (-1: row-id mode is off), the ids
// published so far (id → window) with the windows they were gathered from, and the running
// window's filter.
type rowIDs struct {
	col       int
	published map[string]int64
	from      map[int64]bool
	filter    *task.IDFilter
}

// ErrDuplicateID is wrapped by the input error for an id found twice (row-id mode).
var ErrDuplicateID = errors.New("duplicate row id")

// publishedIDs returns the ids published by live (not voided) windows before window w, each with
// the window that published it. It is maintained incrementally across windows of one run.
func (d *driver) publishedIDs(w int64) map[string]int64 {
	if d.ids.published == nil {
		d.ids.published, d.ids.from = map[string]int64{}, map[int64]bool{}
	}
	for _, ws := range d.st.Windows() {
		if ws.Published == nil || ws.Voided != nil || d.ids.from[ws.Window] {
			continue
		}
		d.ids.from[ws.Window] = true
		for _, id := range ws.Published.IDs {
			d.ids.published[id] = ws.Window
		}
	}
	if len(d.ids.from) == 0 {
		return nil
	}
	// Windows are published in order, so every id here is from a window before w when w is being
	// assigned or run; filter only in the unusual case of a later window published first.
	for win := range d.ids.from {
		if win >= w {
			out := map[string]int64{}
			for id, pw := range d.ids.published {
				if pw < w {
					out[id] = pw
				}
			}
			return out
		}
	}
	return d.ids.published
}

// checkWindowIDs reads only the id column of the given splits (the window about to be assigned as
// w) and fails with an input error naming file, row and id for an id seen twice in the window or
// already published by an earlier window.
func (d *driver) checkWindowIDs(ctx context.Context, w int64, splits []int) error {
	published := d.publishedIDs(w)
	field := d.t.Schema.Fields[d.ids.col]
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
				at := func(k int) string { return task.RowAt(sp.Path, b.FirstRow+int64(k)) }
				ids, err := task.IDTexts(b.Record.Column(0), at)
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

// publishedOf returns the sorted union of the ids of an attempt's results.
func publishedOf(results []checkpoint.TaskResult) checkpoint.IDList {
	var out checkpoint.IDList
	for _, r := range results {
		out = append(out, r.IDs...)
	}
	slices.Sort(out)
	return out
}
