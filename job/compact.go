package job

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/lakeload/lakeload/paimon/compact"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
)

// Compaction inside the load job (Config.Compaction, docs/protocol.md "Compaction").
//
// Deletion-vector and first-row tables hide level-0 files from Java's batch reads: for them a
// window's "publish" is compact-then-publish. After the window's commit is verified and recorded,
// every bucket holding level-0 files is rewritten into the highest level (paimon/compact) before
// `published` is written, so no published row is invisible to Java. Recovery publishes through the
// same path (afterCommitted), so a window found committed but not published is compacted first.
//
// Other tables are compacted asynchronously: at most one compaction in flight, started after a
// window's commit once some bucket has more sorted runs than num-sorted-run.compaction-trigger
// (append tables: compaction.min.file-num small files; counted from the windows' commit messages
// and the last compaction's scan), overlapping the next window's writing; a
// failure is logged and retried after a later window, it never fails the load. Window commits are
// APPEND snapshots that only add level-0 files, which commit conflict checks (as Java's) never
// reject, so a concurrent COMPACT cannot fail them; the COMPACT re-plans on top of the window.
// COMPACT snapshots carry their own commit user (lakeload-compact-<uuid>), so marker lookups by
// (job user, window, APPEND) never see them.

// Compaction modes of Config.Compaction.
const (
	CompactionAuto = "auto" // the default: compact as the job goes (see above)
	CompactionOff  = "off"  // never compact (refused for deletion-vector and first-row tables)
)

// Named points of the compaction a window triggers (Config.Hook). For deletion-vector and first-row
// tables they lie between PointAfterCommit and PointBeforePublish; for other tables they are called
// from the asynchronous compaction, and an error there abandons that compaction only.
const (
	PointBeforeCompact = "before-compact" // the window is committed; its compaction has not started
	PointInsideCompact = "inside-compact" // compaction outputs written, before the COMPACT commit
	PointAfterCompact  = "after-compact"  // COMPACT snapshot created (or nothing to compact)
)

// checkCompaction validates Config.Compaction against the table ("" becomes CompactionAuto).
func (c *Config) checkCompaction() error {
	if c.Compaction == "" { // Spec.Validate checked the value
		c.Compaction = CompactionAuto
	}
	why := hiddenLevel0(c.Table)
	if why == "" {
		return nil
	}
	if c.Compaction == CompactionOff {
		return fmt.Errorf("job: %w with compaction %q: table %s has %s, and Java's batch reads skip the level-0 files a load writes "+
			"until they are compacted, so the load would publish rows Java cannot see; use compaction %q (the default)",
			write.ErrUnsupportedTable, CompactionOff, c.Table.Path, why, CompactionAuto)
	}
	if err := compact.CheckCompactable(c.Table); err != nil {
		return fmt.Errorf("job: table %s has %s, so a load must compact every window before publishing it, but: %w", c.Table.Path, why, err)
	}
	return nil
}

// hiddenLevel0 names the option that makes Java's batch reads skip t's level-0 files, or "".
func hiddenLevel0(t *table.Table) string {
	switch {
	case !t.HasPrimaryKey():
		return ""
	case t.Options.DeletionVectorsEnabled():
		return "deletion-vectors.enabled=true"
	case t.Options.MergeEngine() == "first-row":
		return "merge-engine=first-row"
	}
	return ""
}

// compaction is the compaction inside one run of a load: the table as the job sees it and the
// parts of Config it needs, and the state of the asynchronous compaction (driver goroutine only).
type compaction struct {
	t      *table.Table // the job's table; useTable follows a schema change
	off    bool         // Config.Compaction is off, or the job's windows share one snapshot (overwrite)
	now    func() time.Time
	hook   func(point string, w int64) error // Config.Hook
	logger *slog.Logger
	count  *int       // Result.Compactions
	async  *compactor // nil until a window needs one
}

// newCompaction returns the compaction of a run of cfg on t whose windows are committed each on
// its own (commitsWindows) or not; it counts its COMPACT snapshots in count (Result.Compactions).
func newCompaction(cfg *Config, t *table.Table, commitsWindows bool, count *int) *compaction {
	return &compaction{t: t, off: cfg.Compaction == CompactionOff || !commitsWindows,
		now: cfg.Now, hook: cfg.Hook, logger: cfg.Logger, count: count}
}

// on reports whether a committed window is followed by compaction (window) before it is published.
func (c *compaction) on() bool { return !c.off }

// useTable makes later compactions use t (the table after a schema change; collect(true) first).
func (c *compaction) useTable(t *table.Table) { c.t = t }

