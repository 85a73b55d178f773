package checkpoint

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lakeload/lakeload/fileio"
)

// clock is a manual clock for lease tests.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func owner(i int) LeaseOwner {
	return LeaseOwner{Host: "h1", PID: 1000 + i, Token: fmt.Sprintf("tok-%d", i)}
}

func TestLeaseRules(t *testing.T) {
	backends(t, func(t *testing.T, fs fileio.FileIO, s *Store) {
		clk := &clock{now: t0}
		opts := func(i int) LeaseOptions { return LeaseOptions{Owner: owner(i), Now: clk.Now, TTL: time.Minute} }

		a, err := s.AcquireLease(bg, opts(1))
		must(t, err)
		if a.Record().Version != 1 {
			t.Fatalf("first version = %d", a.Record().Version)
		}
		// A second runner is refused while the holder is alive or unknown.
		if _, err := s.AcquireLease(bg, opts(2)); !errors.Is(err, ErrLeaseHeld) || !strings.Contains(err.Error(), "pid 1001") {
			t.Fatalf("second runner: %v", err)
		}
		// Re-entrant for the same owner (a restarted process keeps its token only if it is the same run).
		again, err := s.AcquireLease(bg, opts(1))
		must(t, err)
		if again.Record().Version != 2 || !again.Record().Acquired.Equal(t0) {
			t.Fatalf("re-acquire: %+v", again.Record())
		}
		// The first handle (version 1) is stale now: renewing it loses.
		if err := a.Renew(bg); !errors.Is(err, ErrLeaseLost) {
			t.Fatalf("stale renew: %v", err)
		}
		a = again
		// Stale heartbeat alone displaces nobody, but the message says how to take over.
		clk.Add(2 * time.Minute)
		if _, err := s.AcquireLease(bg, opts(2)); !errors.Is(err, ErrLeaseHeld) || !strings.Contains(err.Error(), "--takeover") {
			t.Fatalf("stale holder: %v", err)
		}
		// Renewal refreshes the heartbeat.
		must(t, a.Renew(bg))
		if cur, _, _ := s.CurrentLease(bg); !cur.Heartbeat.Equal(clk.Now()) || cur.Owner != owner(1) {
			t.Fatalf("after renew: %+v", cur)
		}
		// Displace decides on the silence its Watch saw on the taker's own clock, not on the
		// holder's heartbeat stamp: a holder that renews is never silent, whatever its clock says.
		local := &clock{now: t0.Add(-24 * time.Hour)} // the taker's clock, a day behind the holder's
		o := opts(2)
		o.Watch = &LeaseWatch{Clock: local.Now}
		var sawSilent []time.Duration
		o.Displace = func(cur LeaseRecord, silent time.Duration) bool {
			sawSilent = append(sawSilent, silent)
			return silent > time.Minute
		}
		for range 3 {
			if _, err := s.AcquireLease(bg, o); !errors.Is(err, ErrLeaseHeld) {
				t.Fatalf("renewing holder displaced: %v", err)
			}
			local.Add(2 * time.Minute) // the taker stalls between its reads: a renewal in between still counts
			must(t, a.Renew(bg))
		}
		clk.Add(time.Hour) // the holder's heartbeat stamps are from far in the future now: irrelevant
		must(t, a.Renew(bg))
		if _, err := s.AcquireLease(bg, o); !errors.Is(err, ErrLeaseHeld) {
			t.Fatalf("holder displaced on first sight of its version: %v", err)
		}
		local.Add(61 * time.Second)
		b, err := s.AcquireLease(bg, o)
		must(t, err)
		if want := []time.Duration{0, 0, 0, 0, 61 * time.Second}; fmt.Sprint(sawSilent) != fmt.Sprint(want) {
			t.Fatalf("Displace saw silences %v, want %v", sawSilent, want)
		}
		if err := a.Renew(bg); !errors.Is(err, ErrLeaseLost) {
			t.Fatalf("old holder renewed after takeover: %v", err)
		}
		// A holder known to be dead is displaced at once; an unknown one is not.
		o3 := opts(3)
		o3.OwnerAlive = func(LeaseOwner) (bool, bool) { return false, false }
		if _, err := s.AcquireLease(bg, o3); !errors.Is(err, ErrLeaseHeld) {
			t.Fatalf("unknown liveness displaced the holder: %v", err)
		}
		o3.OwnerAlive = func(w LeaseOwner) (bool, bool) { return w.PID != 1002, true }
		c, err := s.AcquireLease(bg, o3)
		must(t, err)
		if err := b.Release(bg); !errors.Is(err, ErrLeaseLost) {
			t.Fatalf("release by a displaced holder: %v", err)
		}
		// The explicit flag displaces a live holder.
		o4 := opts(4)
		o4.Takeover = true
		d, err := s.AcquireLease(bg, o4)
		must(t, err)
		if err := c.Renew(bg); !errors.Is(err, ErrLeaseLost) {
			t.Fatalf("renew after forced takeover: %v", err)
		}
		// Release lets the next runner in without any rule.
		must(t, d.Release(bg))
		e, err := s.AcquireLease(bg, opts(5))
		must(t, err)
		if cur, _, _ := s.CurrentLease(bg); cur.Version != e.Record().Version || cur.Owner != owner(5) || cur.Released {
			t.Fatalf("after release and acquire: %+v", cur)
		}
	})
}

