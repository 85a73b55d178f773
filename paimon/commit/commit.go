package commit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// BatchIdentifier is the commit identifier of one-shot batch writes (Java BatchWriteBuilder: Long.MAX_VALUE).
const BatchIdentifier int64 = math.MaxInt64

// ErrConflict is returned (wrapped) when a commit conflicts with files changed by another writer; it is not retried.
var ErrConflict = errors.New("paimon: commit conflict")

// ErrUnknownOutcome is returned (wrapped) when the last attempt's outcome could not be determined;
// the caller must look the commit up (table.Snapshots.FindCommit) before trying again.
var ErrUnknownOutcome = errors.New("paimon: commit outcome unknown")

// Options describe one commit.
type Options struct {
	User       string            // commit user; required
	Identifier int64             // commit identifier; BatchIdentifier for one-shot writes
	Kind       spec.CommitKind   // default APPEND
	Properties map[string]string // snapshot properties (markers)
	// LookupAfter, when >= 0, makes the first attempt look for (User, Identifier, Kind) among the snapshots
	// newer than this id and return it instead of committing again. Set it to -1 to skip the lookup.
	LookupAfter int64
	MaxRetries  int              // attempts after losing the snapshot race; default: table option commit.max-retries (min 10)
	Now         func() time.Time // clock; default time.Now
	// BeforeSnapshot, if set, runs after the manifests are written and before snapshot-N is created (fault injection).
	BeforeSnapshot func(id int64) error

	index []manifest.IndexManifestEntry // index files the messages delete and add (set by Commit)
	// Overwrite, if set, makes the commit an OVERWRITE that replaces the partitions (or the table) it
	// names; msgs must then hold new files only. Kind is set to OVERWRITE.
	Overwrite *Overwrite
}

// Result tells which snapshot holds the commit.
type Result struct {
	SnapshotID       int64 // 0 when there was nothing to commit
	AlreadyCommitted bool  // the commit was found in the table, nothing new was written
	Retries          int   // snapshot races lost
}

// Commit writes msgs as one snapshot of t. Empty input commits nothing.
func Commit(ctx context.Context, t *table.Table, msgs []table.CommitMessage, o Options) (Result, error) {
	if o.User == "" {
		return Result{}, errors.New("commit: empty commit user")
	}
	if o.Kind == "" {
		o.Kind = spec.CommitKindAppend
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.MaxRetries <= 0 {
		o.MaxRetries = max(10, t.Options.CommitMaxRetries())
	}
	for _, m := range msgs { // nothing outside the table enters a manifest
		if err := t.CheckMessage(m, fmt.Sprintf("commit message for bucket %d", m.Bucket)); err != nil {
			return Result{}, fmt.Errorf("commit: %w", err)
		}
	}
	entries := toEntries(msgs)
	adds := entries
	if o.Overwrite != nil {
		o.Kind = spec.CommitKindOverwrite
		for _, m := range msgs {
			if len(m.DeletedFiles) > 0 || len(m.DeletedIndexFiles) > 0 {
				return Result{}, errors.New("commit: an overwrite commit computes its deletions itself; messages must not delete data or index files")
			}
		}
	} else if len(entries) == 0 && len(indexChanges(msgs)) == 0 {
		return Result{}, nil
	}
	o.index = indexChanges(msgs)
	snaps := t.Snapshots()
	q := table.CommitQuery{User: o.User, Identifier: o.Identifier, Kind: o.Kind}
	mio := manifestIO{t: t, paths: t.NewPaths()}

	lookupAfter := o.LookupAfter
	var delta []manifest.ManifestFileMeta
	res := Result{}
	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		latest, err := snaps.Latest(ctx)
		if err != nil {
			return res, err
		}
		if lookupAfter >= 0 {
			found, err := snaps.FindCommit(ctx, q, lookupAfter)
			if err != nil {
				return res, err
			}
			if found != nil {
				res.SnapshotID, res.AlreadyCommitted = found.ID, true
				return res, nil
			}
		}
		var latestID int64
		if latest != nil {
			latestID = latest.ID
		}
		if o.Overwrite != nil {
			// The files replaced are those live in the snapshot this attempt builds on.
			var idxDeletes []manifest.IndexManifestEntry
			if entries, idxDeletes, err = overwriteEntries(ctx, t, latest, adds, o.Overwrite); err != nil {
				return res, err
			}
			o.index = append(idxDeletes, indexChanges(msgs)...)
			if len(entries) == 0 && len(o.index) == 0 {
				return res, nil // nothing to delete or add
			}
			delta = nil
		}
		if delta == nil {
			if delta, err = mio.writeManifests(ctx, entries, manifestChunk); err != nil {
				return res, err
			}
		}
		snap, err := plan(ctx, t, mio, latest, entries, delta, o)
		if err != nil {
			return res, err
		}
		if o.BeforeSnapshot != nil {
			if err := o.BeforeSnapshot(snap.ID); err != nil {
				return res, err
			}
		}
		err = snaps.Commit(ctx, snap)
		if err == nil {
			res.SnapshotID = snap.ID
			return res, nil
		}
		if errors.Is(err, table.ErrCommitRefused) {
			return res, fmt.Errorf("commit to %s: %w", t.Path, err) // certainly not created; a retry is refused again
		}
		unknown := !errors.Is(err, table.ErrSnapshotExists)
		if !unknown {
			res.Retries++
			// Someone else took the id; our commit is certainly not in it, so keep no lookup beyond what
			// was already required, but a lookup is cheap and protects against a racing duplicate of ourselves.
			lookupAfter = latestID
		} else {
			// Unknown outcome: the file may exist. Look for it before trying again.
			lookupAfter = latestID
			if ctx.Err() != nil {
				return res, fmt.Errorf("%w: %v", ErrUnknownOutcome, err)
			}
		}
		if attempt >= o.MaxRetries {
			if unknown {
				// The last attempt may have landed: the caller must look it up before trying again.
				return res, fmt.Errorf("commit to %s failed after %d attempts: %w: %w", t.Path, attempt+1, ErrUnknownOutcome, err)
			}
			return res, fmt.Errorf("commit to %s failed after %d attempts: %w", t.Path, attempt+1, err)
		}
		backoff(ctx, attempt)
	}
}

