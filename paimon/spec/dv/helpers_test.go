package dv

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec/manifest"
)

const fixtureRoot = "../../../testdata/java-written"

// dvTables are the Java-written tables with deletion vectors (pk_09: Java 0.9, no cardinality).
var dvTables = []string{"pk_09.db/pk_09", "pk_table_scan_and_read_dv.db/pk_table_scan_and_read_dv"}

// dvRange is one deletion vector of a fixture: where it is and what it covers.
type dvRange struct {
	indexFile string
	meta      manifest.DeletionVectorMeta
	bucketDir string
	rowCount  int64 // of the data file, from the table's manifests
}

// fixtureRanges lists every DV range of every index manifest of the DV fixture tables.
func fixtureRanges(t *testing.T) []dvRange {
	t.Helper()
	var out []dvRange
	for _, table := range dvTables {
		dir := filepath.Join(fixtureRoot, table)
		rows := dataFileRowCounts(t, dir)
		partKeys := partitionKeys(t, dir)
		ims, _ := filepath.Glob(filepath.Join(dir, "manifest", "index-manifest-*"))
		for _, im := range ims {
			f, err := os.Open(im)
			if err != nil {
				t.Fatal(err)
			}
			entries, err := manifest.ReadIndexManifest(f)
			f.Close()
			if err != nil {
				t.Fatalf("%s: %v", im, err)
			}
			for _, e := range entries {
				part, err := partitionPath(partKeys, e.Partition)
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range e.DeletionVectorRanges {
					rc, ok := rows[m.DataFileName]
					if !ok {
						t.Fatalf("%s: DV for %s, which no manifest names", im, m.DataFileName)
					}
					out = append(out, dvRange{
						indexFile: filepath.Join(dir, "index", e.FileName),
						meta:      m,
						bucketDir: filepath.Join(dir, part, fmt.Sprintf("bucket-%d", e.Bucket)),
						rowCount:  rc,
					})
				}
			}
		}
	}
	if len(out) < 4 {
		t.Fatalf("only %d DV ranges in the fixtures", len(out))
	}
	return out
}

func dataFileRowCounts(t *testing.T, dir string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	paths, _ := filepath.Glob(filepath.Join(dir, "manifest", "manifest-*"))
	for _, p := range paths {
		if filepath.Base(p)[:len("manifest-list")] == "manifest-list" {
			continue
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		entries, err := manifest.ReadManifest(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, e := range entries {
			out[e.File.FileName] = e.File.RowCount
		}
	}
	return out
}

func partitionKeys(t *testing.T, dir string) []string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "schema", "schema-0"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		PartitionKeys []string `json:"partitionKeys"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	return s.PartitionKeys
}

// partitionPath renders a partition row of NOT NULL INT fields as "k=v/…" (test-only decoder).
func partitionPath(keys []string, row []byte) (string, error) {
	if len(row) < 4 || int(binary.BigEndian.Uint32(row)) != len(keys) {
		return "", fmt.Errorf("partition row %x does not match keys %v", row, keys)
	}
	nullBits := (len(keys) + 63 + 8) / 64 * 8
	var parts []string
	for i, k := range keys {
		off := 4 + nullBits + 8*i
		if off+4 > len(row) {
			return "", fmt.Errorf("short partition row")
		}
		parts = append(parts, fmt.Sprintf("%s=%d", k, int32(binary.LittleEndian.Uint32(row[off:]))))
	}
	return filepath.Join(parts...), nil
}

// positions lists the deleted positions of v below limit.
func positions(v DeletionVector, limit int64) []int64 {
	var out []int64
	for p := int64(0); p < limit; p++ {
		if v.IsDeleted(p) {
			out = append(out, p)
		}
	}
	return out
}
