package compact

import "github.com/lakeload/lakeload/paimon/spec/manifest"

// ProgressEveryRows is how often, in merged rows, Run reports progress while it rewrites one bucket
// (besides after each bucket).
const ProgressEveryRows = 1 << 16

// Progress reports a running compaction (Options.Progress): once the buckets to rewrite are picked,
// after each bucket is rewritten, and every ProgressEveryRows rows merged within a bucket. Totals are
// known from the file metadata before any bucket is rewritten. After a commit conflict the
// compaction starts again from a fresh scan: Attempt grows and the counts start from zero.
type Progress struct {
	Attempt      int // 1 unless a concurrent commit conflicted
	BucketsDone  int // buckets rewritten so far
	BucketsTotal int // buckets this attempt rewrites

	// Partition is the partition directory of the bucket being (or last) rewritten, e.g.
	// "dt=2024-01-01/" ("" when unpartitioned); PartitionBucketsDone/Total count its buckets.
	Partition                                   string
	PartitionBucketsDone, PartitionBucketsTotal int
	PartitionsDone, PartitionsTotal             int // partitions with every picked bucket rewritten / with any

	FilesRead, FilesTotal int   // input files of the buckets done / of all picked buckets
	RowsRead, RowsTotal   int64 // rows of those input files (file metadata: before merging)
	BytesRead, BytesTotal int64 // bytes of those input files
	FilesWritten          int   // output files of the buckets done
	RowsWritten           int64 // rows of those output files (after merging)
	BytesWritten          int64 // bytes of those output files

	// BucketRowsMerged counts the rows merged so far in the bucket being rewritten (0 between buckets);
	// BucketRowsTotal is the rows of that bucket's input files.
	BucketRowsMerged, BucketRowsTotal int64
}

// progress accumulates a Progress and calls the callback (nil: reports nothing).
type progress struct {
	fn      func(Progress)
	p       Progress
	perPart map[string][2]int // partition -> {done, total}
}

// plan sets the totals of an attempt from the picked units and reports them.
func (g *progress) plan(attempt int, picks []pick) {
	if g.fn == nil {
		return
	}
	g.p = Progress{Attempt: attempt, BucketsTotal: len(picks)}
	g.perPart = map[string][2]int{}
	for _, pk := range picks {
		c := g.perPart[pk.partition]
		c[1]++
		g.perPart[pk.partition] = c
		f, r, b := fileTotals(pk.inputs)
		g.p.FilesTotal += f
		g.p.RowsTotal += r
		g.p.BytesTotal += b
	}
	g.p.PartitionsTotal = len(g.perPart)
	if len(picks) > 0 {
		g.setPartition(picks[0].partition)
	}
	g.fn(g.p)
}

func (g *progress) setPartition(part string) {
	c := g.perPart[part]
	g.p.Partition, g.p.PartitionBucketsDone, g.p.PartitionBucketsTotal = part, c[0], c[1]
}

// start notes the bucket about to be rewritten.
func (g *progress) start(pk pick) {
	if g.fn == nil {
		return
	}
	g.setPartition(pk.partition)
	_, g.p.BucketRowsTotal, _ = fileTotals(pk.inputs)
	g.p.BucketRowsMerged = 0
}

// merged is called for every row merged into the bucket's output; it reports every ProgressEveryRows.
func (g *progress) merged() {
	if g.fn == nil {
		return
	}
	g.p.BucketRowsMerged++
	if g.p.BucketRowsMerged%ProgressEveryRows == 0 {
		g.fn(g.p)
	}
}

// done reports a rewritten bucket with its outputs.
func (g *progress) done(pk pick, outputs []manifest.DataFileMeta) {
	if g.fn == nil {
		return
	}
	f, r, b := fileTotals(pk.inputs)
	g.p.FilesRead += f
	g.p.RowsRead += r
	g.p.BytesRead += b
	f, r, b = fileTotals(outputs)
	g.p.FilesWritten += f
	g.p.RowsWritten += r
	g.p.BytesWritten += b
	g.p.BucketsDone++
	g.p.BucketRowsMerged, g.p.BucketRowsTotal = 0, 0
	c := g.perPart[pk.partition]
	c[0]++
	g.perPart[pk.partition] = c
	if c[0] == c[1] {
		g.p.PartitionsDone++
	}
	g.setPartition(pk.partition)
	g.fn(g.p)
}

func fileTotals(files []manifest.DataFileMeta) (n int, rows, bytes int64) {
	for _, f := range files {
		rows += f.RowCount
		bytes += f.FileSize
	}
	return len(files), rows, bytes
}