// point calls the hook at a named point unless ctx has ended (Config.hook).
func (c *compaction) point(ctx context.Context, point string, w int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return c.hook(point, w)
}

// window runs the compaction window w (committed with msgs) calls for, before it is published:
// synchronously for tables hiding level 0, otherwise by starting an asynchronous one when a
// bucket needs it.
func (c *compaction) window(ctx context.Context, w int64, msgs []table.CommitMessage) error {
	if !hasFiles(msgs) {
		return nil // an empty window added no level-0 file
	}
	if why := hiddenLevel0(c.t); why != "" {
		return c.beforePublish(ctx, w, why)
	}
	c.startAsync(ctx, w, msgs)
	return nil
}

// beforePublish rewrites every bucket of the table holding level-0 files into the highest
// level (one COMPACT snapshot), so that window w's rows are visible to Java before it is published.
func (c *compaction) beforePublish(ctx context.Context, w int64, why string) error {
	if err := c.point(ctx, PointBeforeCompact, w); err != nil {
		return err
	}
	start := time.Now()
	r, err := compact.Run(ctx, c.t, compact.Options{Now: c.now,
		BeforeCommit: func() error { return c.point(ctx, PointInsideCompact, w) }})
	if err != nil {
		return fmt.Errorf("window %d is committed but not yet published: table %s has %s, so its level-0 files must be compacted first, "+
			"and that failed: %w; run the load again to compact and publish it", w, c.t.Path, why, err)
	}
	if r.SnapshotID != 0 {
		*c.count++
		c.logger.Info("window compacted before publish", "window", w, "snapshot", r.SnapshotID, "buckets", len(r.Buckets),
			"files_before", r.FilesBefore, "files_after", r.FilesAfter, "took", time.Since(start).Round(time.Millisecond))
	}
	return c.point(ctx, PointAfterCompact, w)
}

// compactor is the state of the asynchronous compaction of a run (driver goroutine only).
type compactor struct {
	strategy compact.Strategy
	smallLim int64          // append tables: files below this size are compaction inputs
	known    map[string]int // sorted runs (append: small files) per bucket at the last scan; nil: none yet
	added    map[string]int // level-0 files windows added since that scan started (or since the run started)
	inflight chan asyncCompaction
	cancel   context.CancelFunc
	disabled bool // the table cannot be compacted (logged once)
}

// asyncCompaction is what one background compaction reports.
type asyncCompaction struct {
	runs map[string]int // per bucket after it (nil on error)
	res  compact.Result
	err  error
}

// startAsync records the level-0 files window w added and starts a background compaction when
// none is in flight and some bucket may need one.
func (c *compaction) startAsync(ctx context.Context, w int64, msgs []table.CommitMessage) {
	a := c.asyncState()
	if a.disabled {
		return
	}
	c.collect(false)
	for _, m := range msgs {
		for _, f := range m.NewFiles {
			if c.t.HasPrimaryKey() || f.FileSize < a.smallLim {
				a.added[bucketName(m.Partition, m.Bucket)]++
			}
		}
	}
	est := a.estimate()
	if a.inflight == nil && a.due(c.t, est) {
		c.start(ctx, w)
	}
	if a.inflight != nil && a.overStop(c.t, est) {
		// Back-pressure as Java's writers apply it: above num-sorted-run.stop-trigger the next window
		// waits for the compaction, so readers never merge more than stop-trigger+1 runs per bucket.
		c.logger.Info("waiting for the background compaction: a bucket has more sorted runs than num-sorted-run.stop-trigger",
			"window", w, "stop_trigger", a.strategy.StopTrigger)
		c.collect(true)
	}
}

// start starts a background compaction of the table (window w's hook points).
func (c *compaction) start(ctx context.Context, w int64) {
	a := c.async
	// The scan below sees every file added so far; until its result arrives, count them as still there
	// (the stop-trigger back-pressure must not forget windows committed while it runs).
	a.known, a.added = a.estimate(), map[string]int{}
	cctx, cancel := context.WithCancel(ctx)
	ch := make(chan asyncCompaction, 1)
	a.inflight, a.cancel = ch, cancel
	t, now, hook := c.t, c.now, c.hook
	go func() {
		var out asyncCompaction
		defer func() { ch <- out }()
		if out.runs, out.err = runsPerBucket(cctx, t, a.smallLim); out.err != nil || !a.due(t, out.runs) {
			return
		}
		if out.err = hook(PointBeforeCompact, w); out.err != nil {
			return
		}
		out.res, out.err = compact.Run(cctx, t, compact.Options{Now: now, BeforeCommit: func() error { return hook(PointInsideCompact, w) }})
		if out.err != nil {
			return
		}
		if out.runs, out.err = runsPerBucket(cctx, t, a.smallLim); out.err == nil {
			out.err = hook(PointAfterCompact, w)
		}
	}()
}

