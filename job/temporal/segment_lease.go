package temporal

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/job"
)

// segmentTokenPrefix starts the lease token of a driver segment: "temporal <workflow id> seg=<n>
// attempt=<a> <uuid>".
const segmentTokenPrefix = "temporal "

// SegmentLeaseToken is the lease token of attempt a of segment seg of job workflow wfID; the random
// tail keeps two tries apart even when Temporal reports the same attempt (a test environment).
func SegmentLeaseToken(wfID string, seg int, a int32) string {
	return fmt.Sprintf("%s%s seg=%d attempt=%d %s", segmentTokenPrefix, wfID, seg, a, uuid.NewString())
}

// segmentWorkflow returns the workflow id in a segment's lease token, ok=false for other holders
// (an in-process load, `job abort`, or a token of another form).
func segmentWorkflow(token string) (string, bool) {
	rest, ok := strings.CutPrefix(token, segmentTokenPrefix)
	if !ok {
		return "", false
	}
	f := strings.Fields(rest)
	if len(f) < 4 || !strings.HasPrefix(f[len(f)-3], "seg=") || !strings.HasPrefix(f[len(f)-2], "attempt=") {
		return "", false
	}
	// The workflow id is everything before the last three fields (a job name may hold spaces).
	tail := " " + strings.Join(f[len(f)-3:], " ")
	return strings.TrimSuffix(rest, tail), true
}

// SegmentLeasePolicy is the lease of a driver segment of workflow wfID whose activity heartbeat
// timeout is hb. The lease is renewed every hb/4. The takeover rule: a holder whose token names the
// same workflow id and whose lease heartbeat is older than hb/2 is displaced. It is sound because
// Temporal keeps one open workflow per id and the workflow runs one segment at a time: a holder of
// the same workflow id that is not this try is an earlier try (or segment) that Temporal has already
// given up on (its heartbeat timed out, so at least hb passed since it was last heard of). One that
// still renews the lease (a try that timed out but runs on, cut off from Temporal but not from
// storage) is not displaced: this try waits until it releases the lease or falls silent. Holders of
// other workflows and processes (an in-process `load`, `job abort`) are never displaced by this rule.
func SegmentLeasePolicy(wfID string, seg int, attempt int32, hb time.Duration) *job.LeasePolicy {
	host, _ := os.Hostname()
	stale := hb / 2
	return &job.LeasePolicy{
		Owner: checkpoint.LeaseOwner{Host: host, PID: os.Getpid(), Token: SegmentLeaseToken(wfID, seg, attempt)},
		Renew: max(hb/4, 100*time.Millisecond),
		TTL:   hb,
		Displace: func(cur checkpoint.LeaseRecord, now time.Time) bool {
			id, ok := segmentWorkflow(cur.Owner.Token)
			return ok && id == wfID && now.Sub(cur.Heartbeat) > stale
		},
	}
}

// heldBySameWorkflow reports whether the lease record is held (unreleased) by a try of workflow wfID.
func heldBySameWorkflow(rec checkpoint.LeaseRecord, wfID string) bool {
	id, ok := segmentWorkflow(rec.Owner.Token)
	return ok && id == wfID && !rec.Released
}

// IsSegmentLease reports whether a lease record is held (unreleased) by a driver segment of some
// job workflow.
func IsSegmentLease(rec checkpoint.LeaseRecord) bool {
	_, ok := segmentWorkflow(rec.Owner.Token)
	return ok && !rec.Released
}
