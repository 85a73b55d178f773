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
// timeout is hb, renewed every hb/4. Its takeover rule never compares two machines' clocks: a holder
// whose token names the same workflow id is displaced once this try has read the lease at one and
// the same version for longer than hb (segmentSilence), measured on its own monotonic clock
// (checkpoint.LeaseWatch); the times the holder wrote into the lease play no part. It is sound:
//   - Temporal has given up on the holder. It keeps one open workflow per id, the workflow runs one
//     segment at a time, and a try of a segment starts only after Temporal closed the previous try
//     (it failed, sent no heartbeat for hb by the server's clock, or outlived its start-to-close
//     timeout) and the previous segment (it completed). While this try runs, any other try of its
//     workflow is one Temporal has closed.
//   - The holder is silent. A live holder writes a higher version every hb/4; this try restarts
//     its count at every new version, so only a holder that changed nothing for longer than hb —
//     four renewal periods — as seen by this try is displaced. A slow holder that still renews is
//     waited for (DriveSegment), however skewed the clocks and however long this try itself stalls
//     between its reads.
//   - A displaced holder cannot go on unnoticed: the takeover writes a new lease version with this
//     try's token, so the old try's next renewal or release fails (checkpoint.ErrLeaseLost) and any
//     re-read of the lease finds a token not its own (what the job's checks before a commit rely on).
//
// Holders of other workflows and processes (an in-process `load`, `job abort`) are never displaced
// by this rule.
func SegmentLeasePolicy(wfID string, seg int, attempt int32, hb time.Duration) *job.LeasePolicy {
	host, _ := os.Hostname()
	renew := max(hb/4, 100*time.Millisecond)
	silence := segmentSilence(hb, renew)
	return &job.LeasePolicy{
		Owner: checkpoint.LeaseOwner{Host: host, PID: os.Getpid(), Token: SegmentLeaseToken(wfID, seg, attempt)},
		Renew: renew,
		TTL:   hb,
		Watch: &checkpoint.LeaseWatch{},
		Displace: func(cur checkpoint.LeaseRecord, silent time.Duration) bool {
			id, ok := segmentWorkflow(cur.Owner.Token)
			return ok && id == wfID && silent > silence
		},
	}
}

// segmentSilence is how long a waiting try must see the lease unchanged before it displaces a
// holder of its own workflow: the heartbeat timeout, and at least four renewal periods.
func segmentSilence(hb, renew time.Duration) time.Duration { return max(hb, 4*renew) }

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
