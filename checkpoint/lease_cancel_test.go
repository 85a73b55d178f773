package checkpoint

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio"
)

// cancelAfterLeaseWrite cancels a context right after a lease version is written, as a Ctrl-C
// landing between the write and the check that follows it.
type cancelAfterLeaseWrite struct {
	fileio.FileIO
	cancel context.CancelFunc
}

func (c cancelAfterLeaseWrite) WriteIfAbsent(ctx context.Context, path string, data []byte) error {
	err := c.FileIO.WriteIfAbsent(ctx, path, data)
	if strings.Contains(path, "/"+leaseDir+"/") {
		c.cancel()
	}
	return err
}

// TestLeaseAcquireCancelledAfterWrite: an acquisition cancelled after its version is written fails
// with an error wrapping context.Canceled and leaves the lease released (not held by a runner that
// got no handle), so the next runner takes it at once.
func TestLeaseAcquireCancelledAfterWrite(t *testing.T) {
	backends(t, func(t *testing.T, fs fileio.FileIO, s *Store) {
		ctx, cancel := context.WithCancel(bg)
		defer cancel()
		cs := NewStore(cancelAfterLeaseWrite{FileIO: fs, cancel: cancel}, s.root)
		_, err := cs.AcquireLease(ctx, LeaseOptions{Owner: owner(1)})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("acquire cancelled after its write: %v; want an error wrapping context.Canceled", err)
		}
		cur, ok, err := s.CurrentLease(bg)
		must(t, err)
		if !ok || !cur.Released || cur.Owner != owner(1) || !strings.Contains(cur.LastError, "context canceled") {
			t.Fatalf("lease after the cancelled acquisition: %+v (exists %v); want version 2 released by owner 1 naming the cancellation", cur, ok)
		}
		l, err := s.AcquireLease(bg, LeaseOptions{Owner: owner(2)})
		must(t, err)
		if l.Record().Version != 3 {
			t.Fatalf("next runner got version %d, want 3", l.Record().Version)
		}
	})
}
