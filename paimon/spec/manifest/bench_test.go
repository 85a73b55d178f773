package manifest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"testing"
)

// benchRow returns a serialized arity-n BinaryRow of int fields (null bits + 8 bytes per field).
func benchRow(n int, v int64) []byte {
	b := make([]byte, 4+(n+63+8)/64*8+8*n)
	binary.BigEndian.PutUint32(b, uint32(n))
	off := 4 + (n+63+8)/64*8
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint64(b[off+8*i:], uint64(v+int64(i)))
	}
	return b
}

// benchEntries builds n realistic manifest entries: one partition column, a one-column key and
// five value-stats columns.
func benchEntries(n int) []ManifestEntry {
	out := make([]ManifestEntry, n)
	for i := range out {
		nc := []*int64{ptr(int64(0)), ptr(int64(i % 7)), nil, ptr(int64(0)), ptr(int64(1))}
		out[i] = ManifestEntry{
			Kind:         FileKind(i % 2),
			Partition:    benchRow(1, int64(i%16)),
			Bucket:       int32(i % 8),
			TotalBuckets: 8,
			File: DataFileMeta{
				FileName:           fmt.Sprintf("data-7f1c2a3b-%08d-0.parquet", i),
				FileSize:           1<<20 + int64(i),
				RowCount:           1000 + int64(i),
				MinKey:             benchRow(1, int64(i)),
				MaxKey:             benchRow(1, int64(i)+999),
				KeyStats:           SimpleStats{MinValues: benchRow(1, int64(i)), MaxValues: benchRow(1, int64(i)+999), NullCounts: []*int64{ptr(int64(0))}},
				ValueStats:         SimpleStats{MinValues: benchRow(5, int64(i)), MaxValues: benchRow(5, int64(i)+999), NullCounts: nc},
				MinSequenceNumber:  int64(i) * 1000,
				MaxSequenceNumber:  int64(i)*1000 + 999,
				SchemaID:           0,
				Level:              int32(i % 5),
				ExtraFiles:         []string{},
				CreationTimeMillis: 1_700_000_000_000 + int64(i),
				DeleteRowCount:     ptr(int64(0)),
				FileSource:         ptr(int32(0)),
			},
		}
	}
	return out
}

var benchSizes = []int{100, 10_000}

func BenchmarkWriteManifest(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			entries := benchEntries(n)
			var buf bytes.Buffer
			b.ReportAllocs()
			for b.Loop() {
				buf.Reset()
				if err := WriteManifest(&buf, entries); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len()), "file-bytes")
		})
	}
}

func BenchmarkReadManifest(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			var buf bytes.Buffer
			if err := WriteManifest(&buf, benchEntries(n)); err != nil {
				b.Fatal(err)
			}
			data := buf.Bytes()
			b.ReportAllocs()
			for b.Loop() {
				out, err := ReadManifest(bytes.NewReader(data))
				if err != nil || len(out) != n {
					b.Fatalf("read %d entries, err %v", len(out), err)
				}
			}
		})
	}
}
