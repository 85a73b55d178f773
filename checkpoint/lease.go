package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/lakeload/lakeload/fileio"
)

// The lease is a compare-and-swap register built from write-once files, so every backend with
// WriteIfAbsent (local disks, object stores with conditional PUT) can hold it:
//
//   - Version n of the lease is the file lease/lease-<n> (zero-padded); the highest n is current.
//   - To change the lease from version n (acquire, renew, release), write version n+1 with
//     WriteIfAbsent. Exactly one writer wins version n+1; the others get ErrExist and have lost.
//   - After winning, the writer lists lease/ and checks that n+1 is the highest version: a
//     holder with a stale handle whose n+1 slot had been pruned may re-create it, but then a higher
//     version exists and it learns that it lost.
//   - Versions more than leaseKeep below the current are deleted (best effort).
//
// The lease is a fence (docs/protocol.md, "Paused runners and expiry"): a runner re-reads it
// immediately before every commit and stops when the current version is not its own, so a runner
// that was displaced while it was stopped cannot commit after it wakes.

const leaseKeep = 8

// LeaseOwner identifies a runner. Token is unique per process run (a UUID).
type LeaseOwner struct {
	Host  string `json:"host"`
	PID   int    `json:"pid"`
	Token string `json:"token"`
}

// LeaseRecord is one version of the lease.
type LeaseRecord struct {
	Version   int64      `json:"version"`
	Owner     LeaseOwner `json:"owner"`
	Acquired  time.Time  `json:"acquired"`
	Heartbeat time.Time  `json:"heartbeat"`
	Released  bool       `json:"released,omitempty"`
	// LastError is the error that ended the run that released this version ("" after a clean run).
	// A runner killed outright leaves no error: its version stays unreleased with a stale heartbeat.
	LastError string `json:"lastError,omitempty"`
}

// LeaseOptions say who acquires the lease and when a current holder may be displaced.
type LeaseOptions struct {
	Owner LeaseOwner
	Now   func() time.Time // default time.Now; stamps the versions this owner writes
	// TTL: a holder whose heartbeat is older is reported as possibly gone in the ErrLeaseHeld
	// message. It displaces nobody: the heartbeat was stamped by the holder's clock, and no
	// decision compares two machines' clocks.
	TTL time.Duration
	// Takeover displaces any holder (the explicit --takeover flag).
	Takeover bool
	// OwnerAlive reports whether a holder's process is alive; known=false when it cannot tell
	// (another host). A holder known to be dead is displaced. Nil: never known.
	OwnerAlive func(LeaseOwner) (alive, known bool)
	// Displace, if set, may allow replacing the holder cur by a caller's own rule (a Temporal
	// driver segment displacing a silent earlier attempt of itself). silent is how long Watch has
	// seen cur unchanged, measured on this process's clock (LeaseWatch); 0 without a Watch. Nil: no
	// extra rule.
	Displace func(cur LeaseRecord, silent time.Duration) bool
	// Watch remembers the versions read across the AcquireLease calls of a caller that retries.
	Watch *LeaseWatch
}

// Lease is a held version of the lease.
type Lease struct {
	s    *Store
	rec  LeaseRecord
	opts LeaseOptions
}

// Record returns the version this handle holds.
func (l *Lease) Record() LeaseRecord { return l.rec }

// CurrentLease returns the highest lease version, ok=false when none was ever written.
func (s *Store) CurrentLease(ctx context.Context) (LeaseRecord, bool, error) {
	n, err := s.highestLease(ctx)
	if err != nil || n == 0 {
		return LeaseRecord{}, false, err
	}
	path := s.leasePath(n)
	rec, err := readOptional[LeaseRecord](ctx, s, path, kindLease)
	if err != nil {
		return LeaseRecord{}, false, err
	}
	if rec == nil {
		return LeaseRecord{}, false, fmt.Errorf("checkpoint: lease %s vanished while reading: %w", path, fileio.ErrNotExist)
	}
	if rec.Version != n {
		return LeaseRecord{}, false, corruptf(path, "lease record holds version %d", rec.Version)
	}
	return *rec, true, nil
}

