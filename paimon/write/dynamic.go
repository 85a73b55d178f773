package write

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/lakeload/lakeload/paimon/index"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/binrow"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// checkDynamicBucket refuses cross-partition dynamic-bucket tables: a primary key without every
// partition key lets a key move between partitions, which needs Java's global key index.
func checkDynamicBucket(t *table.Table) error {
	var missing []string
	for _, p := range t.Schema.PartitionKeys {
		if !slices.Contains(t.Schema.PrimaryKeys, p) {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("bucket=-1 with primary key (%s) that does not contain partition key(s) %s is a cross-partition dynamic-bucket table, "+
			"which lakeload cannot write; add %s to the primary key, or create the table with a fixed bucket count, e.g. 'bucket'='4'",
			strings.Join(t.Schema.PrimaryKeys, ", "), strings.Join(missing, ", "), strings.Join(missing, ", "))
	}
	if _, err := index.OptionsOf(t.Options); err != nil {
		return err
	}
	return nil
}

// dynamicBuckets routes the rows of a dynamic-bucket table (bucket = -1) by the table's HASH index:
// the hash of a row's trimmed primary key (BinaryRow hashCode) picks its bucket through an
// index.Assigner restored from the latest snapshot. Prepare attaches each changed bucket's new
// HASH file to its commit message, deleting the file it replaces.
type dynamicBuckets struct {
	t      *table.Table
	asg    *index.Assigner
	keyIdx []int
	keyT   []spec.DataType
	key    binrow.Builder
}

// newDynamicBuckets restores the index of snapshot latest (nil: empty table) whose live data files are live.
func newDynamicBuckets(ctx context.Context, t *table.Table, latest *spec.Snapshot, live []manifest.ManifestEntry) (*dynamicBuckets, error) {
	d := &dynamicBuckets{t: t}
	var err error
	if d.keyIdx, d.keyT, err = indexes(t.Schema, t.Schema.TrimmedPrimaryKeys()); err != nil {
		return nil, err
	}
	if d.asg, err = index.NewAssigner(ctx, t, latest, live); err != nil {
		return nil, err
	}
	return d, nil
}

// newDynamicBucketsFor is newDynamicBuckets, or for an overwrite (o.Overwrite) an assigner that
// continues o.OverwriteIndex and ignores the table's index and live data.
func newDynamicBucketsFor(ctx context.Context, t *table.Table, o Options, latest *spec.Snapshot, live []manifest.ManifestEntry) (*dynamicBuckets, error) {
	if !o.Overwrite {
		return newDynamicBuckets(ctx, t, latest, live)
	}
	d := &dynamicBuckets{t: t}
	var err error
	if d.keyIdx, d.keyT, err = indexes(t.Schema, t.Schema.TrimmedPrimaryKeys()); err != nil {
		return nil, err
	}
	if d.asg, err = index.NewAssignerFrom(t, o.OverwriteIndex); err != nil {
		return nil, err
	}
	return d, nil
}

// bucketOf hashes the row's trimmed primary key (set(b, i, type, column) copies key column i) and
// returns its bucket in partition (serialized BinaryRow).
func (d *dynamicBuckets) bucketOf(ctx context.Context, partition []byte, set func(b *binrow.Builder, i int, typ spec.DataType, col int) error) (int32, error) {
	d.key.Reset(len(d.keyIdx))
	for i, c := range d.keyIdx {
		if err := set(&d.key, i, d.keyT[i], c); err != nil {
			return 0, fmt.Errorf("primary key: %w", err)
		}
	}
	return d.asg.Assign(ctx, partition, binrow.Hash(d.key.Bytes()))
}

// attach writes the new HASH index files and adds them (with the deletion of the files they
// replace) to the messages of their buckets.
func (d *dynamicBuckets) attach(ctx context.Context, msgs []table.CommitMessage, totalBuckets int32) ([]table.CommitMessage, error) {
	changes, err := d.asg.Prepare(ctx)
	if err != nil {
		return nil, err
	}
	pos := map[bucketKey]int{}
	for i, m := range msgs {
		pos[bucketKey{string(m.Partition), m.Bucket}] = i
	}
	for _, c := range changes {
		i, ok := pos[bucketKey{string(c.Partition), c.Bucket}]
		if !ok {
			i = len(msgs)
			msgs = append(msgs, table.CommitMessage{Partition: c.Partition, Bucket: c.Bucket, TotalBuckets: totalBuckets})
		}
		msgs[i].NewIndexFiles = append(msgs[i].NewIndexFiles, c.New)
		if c.Old != nil {
			old := *c.Old
			old.Kind = manifest.Delete
			msgs[i].DeletedIndexFiles = append(msgs[i].DeletedIndexFiles, old)
		}
	}
	d.asg.Forget()
	return msgs, nil
}

// abort deletes the index files written by a Prepare whose messages were not handed out.
func (d *dynamicBuckets) abort(ctx context.Context) error {
	var errs []error
	for _, e := range d.asg.Written() {
		p, err := index.FilePath(d.t, e)
		if err == nil {
			err = d.t.Delete(ctx, p)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	d.asg.Forget()
	return errors.Join(errs...)
}
