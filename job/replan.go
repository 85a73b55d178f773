package job

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/source"
)

// replan checks the files of the candidate splits of the next window. A file that changed or vanished
// while any of its splits is assigned is an input error naming it. A file none of whose splits is
// assigned is re-planned by a plan revision: its splits are dropped and, unless it vanished, its new
// splits take their place in the input order. replan reports whether it wrote a revision; the caller
// then picks the window again from the reloaded State.
func (d *driver) replan(ctx context.Context, candidates []int) (bool, error) {
	if d.cfg.InputFS == nil {
		return false, nil // a custom Source: splits are not files and are never re-planned
	}
	remaining := map[int]bool{}
	for _, i := range d.st.Remaining() {
		remaining[i] = true
	}
	dropped := map[int]bool{}
	for _, i := range d.st.Dropped() {
		dropped[i] = true
	}
	rev := checkpoint.PlanRevision{Revision: len(d.st.Revisions()) + 1, Base: len(d.plan), Created: d.cfg.Now().UTC()}
	var reasons []string
	checked := map[string]bool{}
	for _, c := range candidates {
		path := d.plan[c].Path
		if checked[path] {
			continue
		}
		checked[path] = true
		info, err := d.cfg.InputFS.Stat(ctx, path)
		gone := errors.Is(err, fileio.ErrNotExist)
		if err != nil && !gone {
			return false, fmt.Errorf("check input file %s: %w", path, err)
		}
		if !gone && d.plan[c].CheckFingerprint(info) == nil {
			continue
		}
		// The file's live splits, in input order; the first one's place goes to its new splits.
		var own []int
		for i, s := range d.plan {
			if s.Path == path && !dropped[i] {
				own = append(own, i)
			}
		}
		own = d.st.InInputOrder(own)
		if slices.ContainsFunc(own, func(i int) bool { return !remaining[i] }) {
			// Some of its rows may be committed: the same error as for any assigned split.
			return false, checkFingerprints(ctx, d.cfg.InputFS, d.plan, own)
		}
		rev.Dropped = append(rev.Dropped, own...)
		if gone {
			d.cfg.Logger.Warn("input file vanished before any of its splits was assigned; skipped", "file", path, "splits", len(own))
			reasons = append(reasons, "vanished "+path)
			continue
		}
		splits, err := d.planFile(ctx, d.plan[c], info)
		if err != nil {
			return false, err
		}
		added, err := encodeSplits(splits)
		if err != nil {
			return false, err
		}
		for _, o := range added {
			rev.Added = append(rev.Added, o)
			rev.At = append(rev.At, own[0])
		}
		d.cfg.Logger.Info("input file replaced before any of its splits was assigned; re-planned", "file", path,
			"dropped", len(own), "added", len(splits))
		reasons = append(reasons, "replaced "+path)
	}
	if len(reasons) == 0 {
		return false, nil
	}
	slices.Sort(rev.Dropped)
	rev.Reason = strings.Join(reasons, "; ")
	if err := d.store.WriteRevision(ctx, rev); err != nil {
		if errors.Is(err, fileio.ErrExist) {
			return false, fmt.Errorf("plan revision %d was written by another runner of job %s: only one runner may run a job", rev.Revision, d.cfg.Name)
		}
		return false, err
	}
	st, err := d.store.Load(ctx)
	if err != nil {
		return false, err
	}
	if d.plan, err = PlanSplits(st); err != nil {
		return false, err
	}
	d.st = st
	return true, nil
}

// planFile plans the current content of a re-planned file, described by info, like the first plan.
func (d *driver) planFile(ctx context.Context, old source.Split, info fileio.FileInfo) ([]source.Split, error) {
	f := source.Split{Path: old.Path, Format: old.Format, Size: info.Size, ModTimeUnixNano: info.ModTime.UnixNano(), RowCount: -1}
	return cutFile(ctx, d.cfg.InputFS, f, d.splitRows())
}
