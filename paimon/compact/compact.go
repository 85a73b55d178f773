package compact

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// CommitUserPrefix starts the commit user of every compaction snapshot lakeload writes.
const CommitUserPrefix = "lakeload-compact-"

// ErrUnsupported is returned (wrapped) for tables lakeload cannot compact; the error names the option.
var ErrUnsupported = errors.New("table not supported for compaction")

// BucketResult describes the compaction of one (partition, bucket).
type BucketResult struct {
	Partition   string // partition directory, e.g. "dt=2024-01-01/" ("" when unpartitioned)
	Bucket      int32
	OutputLevel int32
	Inputs      int // files deleted
	Outputs     int // files added
}

// Result describes one compaction.
type Result struct {
	SnapshotID  int64 // the COMPACT snapshot; 0 when nothing needed compaction
	BaseID      int64 // the snapshot the compaction read
	CommitUser  string
	FilesBefore int // live data files in the selected partitions before
	FilesAfter  int // and after
	Buckets     []BucketResult
	Attempts    int // fresh scans (1 unless a concurrent commit conflicted)
}

// Table compacts t (see Run) and returns the COMPACT snapshot's id, 0 when nothing needed compaction.
// A load job calls it after a window commit and before publishing.
func Table(ctx context.Context, t *table.Table, o Options) (int64, error) {
	r, err := Run(ctx, t, o)
	return r.SnapshotID, err
}

// Run compacts the buckets of t's latest snapshot that need it (universal compaction, or every
// bucket with o.Full; for deletion-vector and first-row tables every bucket holding level-0 files)
// and commits one COMPACT snapshot. On a commit conflict it deletes its outputs and starts again
// from a fresh scan, up to o.MaxAttempts times.
func Run(ctx context.Context, t *table.Table, o Options) (Result, error) {
	if err := CheckCompactable(t); err != nil {
		return Result{}, err
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 3
	}
	if o.CommitUser == "" {
		o.CommitUser = CommitUserPrefix + uuid.NewString()
	}
	strategy, err := StrategyOf(t)
	if err != nil {
		return Result{}, err
	}
	filter, err := partitionFilter(t, o.Partition)
	if err != nil {
		return Result{}, err
	}
	for attempt := 1; ; attempt++ {
		p, err := planAndRewrite(ctx, t, o, strategy, filter, attempt)
		if err != nil {
			return Result{}, err
		}
		p.res.Attempts, p.res.CommitUser = attempt, o.CommitUser
		if len(p.msgs) == 0 {
			return p.res, nil
		}
		if o.BeforeCommit != nil {
			if err := o.BeforeCommit(); err != nil {
				return p.res, errors.Join(err, p.abort(ctx))
			}
		}
		cr, err := commit.Commit(ctx, t, p.msgs, commit.Options{
			User: o.CommitUser, Identifier: commit.BatchIdentifier, Kind: spec.CommitKindCompact,
			LookupAfter: p.res.BaseID, Now: o.Now,
		})
		if err == nil {
			p.res.SnapshotID = cr.SnapshotID
			return p.res, nil
		}
		if !errors.Is(err, commit.ErrConflict) {
			// The outcome may be unknown: keep the outputs, a landed snapshot may reference them.
			return p.res, fmt.Errorf("compact %s: %w", t.Path, err)
		}
		if aerr := p.abort(ctx); aerr != nil {
			return p.res, fmt.Errorf("compact %s: %w (and removing its outputs failed: %v)", t.Path, err, aerr)
		}
		if attempt >= o.MaxAttempts {
			return p.res, fmt.Errorf("compact %s: %d attempts conflicted with concurrent commits, last: %w; run the compaction again when writers to these buckets are idle", t.Path, attempt, err)
		}
	}
}

// CheckCompactable refuses tables whose compaction lakeload cannot do faithfully; the error names the
// option at fault and what to do.
func CheckCompactable(t *table.Table) error {
	fail := func(format string, a ...any) error {
		return fmt.Errorf("%w: table %s: %s", ErrUnsupported, t.Path, fmt.Sprintf(format, a...))
	}
	if cp := t.Options.ChangelogProducer(); cp != "" && cp != "none" {
		return fail("changelog-producer=%s: Java's compaction writes changelog files for this table, which lakeload does not; compact it with Java Paimon (Flink/Spark compact action)", cp)
	}
	if f := strings.ToLower(t.Options.FileFormat()); f != "parquet" {
		return fail("file.format=%s: lakeload writes parquet only; compact it with Java Paimon", f)
	}
	if mf := t.Options.ManifestFormat(); !strings.EqualFold(mf, "avro") {
		return fail("manifest.format=%s: lakeload writes Avro manifests, which Java would read as %s; compact it with Java Paimon", mf, mf)
	}
	if !t.HasPrimaryKey() && t.Options.DeletionVectorsEnabled() {
		return fail("deletion-vectors.enabled=true on an append table: compacting it needs its deletion-vector index rewritten per file, which lakeload does not do yet; compact it with Java Paimon")
	}
	if on, _ := t.Options.RowTrackingEnabled(); on {
		return fail("row-tracking.enabled=true is not supported; compact it with Java Paimon")
	}
	if on, _ := t.Options.DataEvolutionEnabled(); on {
		return fail("data-evolution.enabled=true is not supported; compact it with Java Paimon")
	}
	return nil
}

// fullRewriteOnly reports whether t's level-0 files are hidden from Java's batch reads, so that
// compaction must rewrite whole buckets into the highest level (no deletion vectors needed).
func fullRewriteOnly(t *table.Table) bool {
	return t.HasPrimaryKey() && (t.Options.DeletionVectorsEnabled() || t.Options.MergeEngine() == "first-row")
}
