package job_test

import (
	"context"
	"errors"
	"os"
	"path"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/job"
)

// TestStoreDeletedMidRunStops (issue 14, finding 8): a checkpoint store deleted while a run holds its
// lease stops the run at the next window boundary with checkpoint.ErrStoreGone naming the store;
// nothing is assigned, committed or published after. A store deleted but for its lease (which the
// lease fence alone does not notice) stops it the same way. Before the fix the deletion was reported as
// being overtaken by another runner (exit 6, wrong advice), and when a lease renewal ran in between
// it re-created the lease in the deleted directory, the run went on committing and publishing into
// the ghost store and failed only at its end.
func TestStoreDeletedMidRunStops(t *testing.T) {
	for _, c := range []struct {
		name      string
		renewed   bool // a lease renewal starts after the deletion, before the run goes on
		keepLease bool // everything but lease/ is deleted (a partial prefix delete on S3, or the race of a renewal with the deletion)
	}{
		{"no renewal in between", false, false},
		{"a lease renewal in between", true, false},
		{"all but the lease deleted", false, true},
	} {
		renewed, name := c.renewed, c.name
		t.Run(name, func(t *testing.T) {
			e := newScEnv(t, parquetFiles(loadtest.Append(7, 4, 50)))
			fs := &faultFS{FileIO: local.New()}
			e.store = checkpoint.NewStore(fs, e.store.Root())
			leaseDir := path.Join(e.store.Root(), "lease")
			var deleted atomic.Bool
			renewals := make(chan struct{}, 100)
			fs.read = func(p string) error {
				if deleted.Load() && p == leaseDir {
					renewals <- struct{}{} // only the renewal goroutine lists the lease while the driver is in the hook
				}
				return nil
			}
			cfg := e.cfg(1, 1, func(p string, w int64) error {
				if p != job.PointAfterPublish || w != 1 {
					return nil
				}
				if c.keepLease {
					entries, _ := os.ReadDir(e.store.Root())
					for _, en := range entries {
						if en.Name() != "lease" {
							if err := os.RemoveAll(path.Join(e.store.Root(), en.Name())); err != nil {
								t.Fatal(err)
							}
						}
					}
					return nil
				}
				deleted.Store(true) // before: a renewal that lists an emptied lease during the deletion ends the renewals
				for err := os.RemoveAll(e.store.Root()); err != nil; err = os.RemoveAll(e.store.Root()) {
					t.Logf("delete the store: %v (a renewal wrote meanwhile); again", err)
				}
				if renewed {
					select { // a renewal starts once the deletion began (its outcome is not waited for)
					case <-renewals:
					case <-time.After(2 * time.Minute):
						t.Fatal("no lease renewal within 2 minutes")
					}
				}
				return nil
			})
			cfg.Lease = &job.LeasePolicy{Renew: 5 * time.Millisecond, Owner: checkpoint.LeaseOwner{Host: "h", PID: 1, Token: "tok-" + name}}
			if !renewed {
				cfg.Lease.Renew = time.Hour
			}
			_, err := job.Run(context.Background(), cfg)
			if err == nil {
				t.Fatal("run succeeded, want ErrStoreGone")
			}
			if !errors.Is(err, checkpoint.ErrStoreGone) {
				t.Errorf("run: %v, want ErrStoreGone", err)
			}
			if !errors.Is(err, checkpoint.ErrStop) || errors.Is(err, job.ErrOvertaken) {
				t.Errorf("store gone must be a stop (exit 7), not overtaken: %v", err)
			}
			for _, part := range []string{e.store.Root(), "Restore the store"} {
				if !strings.Contains(err.Error(), part) {
					t.Errorf("error does not say %q: %v", part, err)
				}
			}
			if ids := e.snapshotIDs(); !slices.Equal(ids, []int64{1}) {
				t.Errorf("snapshots after the deletion: %v, want only window 1's", ids)
			}
			for _, rec := range []string{"job.json", "windows/2/assigned", "windows/2/published"} {
				if _, err := os.Stat(path.Join(e.store.Root(), rec)); err == nil {
					t.Errorf("%s was written after the store was deleted", rec)
				}
			}
		})
	}
}