func (s *Store) highestLease(ctx context.Context) (int64, error) {
	dir := fileio.Join(s.root, leaseDir)
	entries, err := s.listVisible(ctx, dir)
	if err != nil {
		return 0, err
	}
	var hi int64
	for _, e := range entries {
		n, ok := parseLeaseName(e.Name)
		if !ok || e.IsDir {
			return 0, corruptf(e.Path, "unexpected entry in %s", dir)
		}
		hi = max(hi, n)
	}
	return hi, nil
}

func parseLeaseName(name string) (int64, bool) {
	d, ok := strings.CutPrefix(name, leasePrefix)
	if !ok || len(d) != 20 {
		return 0, false
	}
	n, err := strconv.ParseInt(d, 10, 64)
	return n, err == nil && n > 0 && leaseName(n) == name
}

// AcquireLease takes the lease for o.Owner: when none exists, it is released, it is already
// o.Owner's, its holder is known dead, o.Displace allows it, or o.Takeover. Otherwise it fails with
// an error wrapping ErrLeaseHeld that names the holder. Taking the lease writes a new version, so a
// displaced holder's next Renew or Release fails with ErrLeaseLost and its token is no longer
// current.
func (s *Store) AcquireLease(ctx context.Context, o LeaseOptions) (*Lease, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Owner.Token == "" {
		return nil, errors.New("checkpoint: lease owner needs a token")
	}
	for try := 0; ; try++ {
		cur, ok, err := s.CurrentLease(ctx)
		if err != nil {
			return nil, err
		}
		now := o.Now()
		if ok {
			var silent time.Duration
			if o.Watch != nil {
				silent = o.Watch.Observe(cur)
			}
			if err := mayTake(cur, o, now, silent); err != nil {
				return nil, err
			}
		}
		next := LeaseRecord{Version: cur.Version + 1, Owner: o.Owner, Acquired: now, Heartbeat: now}
		if ok && cur.Owner.Token == o.Owner.Token && !cur.Released {
			next.Acquired = cur.Acquired
		}
		l := &Lease{s: s, rec: next, opts: o}
		written, err := s.casLeaseWritten(ctx, next)
		if err == nil {
			return l, nil
		}
		if written && !errors.Is(err, ErrLeaseLost) {
			// Our version is in the store but its check failed (a cancelled context, a failed list):
			// the caller gets no handle, so release it here or the next runner finds it held.
			if rerr := l.ReleaseWithError(context.WithoutCancel(ctx), err.Error()); rerr != nil && !errors.Is(rerr, ErrLeaseLost) {
				err = errors.Join(err, fmt.Errorf("checkpoint: releasing lease version %d after the failed acquisition: %w", next.Version, rerr))
			}
			return nil, err
		}
		if !errors.Is(err, ErrLeaseLost) || try >= 3 {
			return nil, err
		}
		// Somebody changed the lease between our read and our write: decide again on the new version.
	}
}

// mayTake returns nil when o may replace cur, else an error wrapping ErrLeaseHeld. now is this
// process's clock; it only words the message.
func mayTake(cur LeaseRecord, o LeaseOptions, now time.Time, silent time.Duration) error {
	if cur.Released || cur.Owner.Token == o.Owner.Token || o.Takeover {
		return nil
	}
	if o.OwnerAlive != nil {
		if alive, known := o.OwnerAlive(cur.Owner); known && !alive {
			return nil
		}
	}
	if o.Displace != nil && o.Displace(cur, silent) {
		return nil
	}
	age := now.Sub(cur.Heartbeat) // the holder's clock against ours: advice for a person, never a decision
	stale := o.TTL > 0 && age > o.TTL
	hint := "wait for it to finish or stop it"
	if stale {
		hint = fmt.Sprintf("its heartbeat is %s old (TTL %s): if it is gone, rerun with --takeover", age.Round(time.Second), o.TTL)
	}
	return fmt.Errorf("%w: %s pid %d (since %s, last heartbeat %s ago); %s", ErrLeaseHeld, cur.Owner.Host, cur.Owner.PID,
		cur.Acquired.Format(time.RFC3339), age.Round(time.Second), hint)
}

