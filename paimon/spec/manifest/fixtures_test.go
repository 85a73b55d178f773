package manifest

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// minCreationMillis is 2025-01-01T00:00:00Z; every fixture was written in 2025.
const minCreationMillis = 1735689600000

// TestJavaManifestsMatchDisk reads every Java-written manifest and checks each entry against the
// table directory: the data file exists in its partition/bucket directory with exactly _FILE_SIZE
// bytes, and the stats rows are well formed.
func TestJavaManifestsMatchDisk(t *testing.T) {
	total := 0
	for _, ft := range fixtureTables(t) {
		for _, path := range ft.metaFiles(t, "manifest-") {
			entries, err := ReadManifest(open(t, path))
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if len(entries) == 0 {
				t.Errorf("%s: no entries", path)
			}
			for _, e := range entries {
				total++
				dir, err := bucketDir(ft, e.Partition, e.Bucket)
				if err != nil {
					t.Fatalf("%s %s: %v", path, e.File.FileName, err)
				}
				if got := fileSize(t, filepath.Join(dir, e.File.FileName)); got != e.File.FileSize {
					t.Errorf("%s: %s is %d bytes on disk, manifest says %d", path, e.File.FileName, got, e.File.FileSize)
				}
				unaware := e.TotalBuckets == -1 && e.Bucket == 0 // bucket-unaware table (bucket = -1)
				if !unaware && (e.TotalBuckets <= 0 || e.Bucket < 0 || e.Bucket >= e.TotalBuckets) {
					t.Errorf("%s: bucket %d of %d", path, e.Bucket, e.TotalBuckets)
				}
				if e.File.CreationTimeMillis < minCreationMillis {
					t.Errorf("%s: creation time %d", path, e.File.CreationTimeMillis)
				}
				if e.File.RowCount <= 0 || e.File.MinSequenceNumber > e.File.MaxSequenceNumber {
					t.Errorf("%s: row count %d, sequence %d..%d", path, e.File.RowCount, e.File.MinSequenceNumber, e.File.MaxSequenceNumber)
				}
				for _, s := range []SimpleStats{e.File.KeyStats, e.File.ValueStats} {
					if err := checkStats("stats", s); err != nil {
						t.Errorf("%s: %v", path, err)
					}
					if arity := int(s.MinValues[3]); len(s.NullCounts) != arity {
						t.Errorf("%s: %d null counts for stats of arity %d", path, len(s.NullCounts), arity)
					}
				}
				if e.File.DeleteRowCount == nil || e.File.FileSource == nil {
					t.Errorf("%s: Java 0.9+ always writes _DELETE_ROW_COUNT and _FILE_SOURCE", path)
				}
			}
		}
	}
	if total < 40 {
		t.Fatalf("only %d manifest entries read from the fixtures", total)
	}
}

// TestJavaManifestListsMatchManifests checks every manifest list entry against the manifest it
// names: exact file size, ADD/DELETE counts, max schema id, partition-stats arity, and (Java 1.1+)
// the min/max bucket and level.
func TestJavaManifestListsMatchManifests(t *testing.T) {
	checked := 0
	for _, ft := range fixtureTables(t) {
		for _, path := range ft.metaFiles(t, "manifest-list-") {
			metas, err := ReadManifestList(open(t, path))
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			for _, m := range metas {
				checked++
				mpath := filepath.Join(ft.dir, "manifest", m.FileName)
				if got := fileSize(t, mpath); got != m.FileSize {
					t.Errorf("%s: %s is %d bytes, list says %d", path, m.FileName, got, m.FileSize)
				}
				entries, err := ReadManifest(open(t, mpath))
				if err != nil {
					t.Fatal(err)
				}
				var adds, dels, schemaID int64
				minB, maxB, minL, maxL := int32(1<<30), int32(-1<<30), int32(1<<30), int32(-1<<30)
				for _, e := range entries {
					if e.Kind == Add {
						adds++
					} else {
						dels++
					}
					schemaID = max(schemaID, e.File.SchemaID)
					minB, maxB = min(minB, e.Bucket), max(maxB, e.Bucket)
					minL, maxL = min(minL, e.File.Level), max(maxL, e.File.Level)
				}
				if adds != m.NumAddedFiles || dels != m.NumDeletedFiles || schemaID != m.SchemaID {
					t.Errorf("%s: %s has %d adds, %d deletes, schema %d; list says %d, %d, %d",
						path, m.FileName, adds, dels, schemaID, m.NumAddedFiles, m.NumDeletedFiles, m.SchemaID)
				}
				if arity := int(m.PartitionStats.MinValues[3]); arity != len(ft.partitionKeys) || len(m.PartitionStats.NullCounts) != arity {
					t.Errorf("%s: partition stats arity %d with %d null counts, table has %d keys",
						path, arity, len(m.PartitionStats.NullCounts), len(ft.partitionKeys))
				}
				if m.MinBucket != nil {
					if *m.MinBucket != minB || *m.MaxBucket != maxB || *m.MinLevel != minL || *m.MaxLevel != maxL {
						t.Errorf("%s: bucket %d..%d level %d..%d, entries give %d..%d, %d..%d",
							path, *m.MinBucket, *m.MaxBucket, *m.MinLevel, *m.MaxLevel, minB, maxB, minL, maxL)
					}
				}
			}
		}
	}
	if checked < 30 {
		t.Fatalf("only %d manifest list entries checked", checked)
	}
}

