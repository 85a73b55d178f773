package main

import (
	"fmt"
	"time"

	"github.com/lakeload/lakeload/paimon/compact"
)

// compactLive is the live state of `lakeload compact`: the last compact.Progress and when its
// attempt started (rates and ETA are per attempt: a conflict starts the compaction again).
type compactLive struct {
	v liveValue[compactSeen]
}

type compactSeen struct {
	p       compact.Progress
	planned bool      // a Progress arrived: the buckets are picked
	since   time.Time // start of the attempt
}

// report is compact.Options.Progress.
func (c *compactLive) report(p compact.Progress) {
	s := c.v.get()
	if !s.planned || s.p.Attempt != p.Attempt {
		s.since = time.Now()
	}
	s.p, s.planned = p, true
	c.v.set(s)
}

// rowsDone are the input rows compacted so far: those of the buckets done plus the rows merged in
// the current bucket (at most its input rows).
func rowsDone(p compact.Progress) int64 {
	return p.RowsRead + min(p.BucketRowsMerged, p.BucketRowsTotal)
}

func (c *compactLive) line(time.Duration) string {
	s := c.v.get()
	p := s.p
	if !s.planned {
		return "compact: reading the table's files…"
	}
	if p.BucketsTotal == 0 {
		return "compact: nothing to compact"
	}
	done := rowsDone(p)
	r := rate(done, time.Since(s.since))
	state := "ETA " + eta(done, p.RowsTotal, r)
	if p.BucketsDone == p.BucketsTotal {
		state = "committing"
	}
	part := ""
	if p.Partition != "" && p.PartitionsTotal > 1 {
		part = fmt.Sprintf("  %s %d/%d buckets (%d/%d partitions)", p.Partition, p.PartitionBucketsDone, p.PartitionBucketsTotal,
			p.PartitionsDone, p.PartitionsTotal)
	}
	retry := ""
	if p.Attempt > 1 {
		retry = fmt.Sprintf("  attempt %d", p.Attempt)
	}
	return fmt.Sprintf("compact %s %d/%d buckets%s  %s/%s rows  %s/%s read  %s written  %s rows/s  %s%s",
		bar(done, p.RowsTotal), p.BucketsDone, p.BucketsTotal, part, human(done), human(p.RowsTotal),
		humanBytes(p.BytesRead), humanBytes(p.BytesTotal), humanBytes(p.BytesWritten), human(int64(r)), state, retry)
}

func (c *compactLive) attrs(time.Duration) []any {
	s := c.v.get()
	p := s.p
	done := rowsDone(p)
	r := rate(done, time.Since(s.since))
	return []any{"command", "compact", "attempt", p.Attempt, "buckets_done", p.BucketsDone, "buckets_total", p.BucketsTotal,
		"partition", p.Partition, "partition_buckets_done", p.PartitionBucketsDone, "partition_buckets_total", p.PartitionBucketsTotal,
		"partitions_done", p.PartitionsDone, "partitions_total", p.PartitionsTotal,
		"rows_done", done, "rows_total", p.RowsTotal, "bytes_read", p.BytesRead, "bytes_total", p.BytesTotal,
		"files_read", p.FilesRead, "files_written", p.FilesWritten, "rows_written", p.RowsWritten, "bytes_written", p.BytesWritten,
		"rows_per_s", int64(r), "eta_s", etaSeconds(done, p.RowsTotal, r)}
}
