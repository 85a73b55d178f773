package checkpoint

import (
	"sync"
	"time"
)

// LeaseWatch measures how long the lease has stayed at one version, as seen by this process on its
// own clock. It never looks at the times a holder wrote into the lease (Acquired, Heartbeat): those
// come from the holder's clock, possibly another machine's. The measure is sound because versions
// only grow: a holder that renews writes a higher version, so reading the same version at local
// times t1 and t2 means nobody changed the lease in between, whatever the clocks of the two hosts
// and however long this process itself stalled between the reads.
//
// Give one watch to every AcquireLease of a caller that retries (LeaseOptions.Watch); it is safe for
// concurrent use.
type LeaseWatch struct {
	// Clock is the local clock (default time.Now, whose monotonic reading makes the measure immune
	// to steps of the wall clock).
	Clock func() time.Time

	mu    sync.Mutex
	seen  bool
	last  leaseSighting
	since time.Time
}

// leaseSighting is what identifies one written version of the lease.
type leaseSighting struct {
	version  int64
	token    string
	released bool
}

// Observe records that the lease was read as cur and returns for how long this watch has seen it
// unchanged: the local time since its first read of cur's version, 0 when cur is new to it.
func (w *LeaseWatch) Observe(cur LeaseRecord) time.Duration {
	clock := w.Clock
	if clock == nil {
		clock = time.Now
	}
	now := clock()
	s := leaseSighting{version: cur.Version, token: cur.Owner.Token, released: cur.Released}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.seen || s != w.last {
		w.seen, w.last, w.since = true, s, now
		return 0
	}
	return max(now.Sub(w.since), 0)
}
