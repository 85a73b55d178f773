package checkpoint

import (
	"context"
	"fmt"

	"github.com/lakeload/lakeload/fileio"
)

// Store is the checkpoint store of one job: a directory of write-once records on any fileio backend.
// It holds no state besides its location and a cache of the write-once records it has read
// (record_cache.go), so several Stores over one root are safe.
type Store struct {
	fs    fileio.FileIO
	root  string
	cache *recordCache
	fence func(context.Context) error // checked before every record write but the lease's and task results' (Fenced); nil: none
}

// NewStore returns the store rooted at root on fs. Nothing is read or written.
func NewStore(fs fileio.FileIO, root string) *Store {
	return &Store{fs: fs, root: root, cache: &recordCache{}}
}

// Root returns the store's root directory.
func (s *Store) Root() string { return s.root }

// FS returns the file system the store lives on.
func (s *Store) FS() fileio.FileIO { return s.fs }

// Fenced returns s with fence run before every record it writes, except the lease's and task results:
// a runner that holds the job's lease passes its lease check, so a runner overtaken while it was
// stopped writes no driver record after it wakes (docs/protocol.md, "Paused runners and expiry"). A
// straggler task's result is just another attempt (never committed unless exact and by a runner that
// holds the lease) and stays storable, as a worker's is. The copy shares s's location and record cache.
func (s *Store) Fenced(fence func(context.Context) error) *Store {
	c := *s
	c.fence = fence
	return &c
}

// write encodes v as a record of kind and creates path with it, once.
func (s *Store) write(ctx context.Context, path, kind string, v any, validate func() error) error {
	if s.fence != nil && kind != kindLease && kind != kindResult {
		if err := s.fence(ctx); err != nil {
			return err
		}
	}
	if err := validate(); err != nil {
		return fmt.Errorf("checkpoint: refusing to write invalid %s record %s: %v", kind, path, err)
	}
	b, err := encodeRecord(kind, v)
	if err != nil {
		return err
	}
	if err := s.fs.WriteIfAbsent(ctx, path, b); err != nil {
		return fmt.Errorf("checkpoint: write %s record: %w", kind, err)
	}
	return nil
}

// WriteJob creates job.json. Like every Write method it fails with an error wrapping
// fileio.ErrExist when the record already exists.
func (s *Store) WriteJob(ctx context.Context, j JobRecord) error {
	return s.write(ctx, fileio.Join(s.root, jobFile), kindJob, j, j.validate)
}

// WritePlan creates plan.json.
func (s *Store) WritePlan(ctx context.Context, p PlanRecord) error {
	return s.write(ctx, fileio.Join(s.root, planFile), kindPlan, p, func() error { return nil })
}

// WriteAssigned creates windows/<w>/assigned. ErrExist here means another driver assigned w.
func (s *Store) WriteAssigned(ctx context.Context, a Assigned) error {
	return s.write(ctx, s.AssignedPath(a.Window), kindAssigned, a, a.validate)
}

// WriteAttemptStart creates windows/<w>/attempt-<a>/begin. ErrExist means another driver began it.
func (s *Store) WriteAttemptStart(ctx context.Context, a AttemptStart) error {
	return s.write(ctx, s.AttemptStartPath(a.Window, a.Attempt), kindAttempt, a, a.validate)
}

// WriteResult computes r's digest and creates its .res record; it returns r with Digest set. A
// task counts as done only after this returns nil. ErrExist means the same task of the same
// attempt already stored a result (a retry): the stored one stands.
func (s *Store) WriteResult(ctx context.Context, r TaskResult) (TaskResult, error) {
	d, err := ResultDigest(r)
	if err != nil {
		return r, err
	}
	if r.Digest != "" && r.Digest != d {
		return r, fmt.Errorf("checkpoint: task %s result carries digest %s, content has %s", r.TaskID, r.Digest, d)
	}
	r.Digest = d
	return r, s.write(ctx, s.ResultPath(r.Window, r.Attempt, r.TaskID), kindResult, r, r.validate)
}

// WriteCommitted creates windows/<w>/committed, after the commit was verified in the table.
func (s *Store) WriteCommitted(ctx context.Context, c Committed) error {
	return s.write(ctx, s.CommittedPath(c.Window), kindCommitted, c, c.validate)
}

// WritePublished creates windows/<w>/published, after committed.
func (s *Store) WritePublished(ctx context.Context, p Published) error {
	return s.write(ctx, s.PublishedPath(p.Window), kindPublished, p, p.validate)
}

// WriteVoided creates windows/<w>/voided (only on an explicit request to recompute a rolled-back window).
func (s *Store) WriteVoided(ctx context.Context, v Voided) error {
	return s.write(ctx, s.VoidedPath(v.Window), kindVoided, v, v.validate)
}

// WriteDone creates the done marker of generation d.Generation (0 or 1: the job's first generation).
func (s *Store) WriteDone(ctx context.Context, d DoneRecord) error {
	return s.write(ctx, s.GenerationDonePath(d.Generation), kindDone, d, func() error { return nil })
}

// CheckPresent fails with an error wrapping ErrStoreGone when the store's job.json is gone (one
// Stat): the store was deleted, or forgotten, under a run. A run checks it at every window boundary
// (after the job is created), as nothing else tells it: write-once records and lease versions are
// created with their parent directories, so writing on would re-create a partial store.
func (s *Store) CheckPresent(ctx context.Context) error {
	ok, err := fileio.Exists(ctx, s.fs, fileio.Join(s.root, jobFile))
	if err != nil || ok {
		return err
	}
	return s.goneError(jobFile + " is gone")
}

// goneError is the ErrStoreGone error of s; why says what was found missing.
func (s *Store) goneError(why string) error {
	return fmt.Errorf("%w: %s (%s: the store was deleted, or forgotten with 'lakeload job forget'); this run stops and records "+
		"nothing more, and the windows it committed stay in the table. Restore the store (e.g. from a backup) and run the "+
		"same command again to resume; without it, the same load starts a new job that loads all input again",
		ErrStoreGone, s.root, why)
}
