package job

import (
	"time"

	"github.com/lakeload/lakeload/checkpoint"
)

// LeasePolicy replaces the lease identity and takeover rule of a run (Config.Lease). The default,
// nil, is a process: owner host/pid/random token, renewed every 15 s, a holder displaced only when
// it is a dead process on this host or with Config.Takeover. A Temporal driver segment uses its
// workflow and activity attempt as identity (job/temporal, docs/scale-out.md).
type LeasePolicy struct {
	Owner checkpoint.LeaseOwner // written into the lease; Token must be unique per run
	Renew time.Duration         // renewal period (default 15 s)
	TTL   time.Duration         // heartbeat age after which a holder is reported stale (default 1 min)
	// Displace reports whether the holder cur may be replaced by this run (e.g. an earlier,
	// silent attempt of the same segment); silent is how long Watch has seen cur unchanged on this
	// process's clock (checkpoint.LeaseOptions.Displace). Nil: only the default rules.
	Displace func(cur checkpoint.LeaseRecord, silent time.Duration) bool
	// Watch measures silence across the runs sharing this policy (a caller that retries the
	// acquisition); nil: silent is always 0.
	Watch *checkpoint.LeaseWatch
}

// leaseOptions returns the options acquiring the run's lease.
func (d *driver) leaseOptions(host string, token string) checkpoint.LeaseOptions {
	o := checkpoint.LeaseOptions{
		Owner:      checkpoint.LeaseOwner{Host: host, PID: pid(), Token: token},
		Now:        d.cfg.Now,
		TTL:        time.Minute,
		Takeover:   d.cfg.Takeover,
		OwnerAlive: processAlive(host),
	}
	if p := d.cfg.Lease; p != nil {
		o.Owner = p.Owner
		if p.TTL > 0 {
			o.TTL = p.TTL
		}
		o.Displace, o.Watch = p.Displace, p.Watch
	}
	return o
}

// leaseRenewEvery is the lease renewal period of the run.
func (d *driver) leaseRenewEvery() time.Duration {
	if p := d.cfg.Lease; p != nil && p.Renew > 0 {
		return p.Renew
	}
	return 15 * time.Second
}
