package index

import (
	"context"
	"fmt"
	"sort"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// Assigner assigns key hashes of a dynamic-bucket table to buckets and maintains the HASH index
// of every bucket it assigned to (Java HashBucketAssigner with a single assigner plus
// DynamicBucketIndexMaintainer). It is restored from one snapshot; the commit of its changes must
// be checked against newer snapshots (package commit does). It is not safe for concurrent use.
type Assigner struct {
	t        *table.Table
	opts     Options
	base     int64                                    // snapshot id restored from (0: empty table)
	files    map[string][]manifest.IndexManifestEntry // HASH files of the base snapshot by partition
	dataBkts map[string]map[int32]bool                // buckets holding live data files, by partition
	parts    map[string]*partitionIndex
	paths    *table.Paths
	written  []manifest.IndexManifestEntry // files written by Prepare, for Abort
}

// partitionIndex is Java's PartitionIndex for one partition plus the per-bucket hash sets.
type partitionIndex struct {
	part      []byte
	hash2bkt  map[int32]int32
	nonFull   []bucketCount // ascending bucket id (Java's HashMap<Integer,Long> order for small ids)
	total     map[int32]bool
	totalList []int32 // in the order buckets were loaded or opened
	full      bool    // max-buckets reached
	buckets   map[int32]*bucketIndex
}

type bucketCount struct {
	bucket int32
	n      int64
}

// bucketIndex is one bucket's HASH index as this writer maintains it.
type bucketIndex struct {
	current  *manifest.IndexManifestEntry // live file the next change replaces (nil: none)
	restored []int32                      // hashes of current, kept until the bucket is written
	set      *intSet
	modified bool
}

// Change is one bucket's new HASH index file and the file it replaces (nil when the bucket had none).
type Change struct {
	Partition []byte
	Bucket    int32
	Old       *manifest.IndexManifestEntry
	New       manifest.IndexManifestEntry
}

// NewAssigner restores an assigner from snapshot snap (nil: empty table). live are the snapshot's
// live data files: a bucket holding data but no HASH index cannot be assigned to safely, so loading
// its partition fails.
func NewAssigner(ctx context.Context, t *table.Table, snap *spec.Snapshot, live []manifest.ManifestEntry) (*Assigner, error) {
	opts, err := OptionsOf(t.Options)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", t.Path, err)
	}
	a := &Assigner{t: t, opts: opts, files: map[string][]manifest.IndexManifestEntry{}, dataBkts: map[string]map[int32]bool{},
		parts: map[string]*partitionIndex{}, paths: t.NewPaths()}
	if snap != nil {
		a.base = snap.ID
	}
	es, err := SnapshotEntries(ctx, t, snap)
	if err != nil {
		return nil, err
	}
	for _, e := range es {
		if e.IndexType == manifest.IndexTypeHash {
			a.files[string(e.Partition)] = append(a.files[string(e.Partition)], e)
		}
	}
	for _, e := range live {
		m := a.dataBkts[string(e.Partition)]
		if m == nil {
			m = map[int32]bool{}
			a.dataBkts[string(e.Partition)] = m
		}
		m[e.Bucket] = true
	}
	return a, nil
}

// BaseSnapshot is the id of the snapshot the assigner was restored from (0 for an empty table).
func (a *Assigner) BaseSnapshot() int64 { return a.base }

// Assign returns the bucket of key hash h in partition (serialized BinaryRow) and records h in
// that bucket's index.
func (a *Assigner) Assign(ctx context.Context, partition []byte, h int32) (int32, error) {
	p := a.parts[string(partition)]
	if p == nil {
		var err error
		if p, err = a.load(ctx, partition); err != nil {
			return 0, err
		}
		a.parts[string(partition)] = p
	}
	b, err := p.assign(h, a.opts)
	if err != nil {
		return 0, fmt.Errorf("table %s partition %s: %w", a.t.Path, a.partName(partition), err)
	}
	bi := p.buckets[b]
	if bi == nil {
		bi = &bucketIndex{}
		p.buckets[b] = bi
	}
	if bi.set == nil {
		if bi.current != nil {
			bi.set = newIntSet(int(bi.current.RowCount))
			for _, x := range bi.restored {
				bi.set.add(x)
			}
			bi.restored = nil
		} else {
			bi.set = newIntSet(16)
		}
	}
	if bi.set.add(h) {
		bi.modified = true
	}
	return b, nil
}

func (a *Assigner) partName(partition []byte) string {
	if dir, err := a.paths.PartitionDir(partition); err == nil {
		return dir
	}
	return fmt.Sprintf("%x", partition)
}