// TestJavaIndexManifestsMatchDisk checks index manifests (Java 0.9 without _CARDINALITY and 1.x
// with it): index files exist with the recorded size, and each DV range names a data file of
// the same partition and bucket.
func TestJavaIndexManifestsMatchDisk(t *testing.T) {
	ranges := 0
	withCardinality := 0
	for _, ft := range fixtureTables(t) {
		for _, path := range ft.metaFiles(t, "index-manifest-") {
			entries, err := ReadIndexManifest(open(t, path))
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			for _, e := range entries {
				if e.IndexType != IndexTypeDeletionVectors || e.Kind != Add {
					t.Errorf("%s: unexpected %s %s entry", path, e.Kind, e.IndexType)
				}
				if got := fileSize(t, filepath.Join(ft.dir, "index", e.FileName)); got != e.FileSize {
					t.Errorf("%s: %s is %d bytes, manifest says %d", path, e.FileName, got, e.FileSize)
				}
				if e.DeletionVectorRanges == nil || int64(len(e.DeletionVectorRanges)) != e.RowCount {
					t.Errorf("%s: %d ranges, row count %d", path, len(e.DeletionVectorRanges), e.RowCount)
				}
				dir, err := bucketDir(ft, e.Partition, e.Bucket)
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range e.DeletionVectorRanges {
					ranges++
					fileSize(t, filepath.Join(dir, r.DataFileName))
					if r.Offset < 1 || int64(r.Offset)+4+int64(r.Length)+4 > e.FileSize {
						t.Errorf("%s: range %+v outside index file of %d bytes", path, r, e.FileSize)
					}
					if r.Cardinality != nil {
						withCardinality++
						if *r.Cardinality <= 0 {
							t.Errorf("%s: cardinality %d", path, *r.Cardinality)
						}
					}
				}
			}
		}
	}
	if ranges < 4 || withCardinality == 0 || withCardinality == ranges {
		t.Fatalf("%d ranges, %d with cardinality: fixtures should cover both Java 0.9 and 1.x", ranges, withCardinality)
	}
}

