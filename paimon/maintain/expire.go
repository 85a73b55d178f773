package maintain

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// File kinds reported in Deleted.
const (
	KindData          = "data"
	KindChangelog     = "changelog"
	KindManifest      = "manifest"
	KindManifestList  = "manifest-list"
	KindIndexManifest = "index-manifest"
	KindIndex         = "index"
	KindStatistics    = "statistics"
	KindSnapshot      = "snapshot"
	KindConsumer      = "consumer"
	KindOrphan        = "orphan"
)

// Deleted is one file a maintenance run deleted (or, in a dry run, would delete).
type Deleted struct {
	Path string
	Kind string // one of the Kind* constants
	Size int64  // bytes; 0 when not known (Expire does not stat files)
}

// ExpireResult reports an Expire run.
type ExpireResult struct {
	Earliest  int64     // earliest snapshot before the run; 0 when the table has none
	Latest    int64     // latest snapshot; 0 when the table has none
	Begin     int64     // expired range [Begin, End); nothing expired when Begin == End
	End       int64     // the earliest snapshot after the run
	Expired   []int64   // ids of the snapshots expired, ascending
	Consumers []string  // ids of the expired consumers deleted
	Files     []Deleted // every file deleted, in order (snapshot files last)
	DryRun    bool
}

// Expire removes the snapshots of t that o allows to go, oldest first, with the files that only
// they reference, following Java's ExpireSnapshotsImpl (see the package invariants). Expired
// consumers are deleted first so that they no longer hold snapshots back. With o.DryRun nothing is
// deleted and the result lists what would be.
func Expire(ctx context.Context, t *table.Table, o ExpireOptions) (ExpireResult, error) {
	res := ExpireResult{DryRun: o.DryRun}
	if err := o.validate(t.Options); err != nil {
		return res, fmt.Errorf("expire %s: %w", t.Path, err)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	now := o.Now()
	rep := &reporter{fn: o.Progress, deleted: func() (int, int64) { return len(res.Files), 0 }}
	minNext, err := expireConsumers(ctx, t, o, now, &res, rep)
	if err != nil {
		return res, err
	}
	snaps := t.Snapshots()
	latest, ok, err := snaps.LatestID(ctx)
	if err != nil || !ok {
		return res, err
	}
	earliest, ok, err := snaps.EarliestID(ctx)
	if err != nil || !ok {
		return res, err
	}
	res.Earliest, res.Latest, res.Begin, res.End = earliest, latest, earliest, earliest

	minID := max(latest-int64(o.RetainMax)+1, earliest)
	maxExclusive := latest - int64(o.RetainMin) + 1
	if minNext > 0 {
		maxExclusive = min(maxExclusive, minNext)
	}
	maxExclusive = min(maxExclusive, earliest+int64(o.MaxDeletes))
	olderThanMillis := now.Add(-o.TimeRetained).UnixMilli()
	end := maxExclusive
	for id := minID; id < maxExclusive; id++ {
		s, err := snaps.Get(ctx, id)
		if errors.Is(err, fileio.ErrNotExist) {
			continue // expired by another process meanwhile
		}
		if err != nil {
			return res, err
		}
		if olderThanMillis <= s.TimeMillis {
			end = id
			break
		}
	}
	if !o.DryRun {
		// Check every name first: a name outside the table stops the run before anything is deleted,
		// so a refused expire leaves the snapshots it was expiring whole (readable by time travel).
		plan, po := ExpireResult{DryRun: true}, o
		po.DryRun, po.Progress = true, nil
		if err := expireUntil(ctx, t, po, earliest, end, &plan, &reporter{}); refused(err) {
			return res, err
		}
	}
	return res, expireUntil(ctx, t, o, earliest, end, &res, rep)
}

// refused reports whether err is expire's refusal of a name or path outside the table.
func refused(err error) bool { return unsafeName(err) || errors.Is(err, fileio.ErrOutside) }

// expireConsumers deletes consumers older than o.ConsumerExpiration and returns the smallest
// nextSnapshot of the others (0: none pins).
func expireConsumers(ctx context.Context, t *table.Table, o ExpireOptions, now time.Time, res *ExpireResult, rep *reporter) (int64, error) {
	cs, err := Consumers(ctx, t)
	if err != nil {
		return 0, err
	}
	rep.step(StepConsumers, len(cs))
	var minNext int64
	for _, c := range cs {
		if expiredConsumer(c, now, o.ConsumerExpiration) {
			res.Consumers = append(res.Consumers, c.ID)
			if err := deleteFile(ctx, t, o.DryRun, Deleted{Path: consumerPath(t, c.ID), Kind: KindConsumer}, &res.Files); err != nil {
				return 0, err
			}
			rep.item()
			continue
		}
		rep.item()
		if !o.IgnoreConsumers && (minNext == 0 || c.NextSnapshot < minNext) {
			minNext = c.NextSnapshot
		}
	}
	return minNext, nil
}

// expireUntil expires the existing snapshots in [earliest, end) (Java innerExpireUntil).
func expireUntil(ctx context.Context, t *table.Table, o ExpireOptions, earliest, end int64, res *ExpireResult, rep *reporter) error {
	snaps := t.Snapshots()
	hint := fileio.Join(t.Path, "snapshot", "EARLIEST")
	if end <= earliest {
		// Nothing to expire: write EARLIEST once so readers find the earliest directly (Java).
		if exists, err := fileio.Exists(ctx, t.FS, hint); err == nil && !exists && !o.DryRun {
			_ = fileio.WriteFile(ctx, t.FS, hint, []byte(strconv.FormatInt(earliest, 10)))
		}
		return nil
	}
	var including []*spec.Snapshot // existing snapshots of [earliest, end]
	for id := earliest; id <= end; id++ {
		s, err := snaps.Get(ctx, id)
		if errors.Is(err, fileio.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		including = append(including, s)
	}
	if len(including) == 0 {
		return nil
	}
	begin := including[0].ID
	last := including[len(including)-1]
	excluding := including
	if last.ID == end {
		excluding = including[:len(including)-1]
	}
	res.Begin, res.End = begin, end
	tags, err := taggedSnapshots(ctx, t)
	if err != nil {
		return err
	}
	d := newDeletion(t, o.DryRun, res)
	d.rep = rep

	// Data files DELETEd by the deltas of (begin, end]: no snapshot from end on uses them.
	rep.step(StepDataFiles, len(including)-1)
	for _, s := range including {
		if s.ID == begin {
			continue
		}
		skip, err := d.tagSkipper(ctx, tags, s.ID)
		if unsafeName(err) {
			return err
		}
		if err == nil { // else, as Java: without the tag's file set, keep this snapshot's files
			if err := d.cleanUnusedDataFiles(ctx, s, skip); err != nil {
				return err
			}
		}
		rep.item()
	}
	// Changelog files of the expired snapshots.
	rep.step(StepChangelogs, len(excluding))
	for _, s := range excluding {
		if s.ChangelogManifestList != nil && *s.ChangelogManifestList != "" {
			if err := d.deleteAddedFiles(ctx, *s.ChangelogManifestList); err != nil {
				return err
			}
		}
		rep.item()
	}
	if last.ID != end {
		return nil // snapshot end vanished meanwhile: keep the metadata (Java)
	}
	keep, err := d.skippingSet(ctx, append(skippingTags(tags, begin, end), last))
	if unsafeName(err) {
		return err
	}
	if err == nil {
		rep.step(StepMetadata, len(excluding))
		for _, s := range excluding {
			if err := d.cleanUnusedMetadata(ctx, s, keep); err != nil {
				return err
			}
			rep.item()
		}
	} // else: as Java, leave the metadata (orphan cleaning removes it later) but expire the snapshots
	rep.step(StepSnapshots, len(excluding))
	for _, s := range excluding {
		if err := deleteFile(ctx, t, o.DryRun, Deleted{Path: snaps.Path(s.ID), Kind: KindSnapshot}, &res.Files); err != nil {
			return err
		}
		res.Expired = append(res.Expired, s.ID)
		rep.item()
	}
	if !o.DryRun {
		if err := fileio.WriteFile(ctx, t.FS, hint, []byte(strconv.FormatInt(end, 10))); err != nil {
			return fmt.Errorf("write EARLIEST hint %s (a hint only; snapshots %d..%d are expired): %w", hint, begin, end-1, err)
		}
	}
	return nil
}

// deleteFile deletes f (unless dryRun) and appends it to out. A missing file is not an error. Every
// delete goes through the table's delete guard (table.Table.Delete): a path outside the table, or
// below it through a symbolic link, is refused (in a dry run too, by the path's text) and stops the run.
func deleteFile(ctx context.Context, t *table.Table, dryRun bool, f Deleted, out *[]Deleted) error {
	var err error
	if dryRun {
		if _, ok := fileio.Within(f.Path, t.Roots()...); !ok {
			err = fmt.Errorf("%w: %s is not below %s", fileio.ErrOutside, f.Path, strings.Join(t.Roots(), " or "))
		}
	} else {
		err = t.Delete(ctx, f.Path)
	}
	if errors.Is(err, fileio.ErrOutside) {
		return fmt.Errorf("refusing to delete %s file %s: %w (the table's metadata or directories were altered; nothing outside the table is deleted)", f.Kind, f.Path, err)
	}
	if err != nil {
		return fmt.Errorf("delete %s file %s: %w (run the command again to finish)", f.Kind, f.Path, err)
	}
	*out = append(*out, f)
	return nil
}

// unsafeName reports whether err is a name in the table's metadata that names no file of the table
// (table.PathError). Expire tolerates unreadable metadata of expiring snapshots, as Java does, but
// never such a name: it stops, naming the metadata at fault.
func unsafeName(err error) bool {
	var pe *table.PathError
	return errors.As(err, &pe)
}