const manifestChunk = 20000

func backoff(ctx context.Context, attempt int) {
	d := time.Duration(10<<min(attempt, 10)) * time.Millisecond
	d = min(d, 10*time.Second)
	d = d/2 + time.Duration(rand.Int64N(int64(d/2)+1))
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

func toEntries(msgs []table.CommitMessage) []manifest.ManifestEntry {
	var out []manifest.ManifestEntry
	for _, m := range msgs {
		for _, f := range m.DeletedFiles {
			out = append(out, manifest.ManifestEntry{Kind: manifest.Delete, Partition: m.Partition, Bucket: m.Bucket, TotalBuckets: m.TotalBuckets, File: f})
		}
		for _, f := range m.NewFiles {
			out = append(out, manifest.ManifestEntry{Kind: manifest.Add, Partition: m.Partition, Bucket: m.Bucket, TotalBuckets: m.TotalBuckets, File: f})
		}
	}
	return out
}

// plan builds the snapshot that adds delta on top of latest, writing its base manifest list.
func plan(ctx context.Context, t *table.Table, mio manifestIO, latest *spec.Snapshot, entries []manifest.ManifestEntry,
	delta []manifest.ManifestFileMeta, o Options) (*spec.Snapshot, error) {
	var base []manifest.ManifestFileMeta
	var err error
	if latest != nil {
		if base, err = t.DataManifests(ctx, latest); err != nil {
			return nil, err
		}
	}
	if err := checkConflicts(ctx, t, base, entries, o.Kind); err != nil {
		return nil, err
	}
	indexManifest, err := planIndex(ctx, t, mio, latest, o.index)
	if err != nil {
		return nil, err
	}
	if base, err = mergeManifests(ctx, t, mio, base); err != nil {
		return nil, err
	}
	baseName, baseSize, err := mio.writeList(ctx, base)
	if err != nil {
		return nil, err
	}
	deltaName, deltaSize, err := mio.writeList(ctx, delta)
	if err != nil {
		return nil, err
	}
	var deltaRows int64
	for _, e := range entries {
		if e.Kind == manifest.Add {
			deltaRows += e.File.RowCount
		} else {
			deltaRows -= e.File.RowCount
		}
	}
	s := &spec.Snapshot{
		Version:               3,
		ID:                    1,
		SchemaID:              t.Schema.ID,
		BaseManifestList:      baseName,
		BaseManifestListSize:  &baseSize,
		DeltaManifestList:     deltaName,
		DeltaManifestListSize: &deltaSize,
		CommitUser:            o.User,
		CommitIdentifier:      o.Identifier,
		CommitKind:            o.Kind,
		TimeMillis:            o.Now().UnixMilli(),
		DeltaRecordCount:      &deltaRows,
		IndexManifest:         indexManifest,
	}
	if len(o.Properties) > 0 {
		s.Properties = o.Properties
	}
	var total, nextRowID int64
	if latest != nil {
		s.ID = latest.ID + 1
		s.Watermark = latest.Watermark
		if latest.SchemaID == t.Schema.ID {
			s.Statistics = latest.Statistics
		}
		if latest.NextRowID != nil {
			nextRowID = *latest.NextRowID
		}
		if latest.TotalRecordCount != nil {
			total = *latest.TotalRecordCount
		} else if total, err = countRows(ctx, t, latest); err != nil {
			return nil, err
		}
	}
	total += deltaRows
	s.TotalRecordCount = &total
	s.NextRowID = &nextRowID
	return s, nil
}

func countRows(ctx context.Context, t *table.Table, s *spec.Snapshot) (int64, error) {
	live, err := t.LiveFiles(ctx, s)
	if err != nil {
		return 0, err
	}
	var n int64
	for _, e := range live {
		n += e.File.RowCount
	}
	return n, nil
}