// TestJavaSnapshotsRecordCounts merges base + delta manifest lists of every snapshot and checks the
// live files' row count against the snapshot's totalRecordCount, and the delta's ADD minus DELETE
// rows against deltaRecordCount. Every live file must exist.
func TestJavaSnapshotsRecordCounts(t *testing.T) {
	snapshots := 0
	for _, ft := range fixtureTables(t) {
		paths, _ := filepath.Glob(filepath.Join(ft.dir, "snapshot", "snapshot-*"))
		for _, sp := range paths {
			raw, err := os.ReadFile(sp)
			if err != nil {
				t.Fatal(err)
			}
			var snap struct {
				Base, Delta string
				Total       *int64 `json:"totalRecordCount"`
				DeltaCount  *int64 `json:"deltaRecordCount"`
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatal(err)
			}
			_ = json.Unmarshal(m["baseManifestList"], &snap.Base)
			_ = json.Unmarshal(m["deltaManifestList"], &snap.Delta)
			_ = json.Unmarshal(m["totalRecordCount"], &snap.Total)
			_ = json.Unmarshal(m["deltaRecordCount"], &snap.DeltaCount)
			if snap.Total == nil || snap.DeltaCount == nil {
				t.Fatalf("%s: no record counts", sp)
			}
			read := func(list string) []ManifestEntry {
				metas, err := ReadManifestList(open(t, filepath.Join(ft.dir, "manifest", list)))
				if err != nil {
					t.Fatal(err)
				}
				var all []ManifestEntry
				for _, meta := range metas {
					es, err := ReadManifest(open(t, filepath.Join(ft.dir, "manifest", meta.FileName)))
					if err != nil {
						t.Fatal(err)
					}
					all = append(all, es...)
				}
				return all
			}
			base, delta := read(snap.Base), read(snap.Delta)
			live, err := MergeEntries(append(base, delta...))
			if err != nil {
				t.Fatalf("%s: %v", sp, err)
			}
			var total, deltaRows int64
			for _, e := range live {
				total += e.File.RowCount
				dir, _ := bucketDir(ft, e.Partition, e.Bucket)
				fileSize(t, filepath.Join(dir, e.File.FileName))
			}
			for _, e := range delta {
				if e.Kind == Add {
					deltaRows += e.File.RowCount
				} else {
					deltaRows -= e.File.RowCount
				}
			}
			if total != *snap.Total || deltaRows != *snap.DeltaCount {
				t.Errorf("%s: merged %d live rows (delta %d), snapshot says %d (delta %d)", sp, total, deltaRows, *snap.Total, *snap.DeltaCount)
			}
			snapshots++
		}
	}
	if snapshots < 20 {
		t.Fatalf("only %d snapshots checked", snapshots)
	}
}

// TestJavaORCTablesAreRead: the tests above cover the manifest.format=orc tables too; this one
// makes sure each of them contributes entries, with the exact fields of its writer version.
func TestJavaORCTablesAreRead(t *testing.T) {
	tables := 0
	for _, ft := range fixtureTables(t) {
		if ft.avro {
			continue
		}
		tables++
		entries, files := 0, 0
		for _, path := range ft.metaFiles(t, "manifest-") {
			es, err := ReadManifest(open(t, path))
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			files++
			entries += len(es)
			for _, e := range es {
				if e.File.ExtraFiles == nil || e.File.EmbeddedIndex != nil || *e.File.FileSource > int32(Compact) {
					t.Errorf("%s: %s: extra files %v, embedded index %v, source %d", path, e.File.FileName,
						e.File.ExtraFiles, e.File.EmbeddedIndex, *e.File.FileSource)
				}
			}
		}
		lists := 0
		for _, path := range ft.metaFiles(t, "manifest-list-") {
			if _, err := ReadManifestList(open(t, path)); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			lists++
		}
		if entries == 0 || lists == 0 {
			t.Errorf("%s: %d entries in %d ORC manifests, %d ORC manifest lists", ft.dir, entries, files, lists)
		}
	}
	if tables != 4 {
		t.Fatalf("%d ORC tables in the fixtures, want 4", tables)
	}
}

// TestRoundTripJavaFiles reads every Java-written Avro metadata file, writes it with this
// package's writer and reads it back: the values must be identical.
func TestRoundTripJavaFiles(t *testing.T) {
	n := 0
	for _, ft := range fixtureTables(t) {
		for _, path := range ft.metaFiles(t, "manifest-") {
			n++
			roundTrip(t, path, ReadManifest, WriteManifest)
		}
		for _, path := range ft.metaFiles(t, "manifest-list-") {
			n++
			roundTrip(t, path, ReadManifestList, WriteManifestList)
		}
		for _, path := range ft.metaFiles(t, "index-manifest-") {
			n++
			roundTrip(t, path, ReadIndexManifest, WriteIndexManifest)
		}
	}
	if n < 80 {
		t.Fatalf("only %d files round-tripped", n)
	}
}

func roundTrip[T any](t *testing.T, path string, read func(io.Reader) ([]T, error), write func(io.Writer, []T) error) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	orig, err := read(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var buf bytes.Buffer
	if err := write(&buf, orig); err != nil {
		t.Fatalf("%s: write: %v", path, err)
	}
	again, err := read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("%s: reread: %v", path, err)
	}
	if !reflect.DeepEqual(orig, again) {
		t.Errorf("%s: round trip differs:\n%+v\n%+v", path, orig, again)
	}
}
