package sweep

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/internal/canon"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// openTable opens the world's table without fault injection.
func (w *world) openTable(ctx context.Context) (*table.Table, error) {
	return table.Open(ctx, w.fs, w.l.tablePath(), w.l.fx.Name)
}

// checkFiles walks every snapshot: its manifests must read and every live data file (and deletion
// vector index file) must exist.
func (w *world) checkFiles(ctx context.Context) error {
	tbl, err := w.openTable(ctx)
	if err != nil {
		return fmt.Errorf("open table: %w", err)
	}
	ids, err := tbl.Snapshots().IDs(ctx)
	if err != nil {
		return fmt.Errorf("list snapshots: %w", err)
	}
	paths := tbl.NewPaths()
	for _, id := range ids {
		plan, err := read.Scan(ctx, tbl, read.ScanOptions{SnapshotID: id})
		if err != nil {
			return fmt.Errorf("snapshot %d: manifests do not read: %w", id, err)
		}
		for _, s := range plan.Splits {
			for _, f := range s.Files {
				p, err := paths.DataFile(s.Partition, s.Bucket, f.FileName, f.ExternalPath)
				if err != nil {
					return fmt.Errorf("snapshot %d: %w", id, err)
				}
				if err := mustExist(ctx, w.fs, p); err != nil {
					return fmt.Errorf("snapshot %d references data file %s: %w", id, p, err)
				}
			}
			for _, d := range s.Deletions {
				p := fileio.Join(paths.IndexDir(), d.IndexFile)
				if err := mustExist(ctx, w.fs, p); err != nil {
					return fmt.Errorf("snapshot %d references index file %s: %w", id, p, err)
				}
			}
		}
	}
	return nil
}

func mustExist(ctx context.Context, fs fileio.FileIO, p string) error {
	ok, err := fileio.Exists(ctx, fs, p)
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("missing")
	}
	return nil
}

// storeView is what the checkpoint store claims, checked against the table.
type storeView struct {
	loaded        bool
	done          bool
	publishedRows int64
	publishedSpl  []int
}

// checkClaims checks that every window the store marks committed or published is committed in the
// table: by exactly one APPEND snapshot of the job's commit user naming the window and the attempt,
// or (snapshot 0) as an empty window. A store that does not load is reported in loaded=false, not
// as an error (the resume must cope with it; its success is checked separately).
func (w *world) checkClaims(ctx context.Context) (storeView, error) {
	var v storeView
	st, err := checkpoint.NewStore(w.fs, w.l.storePath()).Load(ctx)
	if err != nil {
		return v, nil
	}
	v.loaded = true
	_, v.done = st.Done()
	rec, hasJob := st.Job()
	if !hasJob {
		return v, nil
	}
	tbl, err := w.openTable(ctx)
	if err != nil {
		return v, err
	}
	for _, ws := range st.Windows() {
		c, p := ws.Committed, ws.Published
		if p != nil {
			if c == nil {
				return v, fmt.Errorf("window %d published but not committed in the store", ws.Window)
			}
			v.publishedRows += p.Rows
			v.publishedSpl = append(v.publishedSpl, p.Splits...)
		}
		if c == nil {
			continue
		}
		found, err := tbl.Snapshots().FindCommits(ctx,
			table.CommitQuery{User: rec.CommitUser, Identifier: ws.Window, Kind: spec.CommitKindAppend}, 0)
		if err != nil {
			return v, fmt.Errorf("find commits of window %d: %w", ws.Window, err)
		}
		if c.SnapshotID == 0 {
			if len(found) != 0 {
				return v, fmt.Errorf("window %d recorded empty but snapshot %d commits it", ws.Window, found[0].ID)
			}
			continue
		}
		if len(found) != 1 || found[0].ID != c.SnapshotID {
			return v, fmt.Errorf("window %d: store says committed in snapshot %d, the table has %d marker(s) %v",
				ws.Window, c.SnapshotID, len(found), ids(found))
		}
		if a := found[0].Properties[checkpoint.PropAttempt]; a != strconv.Itoa(c.Attempt) {
			return v, fmt.Errorf("window %d: store says attempt %d, marker snapshot %d says %s", ws.Window, c.Attempt, c.SnapshotID, a)
		}
	}
	return v, nil
}

func ids(s []*spec.Snapshot) []int64 {
	var out []int64
	for _, x := range s {
		out = append(out, x.ID)
	}
	return out
}

// checkFinal checks a finished job: the store says done, every input row is published once,
// every split of the plan exactly once, and the table equals the model.
func (w *world) checkFinal(ctx context.Context) error {
	if err := w.checkFiles(ctx); err != nil {
		return err
	}
	v, err := w.checkClaims(ctx)
	if err != nil {
		return err
	}
	if !v.loaded || !v.done {
		return fmt.Errorf("after the resume the store loads=%v done=%v", v.loaded, v.done)
	}
	if v.publishedRows != int64(w.l.fx.Rows()) {
		return fmt.Errorf("published %d rows, the input has %d", v.publishedRows, w.l.fx.Rows())
	}
	sort.Ints(v.publishedSpl)
	for i := 1; i < len(v.publishedSpl); i++ {
		if v.publishedSpl[i] == v.publishedSpl[i-1] {
			return fmt.Errorf("split %d published twice", v.publishedSpl[i])
		}
	}
	got, err := w.lines(ctx)
	if err != nil {
		return err
	}
	if !slices.Equal(got, w.l.expected) {
		return fmt.Errorf("table differs from the model: %d rows, want %d%s", len(got), len(w.l.expected), loadtest.Diff(w.l.expected, got))
	}
	return nil
}

// lines reads the table's latest snapshot as sorted canonical lines.
func (w *world) lines(ctx context.Context) ([]string, error) {
	tbl, err := w.openTable(ctx)
	if err != nil {
		return nil, err
	}
	schema, rows, err := read.Rows(ctx, tbl, read.ScanOptions{})
	if err != nil {
		return nil, fmt.Errorf("read table: %w", err)
	}
	out, err := canon.Rows(schema.Fields, rows)
	if err != nil {
		return nil, err
	}
	sort.Strings(out)
	return out, nil
}
