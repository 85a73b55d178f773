package index

import (
	"context"
	"encoding/binary"
	"fmt"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// EncodeHashes returns the HASH index file holding hashes: each an int32 big-endian, in order.
func EncodeHashes(hashes []int32) []byte {
	out := make([]byte, 4*len(hashes))
	for i, h := range hashes {
		binary.BigEndian.PutUint32(out[4*i:], uint32(h))
	}
	return out
}

// DecodeHashes parses a HASH index file. A length that is not a multiple of 4 is corrupt.
func DecodeHashes(b []byte) ([]int32, error) {
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("%w: HASH index file of %d bytes is not a whole number of int32 hashes", spec.ErrCorrupt, len(b))
	}
	out := make([]int32, len(b)/4)
	for i := range out {
		out[i] = int32(binary.BigEndian.Uint32(b[4*i:]))
	}
	return out, nil
}

// FilePath returns where the index file of entry e lives: its external path, or <table>/index/<name>
// (table.Table.IndexFile: a name or external path outside the table is a *table.PathError).
func FilePath(t *table.Table, e manifest.IndexManifestEntry) (string, error) {
	return t.IndexFile(e.FileName, e.ExternalPath, fmt.Sprintf("an index manifest entry (%s, bucket %d)", e.IndexType, e.Bucket))
}

// ReadHashFile reads the HASH index file of entry e and checks it holds e.RowCount hashes.
func ReadHashFile(ctx context.Context, t *table.Table, e manifest.IndexManifestEntry) ([]int32, error) {
	p, err := FilePath(t, e)
	if err != nil {
		return nil, err
	}
	b, err := t.FS.ReadFile(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("read HASH index file %s (bucket %d): %w", p, e.Bucket, err)
	}
	hs, err := DecodeHashes(b)
	if err != nil {
		return nil, fmt.Errorf("HASH index file %s: %w", p, err)
	}
	if int64(len(hs)) != e.RowCount {
		return nil, fmt.Errorf("%w: HASH index file %s holds %d hashes, its index manifest entry says %d", spec.ErrCorrupt, p, len(hs), e.RowCount)
	}
	return hs, nil
}

// WriteHashFile writes hashes as a new HASH index file of (partition, bucket) in <table>/index and
// returns its ADD entry.
func WriteHashFile(ctx context.Context, t *table.Table, paths *table.Paths, partition []byte, bucket int32, hashes []int32) (manifest.IndexManifestEntry, error) {
	name := paths.NewIndexFileName()
	b := EncodeHashes(hashes)
	p := fileio.Join(paths.IndexDir(), name)
	if err := fileio.WriteFile(ctx, t.FS, p, b); err != nil {
		return manifest.IndexManifestEntry{}, fmt.Errorf("write HASH index file %s: %w", p, err)
	}
	return manifest.IndexManifestEntry{Kind: manifest.Add, Partition: partition, Bucket: bucket, IndexType: manifest.IndexTypeHash,
		FileName: name, FileSize: int64(len(b)), RowCount: int64(len(hashes))}, nil
}
