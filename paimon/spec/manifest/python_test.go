package manifest

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// pythonWithFastavro is the interpreter of the pypaimon installation (it has fastavro).
const pythonWithFastavro = "/root/.cache/lakeload-venv/bin/python"

func hx(b []byte) map[string]any { return map[string]any{"hex": hex.EncodeToString(b)} }

// sampleRow is a serialized BinaryRow of arity 1 holding INT 7.
var sampleRow = []byte{0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0}

func sampleEntries() []ManifestEntry {
	full := ManifestEntry{
		Kind: Delete, Partition: sampleRow, Bucket: 3, TotalBuckets: 8,
		File: DataFileMeta{
			FileName: "data-1.parquet", FileSize: 1<<60 + 1, RowCount: 42,
			MinKey: sampleRow, MaxKey: sampleRow,
			KeyStats:          SimpleStats{MinValues: sampleRow, MaxValues: sampleRow, NullCounts: []*int64{ptr[int64](0)}},
			ValueStats:        SimpleStats{MinValues: sampleRow, MaxValues: sampleRow, NullCounts: []*int64{nil}},
			MinSequenceNumber: -5, MaxSequenceNumber: 1 << 40, SchemaID: 2, Level: 5,
			ExtraFiles: []string{"data-1.parquet.index"}, CreationTimeMillis: 1755758625645,
			DeleteRowCount: ptr[int64](3), EmbeddedIndex: []byte{1, 2}, FileSource: ptr[int32](int32(Compact)),
			ValueStatsCols: []string{}, ExternalPath: ptr("s3://b/t/data-1.parquet"), FirstRowID: ptr[int64](9),
			WriteCols: []string{"a", "b"},
		},
	}
	minimal := ManifestEntry{
		Kind: Add, Partition: EmptyRow, Bucket: 0, TotalBuckets: -1,
		File: DataFileMeta{FileName: "data-2.parquet", FileSize: 10, RowCount: 1, MinKey: EmptyRow, MaxKey: EmptyRow,
			KeyStats: EmptyStats, ValueStats: SimpleStats{MinValues: EmptyRow, MaxValues: EmptyRow}},
	}
	return []ManifestEntry{full, minimal}
}

func statsJSON(nc ...any) map[string]any {
	if nc == nil {
		nc = []any{}
	}
	return map[string]any{"_MIN_VALUES": hx(sampleRow), "_MAX_VALUES": hx(sampleRow), "_NULL_COUNTS": nc}
}

