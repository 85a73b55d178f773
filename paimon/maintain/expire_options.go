package maintain

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// Table options read here (Java CoreOptions) that package spec has no accessor for.
const (
	OptSnapshotExpireLimit     = "snapshot.expire.limit"
	OptConsumerExpirationTime  = "consumer.expiration-time"
	OptConsumerChangelogOnly   = "consumer.changelog-only"
	OptChangelogNumRetainedMin = "changelog.num-retained.min"
	OptChangelogNumRetainedMax = "changelog.num-retained.max"
	OptChangelogTimeRetained   = "changelog.time-retained"
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
	limit, err := intOption(o, OptSnapshotExpireLimit, 50)
	if err != nil {
		return ExpireOptions{}, err
	}
	consumerExp, err := durationOption(o, OptConsumerExpirationTime, 0)
	if err != nil {
		return ExpireOptions{}, err
	}
	changelogOnly := false
	if v, ok := o.Get(OptConsumerChangelogOnly); ok {
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return ExpireOptions{}, fmt.Errorf("table option %q: %q is not a boolean (true/false)", OptConsumerChangelogOnly, v)
		}
		changelogOnly = b
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
	cmin, err := intOption(o, OptChangelogNumRetainedMin, e.RetainMin)
	if err != nil {
		return err
	}
	cmax, err := intOption(o, OptChangelogNumRetainedMax, e.RetainMax)
	if err != nil {
		return err
	}
	ctime, err := durationOption(o, OptChangelogTimeRetained, e.TimeRetained)
	if err != nil {
		return err
	}
	if cmin > e.RetainMin || cmax > e.RetainMax || ctime > e.TimeRetained {
		return fmt.Errorf("the table keeps changelogs longer than snapshots (changelog.num-retained.min/max or changelog.time-retained " +
			"exceed the snapshot settings): lakeload does not expire such tables; expire them with Paimon's expire_snapshots procedure")
	}
	return nil
}

func intOption(o spec.CoreOptions, key string, def int) (int, error) {
	v, ok := o.Get(key)
	if !ok {
		return def, nil
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 32)
	if err != nil {
		return def, fmt.Errorf("table option %q: %q is not an int", key, v)
	}
	return int(n), nil
}

func durationOption(o spec.CoreOptions, key string, def time.Duration) (time.Duration, error) {
	v, ok := o.Get(key)
	if !ok {
		return def, nil
	}
	d, err := spec.ParseJavaDuration(v)
	if err != nil {
		return def, fmt.Errorf("table option %q: %w", key, err)
	}
	return d, nil
}
