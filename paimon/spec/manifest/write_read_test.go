package manifest

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
)

// TestWriteReadPreservesNulls: nil and empty stay distinct for every nullable list/bytes field.
func TestWriteReadPreservesNulls(t *testing.T) {
	in := sampleEntries()
	var buf bytes.Buffer
	if err := WriteManifest(&buf, in); err != nil {
		t.Fatal(err)
	}
	out, err := ReadManifest(&buf)
	if err != nil {
		t.Fatal(err)
	}
	// The writer stores nil ExtraFiles / NullCounts as empty arrays; that is what reads back.
	in[1].File.ExtraFiles = []string{}
	in[1].File.ValueStats.NullCounts = []*int64{}
	if !reflect.DeepEqual(in, out) {
		t.Fatalf("got  %+v\nwant %+v", out, in)
	}
	if out[0].File.ValueStatsCols == nil || out[1].File.ValueStatsCols != nil {
		t.Errorf("ValueStatsCols: [] must read as non-nil empty, null as nil")
	}
	if out[0].File.ValueStats.NullCounts[0] != nil {
		t.Errorf("a null null-count element must stay nil")
	}
}

func TestWritersRejectInvalidEntries(t *testing.T) {
	good := sampleEntries()[1]
	cases := map[string]func(e *ManifestEntry){
		"unknown kind":    func(e *ManifestEntry) { e.Kind = 2 },
		"nil partition":   func(e *ManifestEntry) { e.Partition = nil },
		"short min key":   func(e *ManifestEntry) { e.File.MinKey = []byte{0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0} },
		"negative arity":  func(e *ManifestEntry) { e.File.MaxKey = []byte{0xff, 0xff, 0xff, 0xff} },
		"nil stats row":   func(e *ManifestEntry) { e.File.ValueStats.MinValues = nil },
		"empty file name": func(e *ManifestEntry) { e.File.FileName = "" },
	}
	for name, mutate := range cases {
		e := good
		e.File.ValueStats = EmptyStats
		mutate(&e)
		if err := WriteManifest(&bytes.Buffer{}, []ManifestEntry{e}); err == nil {
			t.Errorf("%s: WriteManifest accepted it", name)
		}
	}
	if err := WriteManifestList(&bytes.Buffer{}, []ManifestFileMeta{{FileName: "m"}}); err == nil {
		t.Error("WriteManifestList accepted missing partition stats")
	}
	if err := WriteIndexManifest(&bytes.Buffer{}, []IndexManifestEntry{{Partition: EmptyRow, FileName: "i", IndexType: "HASH", Kind: 3}}); err == nil {
		t.Error("WriteIndexManifest accepted kind 3")
	}
}

// TestReadRejectsWrongVersion: a row with a _VERSION Java rejects is corrupt.
func TestReadRejectsWrongVersion(t *testing.T) {
	rows := []avroManifestEntry{{Version: 1, Partition: EmptyRow, File: avroDataFile{FileName: "f", ExtraFiles: []string{}}}}
	var buf bytes.Buffer
	if err := writeOCF(&buf, manifestSchema, rows); err != nil {
		t.Fatal(err)
	}
	_, err := ReadManifest(&buf)
	if !errors.Is(err, spec.ErrCorrupt) || !strings.Contains(err.Error(), "_VERSION 1") {
		t.Fatalf("got %v, want a corrupt _VERSION error", err)
	}
}

// TestReadMissingRequiredField: a file whose schema lacks a required field is corrupt, while
// missing optional fields are fine (checked by the Java 0.9 fixtures).
func TestReadMissingRequiredField(t *testing.T) {
	schema := `{"type":"record","name":"record","fields":[
 {"name":"_VERSION","type":"int"},
 {"name":"_FILE_NAME","type":"string"},
 {"name":"_PARTITION_STATS","type":{"type":"record","name":"stats","fields":` + statsFields + `}}]}`
	type noFileSize struct {
		Version        int32     `avro:"_VERSION"`
		FileName       string    `avro:"_FILE_NAME"`
		PartitionStats avroStats `avro:"_PARTITION_STATS"`
	}
	var buf bytes.Buffer
	if err := writeOCF(&buf, mustParse(t, schema), []noFileSize{{Version: 2, FileName: "m", PartitionStats: toAvroStats(EmptyStats)}}); err != nil {
		t.Fatal(err)
	}
	_, err := ReadManifestList(&buf)
	if !errors.Is(err, spec.ErrCorrupt) || !strings.Contains(err.Error(), "_FILE_SIZE") {
		t.Fatalf("got %v, want missing _FILE_SIZE", err)
	}
}

// TestTruncatedFilesNeverDecodeWrongly: every prefix of a real manifest either fails with
// ErrCorrupt or (when cut at a block boundary) yields a strict prefix of the entries.
func TestTruncatedFilesNeverDecodeWrongly(t *testing.T) {
	path := filepath.Join(fixtureRoot, "pk_table_scan_and_read_dv.db/pk_table_scan_and_read_dv/manifest/manifest-ba0138c4-ea53-45bb-9e8a-207e2b01fc8d-1")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	full, err := ReadManifest(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(raw); n++ {
		got, err := ReadManifest(bytes.NewReader(raw[:n]))
		if err != nil {
			if !errors.Is(err, spec.ErrCorrupt) {
				t.Fatalf("prefix %d: %v does not wrap ErrCorrupt", n, err)
			}
			continue
		}
		if len(got) >= len(full) || (len(got) > 0 && !reflect.DeepEqual(got, full[:len(got)])) {
			t.Fatalf("prefix %d decoded %d entries without error", n, len(got))
		}
	}
}

// TestFlippedBytesNeverPanic flips each byte of a real manifest list; decoding may fail or
// (rarely) succeed, but must not panic and failures must wrap ErrCorrupt.
func TestFlippedBytesNeverPanic(t *testing.T) {
	path := filepath.Join(fixtureRoot, "pk_table_with_mor.db/pk_table_with_mor/manifest/manifest-list-f5e80574-3f35-4325-859c-bb316beb7907-4")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	failures := 0
	for i := range raw {
		b := bytes.Clone(raw)
		b[i] ^= 0xff
		if _, err := ReadManifestList(bytes.NewReader(b)); err != nil {
			failures++
			if !errors.Is(err, spec.ErrCorrupt) {
				t.Fatalf("byte %d: %v does not wrap ErrCorrupt", i, err)
			}
		}
	}
	if failures < len(raw)/2 {
		t.Errorf("only %d of %d corruptions detected", failures, len(raw))
	}
}