// asyncState returns the run's compactor, creating it on first use.
func (c *compaction) asyncState() *compactor {
	if c.async != nil {
		return c.async
	}
	a := &compactor{added: map[string]int{}, smallLim: c.t.Options.TargetFileSize(false) / 10 * 7}
	var err error
	if err = compact.CheckCompactable(c.t); err == nil {
		a.strategy, err = compact.StrategyOf(c.t)
	}
	if err != nil {
		a.disabled = true
		c.logger.Info("compaction during the load is off for this table", "reason", err)
	}
	c.async = a
	return a
}

// estimate is the last scan's count per bucket plus the level-0 files added since. Before the first
// scan it counts only this run's files: a run does not read the table just to decide, so a small
// load (fewer windows per bucket than the trigger) never starts a background compaction and its
// I/O stays deterministic; the scan a compaction starts with sees the files of earlier runs too.
func (c *compactor) estimate() map[string]int {
	out := make(map[string]int, len(c.known)+len(c.added))
	for b, n := range c.known {
		out[b] = n
	}
	for b, n := range c.added {
		out[b] += n
	}
	return out
}

// due reports whether some bucket needs compaction: more sorted runs than
// num-sorted-run.compaction-trigger, or (append tables) compaction.min.file-num small files.
func (c *compactor) due(t *table.Table, runs map[string]int) bool {
	for _, n := range runs {
		if t.HasPrimaryKey() && n > c.strategy.Trigger || !t.HasPrimaryKey() && n >= max(2, c.strategy.AppendMinFiles) {
			return true
		}
	}
	return false
}

// overStop reports whether some bucket of a primary-key table has more sorted runs than
// num-sorted-run.stop-trigger.
func (c *compactor) overStop(t *table.Table, runs map[string]int) bool {
	if !t.HasPrimaryKey() {
		return false
	}
	for _, n := range runs {
		if n > c.strategy.StopTrigger {
			return true
		}
	}
	return false
}

// collect takes the result of the compaction in flight, waiting for it when wait is set.
func (c *compaction) collect(wait bool) {
	a := c.async
	if a == nil || a.inflight == nil {
		return
	}
	var out asyncCompaction
	if wait {
		out = <-a.inflight
	} else {
		select {
		case out = <-a.inflight:
		default:
			return
		}
	}
	a.cancel()
	a.inflight, a.cancel = nil, nil
	if out.err != nil {
		// a.known keeps the estimate folded in when it started: the next window retries while it is due.
		if !errors.Is(out.err, context.Canceled) {
			c.logger.Warn("compaction during the load failed (the load goes on; the next window retries)", "err", out.err)
		}
		return
	}
	a.known = out.runs
	if out.res.SnapshotID != 0 {
		*c.count++
		c.logger.Info("table compacted", "snapshot", out.res.SnapshotID, "buckets", len(out.res.Buckets),
			"files_before", out.res.FilesBefore, "files_after", out.res.FilesAfter)
	}
}

// end ends the run's background compaction: it waits for it after a successful run and cancels
// it after a failed one (runErr != nil), then returns runErr.
func (c *compaction) end(runErr error) error {
	if a := c.async; a != nil && a.inflight != nil && runErr != nil {
		a.cancel()
	}
	c.collect(true)
	return runErr
}

// runsPerBucket scans t's latest snapshot (every level) and counts per bucket the sorted runs of a
// primary-key table (each level-0 file, plus each non-empty higher level) or the files of an append
// table smaller than smallLim.
func runsPerBucket(ctx context.Context, t *table.Table, smallLim int64) (map[string]int, error) {
	plan, err := read.Scan(ctx, t, read.ScanOptions{AllLevels: true})
	if err != nil {
		return nil, err
	}
	out := map[string]int{}
	for _, s := range plan.Splits {
		n := 0
		levels := map[int32]bool{}
		for _, f := range s.Files {
			switch {
			case !t.HasPrimaryKey():
				if f.FileSize < smallLim {
					n++
				}
			case f.Level == 0:
				n++
			case !levels[f.Level]:
				levels[f.Level] = true
				n++
			}
		}
		out[bucketName(s.Partition, s.Bucket)] = n
	}
	return out, nil
}

// bucketName identifies a (partition, bucket) in the compactor's counts.
func bucketName(partition []byte, bucket int32) string {
	return string(partition) + "\x00" + strconv.Itoa(int(bucket))
}
