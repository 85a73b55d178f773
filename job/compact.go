package job

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/lakeload/lakeload/job/task"
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

// compactWindow runs the compaction window w (committed as attempt a) calls for, before it is
// published: synchronously for tables hiding level 0, otherwise by starting an asynchronous one
// when a bucket needs it.
func (d *driver) compactWindow(ctx context.Context, w int64, a int) error {
	if d.cfg.Compaction == CompactionOff || !d.mode.commitsWindows() {
		return nil
	}
	msgs, err := d.windowMessages(ctx, w, a)
	if err != nil || !hasFiles(msgs) {
		return err // an empty window added no level-0 file
	}
	if why := hiddenLevel0(d.t); why != "" {
		return d.compactBeforePublish(ctx, w, why)
	}
	d.compactAsync(ctx, w, msgs)
	return nil
}

// windowMessages returns the commit messages of attempt a of window w.
func (d *driver) windowMessages(ctx context.Context, w int64, a int) ([]table.CommitMessage, error) {
	ws, _ := d.st.Window(w)
	at, ok := ws.Attempt(a)
	if !ok {
		st, err := d.store.Load(ctx)
		if err != nil {
			return nil, err
		}
		d.st = st
		ws, _ = st.Window(w)
		if at, ok = ws.Attempt(a); !ok {
			return nil, fmt.Errorf("job: window %d has no attempt %d to compact", w, a)
		}
	}
	return task.Messages(at.Results...)
}

// compactBeforePublish rewrites every bucket of the table holding level-0 files into the highest
// level (one COMPACT snapshot), so that window w's rows are visible to Java before it is published.
func (d *driver) compactBeforePublish(ctx context.Context, w int64, why string) error {
	if err := d.cfg.hook(ctx, PointBeforeCompact, w); err != nil {
		return err
	}
	start := time.Now()
	r, err := compact.Run(ctx, d.t, compact.Options{Now: d.cfg.Now,
		BeforeCommit: func() error { return d.cfg.hook(ctx, PointInsideCompact, w) }})
	if err != nil {
		return fmt.Errorf("window %d is committed but not yet published: table %s has %s, so its level-0 files must be compacted first, "+
			"and that failed: %w; run the load again to compact and publish it", w, d.t.Path, why, err)
	}
	if r.SnapshotID != 0 {
		d.res.Compactions++
		d.cfg.Logger.Info("window compacted before publish", "window", w, "snapshot", r.SnapshotID, "buckets", len(r.Buckets),
			"files_before", r.FilesBefore, "files_after", r.FilesAfter, "took", time.Since(start).Round(time.Millisecond))
	}
	return d.cfg.hook(ctx, PointAfterCompact, w)
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

// compactAsync records the level-0 files window w added and starts a background compaction when
// none is in flight and some bucket may need one.
func (d *driver) compactAsync(ctx context.Context, w int64, msgs []table.CommitMessage) {
	c := d.compactorState()
	if c.disabled {
		return
	}
	d.collectCompaction(false)
	for _, m := range msgs {
		for _, f := range m.NewFiles {
			if d.t.HasPrimaryKey() || f.FileSize < c.smallLim {
				c.added[bucketName(m.Partition, m.Bucket)]++
			}
		}
	}
	est := c.estimate()
	if c.inflight == nil && c.due(d.t, est) {
		d.startCompaction(ctx, w)
	}
	if c.inflight != nil && c.overStop(d.t, est) {
		// Back-pressure as Java's writers apply it: above num-sorted-run.stop-trigger the next window
		// waits for the compaction, so readers never merge more than stop-trigger+1 runs per bucket.
		d.cfg.Logger.Info("waiting for the background compaction: a bucket has more sorted runs than num-sorted-run.stop-trigger",
			"window", w, "stop_trigger", c.strategy.StopTrigger)
		d.collectCompaction(true)
	}
}

// startCompaction starts a background compaction of the table (window w's hook points).
func (d *driver) startCompaction(ctx context.Context, w int64) {
	c := d.comp
	// The scan below sees every file added so far; until its result arrives, count them as still there
	// (the stop-trigger back-pressure must not forget windows committed while it runs).
	c.known, c.added = c.estimate(), map[string]int{}
	cctx, cancel := context.WithCancel(ctx)
	ch := make(chan asyncCompaction, 1)
	c.inflight, c.cancel = ch, cancel
	t, now, hook := d.t, d.cfg.Now, d.cfg.Hook
	go func() {
		var out asyncCompaction
		defer func() { ch <- out }()
		if out.runs, out.err = runsPerBucket(cctx, t, c.smallLim); out.err != nil || !c.due(t, out.runs) {
			return
		}
		if out.err = hook(PointBeforeCompact, w); out.err != nil {
			return
		}
		out.res, out.err = compact.Run(cctx, t, compact.Options{Now: now, BeforeCommit: func() error { return hook(PointInsideCompact, w) }})
		if out.err != nil {
			return
		}
		if out.runs, out.err = runsPerBucket(cctx, t, c.smallLim); out.err == nil {
			out.err = hook(PointAfterCompact, w)
		}
	}()
}

// compactorState returns the run's compactor, creating it on first use.
func (d *driver) compactorState() *compactor {
	if d.comp != nil {
		return d.comp
	}
	c := &compactor{added: map[string]int{}, smallLim: d.t.Options.TargetFileSize(false) / 10 * 7}
	var err error
	if err = compact.CheckCompactable(d.t); err == nil {
		c.strategy, err = compact.StrategyOf(d.t)
	}
	if err != nil {
		c.disabled = true
		d.cfg.Logger.Info("compaction during the load is off for this table", "reason", err)
	}
	d.comp = c
	return c
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

// collectCompaction takes the result of the compaction in flight, waiting for it when wait is set.
func (d *driver) collectCompaction(wait bool) {
	c := d.comp
	if c == nil || c.inflight == nil {
		return
	}
	var out asyncCompaction
	if wait {
		out = <-c.inflight
	} else {
		select {
		case out = <-c.inflight:
		default:
			return
		}
	}
	c.cancel()
	c.inflight, c.cancel = nil, nil
	if out.err != nil {
		// c.known keeps the estimate folded in when it started: the next window retries while it is due.
		if !errors.Is(out.err, context.Canceled) {
			d.cfg.Logger.Warn("compaction during the load failed (the load goes on; the next window retries)", "err", out.err)
		}
		return
	}
	c.known = out.runs
	if out.res.SnapshotID != 0 {
		d.res.Compactions++
		d.cfg.Logger.Info("table compacted", "snapshot", out.res.SnapshotID, "buckets", len(out.res.Buckets),
			"files_before", out.res.FilesBefore, "files_after", out.res.FilesAfter)
	}
}

// endCompaction ends the run's background compaction: it waits for it after a successful run and
// cancels it after a failed one (runErr != nil), then returns runErr.
func (d *driver) endCompaction(runErr error) error {
	if c := d.comp; c != nil && c.inflight != nil && runErr != nil {
		c.cancel()
	}
	d.collectCompaction(true)
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