// casLease writes rec.Version with WriteIfAbsent and checks it is the highest version; a loss is ErrLeaseLost.
func (s *Store) casLease(ctx context.Context, rec LeaseRecord) error {
	_, err := s.casLeaseWritten(ctx, rec)
	return err
}

// casLeaseWritten is casLease that also reports whether rec.Version was written (true also when
// the check after the write failed).
func (s *Store) casLeaseWritten(ctx context.Context, rec LeaseRecord) (written bool, _ error) {
	path := s.leasePath(rec.Version)
	err := s.write(ctx, path, kindLease, rec, func() error { return nil })
	if errors.Is(err, fileio.ErrExist) {
		return false, fmt.Errorf("%w: version %d was written by another runner", ErrLeaseLost, rec.Version)
	}
	if err != nil {
		return false, err
	}
	hi, err := s.highestLease(ctx)
	if err != nil {
		return true, err
	}
	if hi != rec.Version {
		return true, fmt.Errorf("%w: version %d is current, this runner wrote the stale version %d", ErrLeaseLost, hi, rec.Version)
	}
	s.pruneLeases(ctx, rec.Version)
	return true, nil
}

// pruneLeases deletes versions below cur-leaseKeep, best effort (safe: see the top of this file).
func (s *Store) pruneLeases(ctx context.Context, cur int64) {
	for n := cur - leaseKeep; n >= 1 && n > cur-2*leaseKeep; n-- {
		_ = fileio.DeleteWithin(ctx, s.fs, s.leasePath(n), s.root)
	}
}

// Renew writes the next version with a fresh heartbeat. It fails with ErrLeaseLost when another
// runner changed the lease since this handle's version, and with ErrStoreGone when no version is
// left (checkPresent).
func (l *Lease) Renew(ctx context.Context) error {
	if err := l.checkPresent(ctx); err != nil {
		return err
	}
	next := l.rec
	next.Version++
	next.Heartbeat = l.opts.Now()
	if err := l.s.casLease(ctx, next); err != nil {
		return err
	}
	l.rec = next
	return nil
}

// Release writes the next version marked released, so the next runner takes the lease at once.
func (l *Lease) Release(ctx context.Context) error { return l.ReleaseWithError(ctx, "") }

// ReleaseWithError releases the lease and records why the run ended (shown by `lakeload status`).
// A store that vanished (ErrStoreGone) is left gone.
func (l *Lease) ReleaseWithError(ctx context.Context, lastError string) error {
	if err := l.checkPresent(ctx); err != nil {
		return err
	}
	next := l.rec
	next.Version++
	next.Heartbeat = l.opts.Now()
	next.Released = true
	next.LastError = lastError
	if err := l.s.casLease(ctx, next); err != nil {
		return err
	}
	l.rec = next
	return nil
}

// checkPresent fails with ErrStoreGone when the lease holds no version at all: the store was
// deleted under this holder (pruning never removes the current version, a takeover adds one).
// Writing the next version would re-create the lease in the deleted store, as write-once files are
// created with their parent directories, and the run would go on recording into an empty store.
// One listing; a deletion between it and the write is caught by the run's next CheckPresent.
func (l *Lease) checkPresent(ctx context.Context) error {
	hi, err := l.s.highestLease(ctx)
	if err != nil || hi > 0 {
		return err
	}
	return l.s.goneError("its lease holds no version")
}