// load is Java PartitionIndex.loadIndex: every HASH file of the partition maps its hashes to its
// bucket and counts them.
func (a *Assigner) load(ctx context.Context, partition []byte) (*partitionIndex, error) {
	p := &partitionIndex{part: partition, hash2bkt: map[int32]int32{}, total: map[int32]bool{}, buckets: map[int32]*bucketIndex{}}
	files := a.files[string(partition)]
	for _, e := range files {
		if p.buckets[e.Bucket] != nil {
			return nil, fmt.Errorf("%w: table %s partition %s bucket %d has two HASH index files (%s, %s)",
				spec.ErrCorrupt, a.t.Path, a.partName(partition), e.Bucket, p.buckets[e.Bucket].current.FileName, e.FileName)
		}
		if e.Bucket < 0 || e.Bucket >= javaShortMax {
			return nil, fmt.Errorf("%w: HASH index file %s names bucket %d", spec.ErrCorrupt, e.FileName, e.Bucket)
		}
		hs, err := ReadHashFile(ctx, a.t, e)
		if err != nil {
			return nil, err
		}
		for _, h := range hs {
			if prev, ok := p.hash2bkt[h]; ok && prev != e.Bucket {
				return nil, fmt.Errorf("%w: table %s partition %s: key hash %d is in the HASH index of buckets %d and %d (two writers assigned keys at once?)",
					spec.ErrCorrupt, a.t.Path, a.partName(partition), h, prev, e.Bucket)
			}
			p.hash2bkt[h] = e.Bucket
		}
		cur := e
		p.buckets[e.Bucket] = &bucketIndex{current: &cur, restored: hs}
		p.nonFull = append(p.nonFull, bucketCount{e.Bucket, int64(len(hs))})
		p.total[e.Bucket] = true
		p.totalList = append(p.totalList, e.Bucket)
	}
	sort.Slice(p.nonFull, func(i, j int) bool { return p.nonFull[i].bucket < p.nonFull[j].bucket })
	for b := range a.dataBkts[string(partition)] {
		if !p.total[b] {
			return nil, fmt.Errorf("table %s partition %s bucket %d holds data files but no HASH index file, so lakeload cannot tell which keys it holds "+
				"(written by a writer that does not maintain Paimon's dynamic-bucket index); rewrite the partition with Java Paimon (INSERT OVERWRITE) before loading into it",
				a.t.Path, a.partName(partition), b)
		}
	}
	return p, nil
}

// assign is Java PartitionIndex.assign with one assigner; once max-buckets is reached it picks an
// existing bucket by the hash (Java picks at random; any recorded choice is valid).
func (p *partitionIndex) assign(h int32, o Options) (int32, error) {
	if b, ok := p.hash2bkt[h]; ok {
		return b, nil
	}
	for len(p.nonFull) > 0 {
		c := &p.nonFull[0]
		if c.n < o.TargetRows {
			c.n++
			p.hash2bkt[h] = c.bucket
			return c.bucket, nil
		}
		p.nonFull = p.nonFull[1:]
	}
	limit := int32(javaShortMax)
	if o.MaxBuckets > 0 {
		limit = int32(o.MaxBuckets)
	}
	if !p.full {
		for b := int32(0); b < limit; b++ {
			if !p.total[b] {
				p.total[b] = true
				p.totalList = append(p.totalList, b)
				p.nonFull = append(p.nonFull, bucketCount{b, 1})
				sort.Slice(p.nonFull, func(i, j int) bool { return p.nonFull[i].bucket < p.nonFull[j].bucket })
				p.hash2bkt[h] = b
				return b, nil
			}
		}
		if o.MaxBuckets <= 0 {
			return 0, fmt.Errorf("all %d bucket ids are in use; raise option %s (now %d)", javaShortMax, OptTargetRowNum, o.TargetRows)
		}
		p.full = true
	}
	b := p.totalList[uint32(h)%uint32(len(p.totalList))]
	p.hash2bkt[h] = b
	return b, nil
}

// Prepare writes a new HASH index file for every bucket whose key set grew since the last
// Prepare and returns the changes, ordered by (partition, bucket).
func (a *Assigner) Prepare(ctx context.Context) ([]Change, error) {
	var out []Change
	keys := make([]string, 0, len(a.parts))
	for k := range a.parts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := a.parts[k]
		bs := make([]int32, 0, len(p.buckets))
		for b, bi := range p.buckets {
			if bi.modified {
				bs = append(bs, b)
			}
		}
		sort.Slice(bs, func(i, j int) bool { return bs[i] < bs[j] })
		for _, b := range bs {
			bi := p.buckets[b]
			e, err := WriteHashFile(ctx, a.t, a.paths, p.part, b, bi.set.values())
			if err != nil {
				return nil, err
			}
			a.written = append(a.written, e)
			out = append(out, Change{Partition: p.part, Bucket: b, Old: bi.current, New: e})
			cur := e
			bi.current, bi.modified = &cur, false
		}
	}
	return out, nil
}

// Written returns the index files Prepare wrote since the last Forget (for deleting them when
// their commit is abandoned).
func (a *Assigner) Written() []manifest.IndexManifestEntry { return a.written }

// Forget clears the list Written returns (the files now belong to commit messages).
func (a *Assigner) Forget() { a.written = nil }
