package plan

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/source"
)

// Revise checks the files of the candidate splits of the next window against the job's plan
// (splits, the live plan of st). A file that changed or vanished while any of its splits is
// assigned is an input error naming it. A file none of whose splits is assigned is re-planned: the
// returned revision drops its splits and, unless it vanished, puts its new splits (of about
// splitRows rows; CSV cut in dialect csv) in the place of its first one in the input order. A revision with no Reason means
// every file is unchanged. Revise writes nothing; the caller records the revision.
func Revise(ctx context.Context, fs fileio.FileIO, st checkpoint.State, splits []source.Split, candidates []int, splitRows int64,
	csv source.CSVDialect, log *slog.Logger, now time.Time) (checkpoint.PlanRevision, error) {
	remaining := map[int]bool{}
	for _, i := range st.Remaining() {
		remaining[i] = true
	}
	dropped := map[int]bool{}
	for _, i := range st.Dropped() {
		dropped[i] = true
	}
	rev := checkpoint.PlanRevision{Revision: len(st.Revisions()) + 1, Base: len(splits), Created: now.UTC()}
	var reasons []string
	checked := map[string]bool{}
	for _, c := range candidates {
		path := splits[c].Path
		if checked[path] {
			continue
		}
		checked[path] = true
		info, err := fs.Stat(ctx, path)
		gone := errors.Is(err, fileio.ErrNotExist)
		if err != nil && !gone {
			return checkpoint.PlanRevision{}, fmt.Errorf("check input file %s: %w", path, err)
		}
		if !gone && splits[c].CheckFingerprint(info) == nil {
			continue
		}
		// The file's live splits, in input order; the first one's place goes to its new splits.
		var own []int
		for i, s := range splits {
			if s.Path == path && !dropped[i] {
				own = append(own, i)
			}
		}
		own = st.InInputOrder(own)
		if slices.ContainsFunc(own, func(i int) bool { return !remaining[i] }) {
			// Some of its rows may be committed: the same error as for any assigned split.
			return checkpoint.PlanRevision{}, CheckFingerprints(ctx, fs, splits, own)
		}
		rev.Dropped = append(rev.Dropped, own...)
		if gone {
			log.Warn("input file vanished before any of its splits was assigned; skipped", "file", path, "splits", len(own))
			reasons = append(reasons, "vanished "+path)
			continue
		}
		fresh, err := planFile(ctx, fs, splits[c], info, splitRows, csv)
		if err != nil {
			return checkpoint.PlanRevision{}, err
		}
		added, err := EncodeSplits(fresh)
		if err != nil {
			return checkpoint.PlanRevision{}, err
		}
		for _, o := range added {
			rev.Added = append(rev.Added, o)
			rev.At = append(rev.At, own[0])
		}
		log.Info("input file replaced before any of its splits was assigned; re-planned", "file", path,
			"dropped", len(own), "added", len(fresh))
		reasons = append(reasons, "replaced "+path)
	}
	if len(reasons) == 0 {
		return checkpoint.PlanRevision{}, nil
	}
	slices.Sort(rev.Dropped)
	rev.Reason = strings.Join(reasons, "; ")
	return rev, nil
}

// planFile plans the current content of a re-planned file, described by info, like the first plan.
func planFile(ctx context.Context, fs fileio.FileIO, old source.Split, info fileio.FileInfo, splitRows int64, csv source.CSVDialect) ([]source.Split, error) {
	f := source.Split{Path: old.Path, Format: old.Format, Size: info.Size, ModTimeUnixNano: info.ModTime.UnixNano(), RowCount: -1}
	return CutFile(ctx, fs, f, splitRows, csv)
}
