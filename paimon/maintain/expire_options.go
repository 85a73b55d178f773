package maintain

import (
	"fmt"
	"time"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// Table options read here (Java CoreOptions); package spec parses them.
const (
	OptSnapshotExpireLimit     = spec.OptSnapshotExpireLimit
	OptConsumerExpirationTime  = spec.OptConsumerExpirationTime
	OptConsumerChangelogOnly   = spec.OptConsumerChangelogOnly
	OptChangelogNumRetainedMin = spec.OptChangelogNumRetainedMin
	OptChangelogNumRetainedMax = spec.OptChangelogNumRetainedMax
	OptChangelogTimeRetained   = spec.OptChangelogTimeRetained
)

// ExpireOptions say which snapshots Expire removes. ExpireOptionsOf fills them from table options.
type ExpireOptions struct {
	RetainMin    int           // snapshot.num-retained.min (≥ 1): snapshots always kept
	RetainMax    int           // snapshot.num-retained.max (≥ RetainMin): snapshots kept at most
	TimeRetained time.Duration // snapshot.time-retained: a snapshot this young is never expired (unless over RetainMax)
	MaxDeletes   int           // snapshot.expire.limit (≥ 1): snapshots expired per run at most
	// ConsumerExpiration is consumer.expiration-time: a consumer file not modified for longer no
	// longer pins snapshots and is deleted. 0 = consumers never expire.
	ConsumerExpiration time.Duration
	// IgnoreConsumers is consumer.changelog-only: consumers do not hold back snapshot expiry.
	IgnoreConsumers bool
	DryRun          bool             // compute and report, delete nothing
	Now             func() time.Time // clock (default time.Now)
	// Progress, if set, is called as the run goes (see Progress).
	Progress func(Progress)
}

// ExpireOptionsOf returns the expire options of t's table options with Java's defaults
// (10, Integer.MAX_VALUE, 1 h, 50, none). Malformed values are errors naming the option.
func ExpireOptionsOf(t *table.Table) (ExpireOptions, error) {
	o := t.Options
	if err := o.Validate(); err != nil {
		return ExpireOptions{}, fmt.Errorf("table %s: %w (fix it with ALTER TABLE … SET)", t.Path, err)
	}
	limit, err := o.SnapshotExpireLimit()
	if err != nil {
		return ExpireOptions{}, tableOptionError(err)
	}
	consumerExp, err := o.ConsumerExpirationTime()
	if err != nil {
		return ExpireOptions{}, tableOptionError(err)
	}
	changelogOnly, err := o.ConsumerChangelogOnly()
	if err != nil {
		return ExpireOptions{}, tableOptionError(err)
	}
	return ExpireOptions{
		RetainMin: o.SnapshotNumRetainedMin(), RetainMax: o.SnapshotNumRetainedMax(),
		TimeRetained: o.SnapshotTimeRetained(), MaxDeletes: limit,
		ConsumerExpiration: consumerExp, IgnoreConsumers: changelogOnly,
	}, nil
}

// validate checks the bounds Java enforces and refuses a decoupled changelog lifecycle, whose
// expiry (changelog/changelog-N files, ExpireChangelogImpl) lakeload does not implement.
func (e ExpireOptions) validate(o spec.CoreOptions) error {
	switch {
	case e.RetainMin < 1:
		return fmt.Errorf("snapshot.num-retained.min (--retain-min) is %d: it must be at least 1", e.RetainMin)
	case e.RetainMax < e.RetainMin:
		return fmt.Errorf("snapshot.num-retained.max (--retain-max) %d is less than snapshot.num-retained.min (--retain-min) %d: raise it", e.RetainMax, e.RetainMin)
	case e.MaxDeletes < 1:
		return fmt.Errorf("snapshot.expire.limit (--max-deletes) is %d: it must be at least 1", e.MaxDeletes)
	case e.TimeRetained < 0:
		return fmt.Errorf("snapshot.time-retained (--older-than) is negative: use 0 or more")
	}
	// Java's changelog retention defaults to the snapshot retention.
	cmin, err := o.Int(OptChangelogNumRetainedMin, e.RetainMin)
	if err != nil {
		return tableOptionError(err)
	}
	cmax, err := o.Int(OptChangelogNumRetainedMax, e.RetainMax)
	if err != nil {
		return tableOptionError(err)
	}
	ctime, err := o.Duration(OptChangelogTimeRetained, e.TimeRetained)
	if err != nil {
		return tableOptionError(err)
	}
	if cmin > e.RetainMin || cmax > e.RetainMax || ctime > e.TimeRetained {
		return fmt.Errorf("the table keeps changelogs longer than snapshots (changelog.num-retained.min/max or changelog.time-retained " +
			"exceed the snapshot settings): lakeload does not expire such tables; expire them with Paimon's expire_snapshots procedure")
	}
	return nil
}

// tableOptionError says the malformed option is a table option ("table option …").
func tableOptionError(err error) error { return fmt.Errorf("table %w", err) }