// TestPythonReadsWrittenFiles has fastavro read files written by this package and compares every
// field by name with the values written (independently of the Go reader).
func TestPythonReadsWrittenFiles(t *testing.T) {
	if _, err := os.Stat(pythonWithFastavro); err != nil {
		t.Skipf("no pypaimon interpreter: %v", err)
	}
	dir := t.TempDir()
	write := func(name string, fn func(*bytes.Buffer) error) string {
		var buf bytes.Buffer
		if err := fn(&buf); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mf := write("manifest", func(b *bytes.Buffer) error { return WriteManifest(b, sampleEntries()) })
	ml := write("manifest-list", func(b *bytes.Buffer) error {
		return WriteManifestList(b, []ManifestFileMeta{
			{FileName: "manifest-a-0", FileSize: 2204, NumAddedFiles: 3, NumDeletedFiles: 1,
				PartitionStats: SimpleStats{MinValues: sampleRow, MaxValues: sampleRow, NullCounts: []*int64{ptr[int64](0)}},
				SchemaID:       1, MinBucket: ptr[int32](0), MaxBucket: ptr[int32](1), MinLevel: ptr[int32](0), MaxLevel: ptr[int32](5),
				MinRowID: ptr[int64](10), MaxRowID: ptr[int64](20)},
			{FileName: "manifest-a-1", FileSize: 1, PartitionStats: EmptyStats},
		})
	})
	im := write("index-manifest", func(b *bytes.Buffer) error {
		return WriteIndexManifest(b, []IndexManifestEntry{
			{Kind: Add, Partition: sampleRow, Bucket: 1, IndexType: IndexTypeDeletionVectors, FileName: "index-x-0", FileSize: 31, RowCount: 2,
				DeletionVectorRanges: []DeletionVectorMeta{
					{DataFileName: "data-1.parquet", Offset: 1, Length: 22, Cardinality: ptr[int64](1)},
					{DataFileName: "data-2.parquet", Offset: 31, Length: 22}},
				ExternalPath: ptr("oss://x/index-x-0")},
			{Kind: Delete, Partition: EmptyRow, Bucket: 0, IndexType: IndexTypeHash, FileName: "index-x-1", FileSize: 8, RowCount: 2},
		})
	})

	out, err := exec.Command(pythonWithFastavro, "testdata/dump_avro.py", mf, ml, im).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("fastavro failed: %v\n%s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	var got []any
	if err := dec.Decode(&got); err != nil {
		t.Fatal(err)
	}

	emptyStats := map[string]any{"_MIN_VALUES": hx(EmptyRow), "_MAX_VALUES": hx(EmptyRow), "_NULL_COUNTS": []any{}}
	want := []any{
		map[string]any{"codec": "zstandard", "records": []any{
			map[string]any{"_VERSION": 2, "_KIND": 1, "_PARTITION": hx(sampleRow), "_BUCKET": 3, "_TOTAL_BUCKETS": 8,
				"_FILE": map[string]any{
					"_FILE_NAME": "data-1.parquet", "_FILE_SIZE": int64(1<<60 + 1), "_ROW_COUNT": 42,
					"_MIN_KEY": hx(sampleRow), "_MAX_KEY": hx(sampleRow),
					"_KEY_STATS": statsJSON(0), "_VALUE_STATS": statsJSON(nil),
					"_MIN_SEQUENCE_NUMBER": -5, "_MAX_SEQUENCE_NUMBER": int64(1 << 40), "_SCHEMA_ID": 2, "_LEVEL": 5,
					"_EXTRA_FILES": []any{"data-1.parquet.index"}, "_CREATION_TIME": map[string]any{"millis": 1755758625645},
					"_DELETE_ROW_COUNT": 3, "_EMBEDDED_FILE_INDEX": hx([]byte{1, 2}), "_FILE_SOURCE": 1,
					"_VALUE_STATS_COLS": []any{}, "_EXTERNAL_PATH": "s3://b/t/data-1.parquet", "_FIRST_ROW_ID": 9,
					"_WRITE_COLS": []any{"a", "b"}}},
			map[string]any{"_VERSION": 2, "_KIND": 0, "_PARTITION": hx(EmptyRow), "_BUCKET": 0, "_TOTAL_BUCKETS": -1,
				"_FILE": map[string]any{
					"_FILE_NAME": "data-2.parquet", "_FILE_SIZE": 10, "_ROW_COUNT": 1,
					"_MIN_KEY": hx(EmptyRow), "_MAX_KEY": hx(EmptyRow), "_KEY_STATS": emptyStats, "_VALUE_STATS": emptyStats,
					"_MIN_SEQUENCE_NUMBER": 0, "_MAX_SEQUENCE_NUMBER": 0, "_SCHEMA_ID": 0, "_LEVEL": 0,
					"_EXTRA_FILES": []any{}, "_CREATION_TIME": map[string]any{"millis": 0},
					"_DELETE_ROW_COUNT": nil, "_EMBEDDED_FILE_INDEX": nil, "_FILE_SOURCE": nil,
					"_VALUE_STATS_COLS": nil, "_EXTERNAL_PATH": nil, "_FIRST_ROW_ID": nil, "_WRITE_COLS": nil}},
		}},
		map[string]any{"codec": "zstandard", "records": []any{
			map[string]any{"_VERSION": 2, "_FILE_NAME": "manifest-a-0", "_FILE_SIZE": 2204, "_NUM_ADDED_FILES": 3,
				"_NUM_DELETED_FILES": 1, "_PARTITION_STATS": statsJSON(0), "_SCHEMA_ID": 1, "_MIN_BUCKET": 0, "_MAX_BUCKET": 1,
				"_MIN_LEVEL": 0, "_MAX_LEVEL": 5, "_MIN_ROW_ID": 10, "_MAX_ROW_ID": 20},
			map[string]any{"_VERSION": 2, "_FILE_NAME": "manifest-a-1", "_FILE_SIZE": 1, "_NUM_ADDED_FILES": 0,
				"_NUM_DELETED_FILES": 0, "_PARTITION_STATS": emptyStats, "_SCHEMA_ID": 0, "_MIN_BUCKET": nil, "_MAX_BUCKET": nil,
				"_MIN_LEVEL": nil, "_MAX_LEVEL": nil, "_MIN_ROW_ID": nil, "_MAX_ROW_ID": nil},
		}},
		map[string]any{"codec": "zstandard", "records": []any{
			map[string]any{"_VERSION": 1, "_KIND": 0, "_PARTITION": hx(sampleRow), "_BUCKET": 1, "_INDEX_TYPE": "DELETION_VECTORS",
				"_FILE_NAME": "index-x-0", "_FILE_SIZE": 31, "_ROW_COUNT": 2,
				"_DELETIONS_VECTORS_RANGES": []any{
					map[string]any{"f0": "data-1.parquet", "f1": 1, "f2": 22, "_CARDINALITY": 1},
					map[string]any{"f0": "data-2.parquet", "f1": 31, "f2": 22, "_CARDINALITY": nil}},
				"_EXTERNAL_PATH": "oss://x/index-x-0"},
			map[string]any{"_VERSION": 1, "_KIND": 1, "_PARTITION": hx(EmptyRow), "_BUCKET": 0, "_INDEX_TYPE": "HASH",
				"_FILE_NAME": "index-x-1", "_FILE_SIZE": 8, "_ROW_COUNT": 2, "_DELETIONS_VECTORS_RANGES": nil, "_EXTERNAL_PATH": nil},
		}},
	}
	gotJSON, _ := json.Marshal(got)
	wantJSON, _ := json.Marshal(want)
	if !bytes.Equal(gotJSON, wantJSON) {
		t.Errorf("fastavro read:\n%s\nwant:\n%s", gotJSON, wantJSON)
	}
}