func TestLeaseStaleHandleAfterPruning(t *testing.T) {
	backends(t, func(t *testing.T, fs fileio.FileIO, s *Store) {
		a, err := s.AcquireLease(bg, LeaseOptions{Owner: owner(1)})
		must(t, err)
		b, err := s.AcquireLease(bg, LeaseOptions{Owner: owner(2), Takeover: true})
		must(t, err)
		for range 3 * leaseKeep {
			must(t, b.Renew(bg))
		}
		// Version 2 (a's next) has been pruned, so a's write succeeds — and must still be refused.
		if ok, _ := fileio.Exists(bg, fs, s.leasePath(2)); ok {
			t.Fatal("old lease versions were not pruned")
		}
		if err := a.Renew(bg); !errors.Is(err, ErrLeaseLost) {
			t.Fatalf("stale handle renewed after pruning: %v", err)
		}
		if cur, _, _ := s.CurrentLease(bg); cur.Owner != owner(2) {
			t.Fatalf("current owner = %+v", cur.Owner)
		}
		must(t, b.Renew(bg))
	})
}

func TestLeaseRaces(t *testing.T) {
	backends(t, func(t *testing.T, fs fileio.FileIO, s *Store) {
		const n = 12
		// n runners start at once: exactly one gets the lease, every other is refused.
		var wg sync.WaitGroup
		errs := make([]error, n)
		leases := make([]*Lease, n)
		for i := range n {
			wg.Go(func() { leases[i], errs[i] = s.AcquireLease(bg, LeaseOptions{Owner: owner(i)}) })
		}
		wg.Wait()
		winner := -1
		for i, err := range errs {
			switch {
			case err == nil:
				if winner >= 0 {
					t.Fatalf("runners %d and %d both hold the lease", winner, i)
				}
				winner = i
			case !errors.Is(err, ErrLeaseHeld):
				t.Fatalf("runner %d: %v", i, err)
			}
		}
		if winner < 0 {
			t.Fatal("nobody got the lease")
		}
		// Two copies of the same handle (a zombie and its successor) renew at once: one wins.
		for round := range 5 {
			h1 := *leases[winner]
			h2 := *leases[winner]
			var e1, e2 error
			wg.Go(func() { e1 = h1.Renew(bg) })
			wg.Go(func() { e2 = h2.Renew(bg) })
			wg.Wait()
			if (e1 == nil) == (e2 == nil) {
				t.Fatalf("round %d: both or neither renewed: %v / %v", round, e1, e2)
			}
			for _, e := range []error{e1, e2} {
				if e != nil && !errors.Is(e, ErrLeaseLost) {
					t.Fatalf("round %d: %v", round, e)
				}
			}
			if e1 == nil {
				leases[winner] = &h1
			} else {
				leases[winner] = &h2
			}
		}
		if cur, _, _ := s.CurrentLease(bg); cur.Version != leases[winner].Record().Version {
			t.Fatalf("current %d, winner holds %d", cur.Version, leases[winner].Record().Version)
		}
	})
}

func TestLeaseCorruptVersionIsReported(t *testing.T) {
	fs := memFS()
	s := NewStore(fs, "/c")
	_, err := s.AcquireLease(bg, LeaseOptions{Owner: owner(1)})
	must(t, err)
	must(t, fs.WriteIfAbsent(bg, s.leasePath(2), []byte("garbage")))
	if _, err := s.AcquireLease(bg, LeaseOptions{Owner: owner(2)}); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "lease-00000000000000000002") {
		t.Fatalf("corrupt lease: %v", err)
	}
}

// TestLeaseOfDeletedStore (issue 14, finding 8): once the store is deleted under a holder, Renew and
// Release fail with ErrStoreGone naming the store and write nothing, so the deleted store is not
// re-created with a lease alone (before: each renewal wrote the next version into it and the run
// went on). A version pruned by a takeover is still ErrLeaseLost.
func TestLeaseOfDeletedStore(t *testing.T) {
	backends(t, func(t *testing.T, fs fileio.FileIO, s *Store) {
		o := LeaseOptions{Owner: owner(1), Now: (&clock{now: t0}).Now}
		l, err := s.AcquireLease(bg, o)
		must(t, err)
		must(t, l.Renew(bg))
		must(t, fs.DeleteAll(bg, s.Root()))
		if err := l.Renew(bg); !errors.Is(err, ErrStoreGone) || !strings.Contains(err.Error(), s.Root()) {
			t.Fatalf("renew after the deletion: %v", err)
		}
		if err := l.Release(bg); !errors.Is(err, ErrStoreGone) {
			t.Fatalf("release after the deletion: %v", err)
		}
		if ok, err := fileio.Exists(bg, fs, fileio.Join(s.Root(), leaseDir)); ok || err != nil {
			t.Fatalf("the deleted store's lease was written again (%v)", err)
		}
		if err := s.CheckPresent(bg); !errors.Is(err, ErrStoreGone) || !errors.Is(err, ErrStop) {
			t.Fatalf("CheckPresent of a deleted store: %v", err)
		}

		// Taken over and pruned: lost, not gone.
		l, err = s.AcquireLease(bg, o)
		must(t, err)
		o2 := LeaseOptions{Owner: owner(2), Now: o.Now, Takeover: true}
		b, err := s.AcquireLease(bg, o2)
		must(t, err)
		for range 2 * leaseKeep {
			must(t, b.Renew(bg))
		}
		if err := l.Renew(bg); !errors.Is(err, ErrLeaseLost) {
			t.Fatalf("renew of a pruned, taken-over version: %v", err)
		}
	})
}
