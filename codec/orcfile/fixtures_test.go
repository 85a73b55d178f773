package orcfile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// fixtureGlob matches the metadata files of the Java-written tables; the ORC ones are those of
// the tables with manifest.format=orc.
const fixtureGlob = "../../testdata/java-written/*.db/*/manifest/*"

type orcFixture struct {
	path, table string
	data        []byte
}

func orcFixtures(t testing.TB) []orcFixture {
	t.Helper()
	paths, err := filepath.Glob(fixtureGlob)
	if err != nil {
		t.Fatal(err)
	}
	var out []orcFixture
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if IsORC(data) {
			out = append(out, orcFixture{path: p, table: filepath.Dir(filepath.Dir(p)), data: data})
		}
	}
	if len(out) < 20 {
		t.Fatalf("only %d ORC fixtures", len(out))
	}
	return out
}

// countNonNull adds, per column id, the non-null values of v (of type t) and its descendants.
func countNonNull(t *Type, v any, counts []uint64) {
	if v == nil {
		return
	}
	counts[t.ID]++
	switch t.Kind {
	case Struct:
		m := v.(map[string]any)
		for i, c := range t.Children {
			countNonNull(c, m[t.FieldNames[i]], counts)
		}
	case List:
		for _, e := range v.([]any) {
			countNonNull(t.Children[0], e, counts)
		}
	case Map:
		for _, kv := range v.([]KeyValue) {
			countNonNull(t.Children[0], kv.Key, counts)
			countNonNull(t.Children[1], kv.Value, counts)
		}
	}
}

// TestJavaFixtures decodes every Java-written ORC manifest and manifest list and checks the
// result against what the writer recorded independently: the row count, and the number of
// non-null values of every column in the file statistics (which pins down PRESENT handling,
// nesting and list lengths). Paimon's field-level checks live in package manifest.
func TestJavaFixtures(t *testing.T) {
	codecs := map[Compression]int{}
	for _, fx := range orcFixtures(t) {
		f, err := Open(fx.data)
		if err != nil {
			t.Fatalf("%s: %v", fx.path, err)
		}
		codecs[f.Compression]++
		rows, err := f.Rows()
		if err != nil {
			t.Fatalf("%s: %v", fx.path, err)
		}
		if uint64(len(rows)) != f.NumRows {
			t.Errorf("%s: %d rows, footer says %d", fx.path, len(rows), f.NumRows)
		}
		if len(f.Stats) != len(f.types) {
			t.Fatalf("%s: %d column statistics for %d columns", fx.path, len(f.Stats), len(f.types))
		}
		counts := make([]uint64, len(f.types))
		for _, r := range rows {
			countNonNull(f.Schema, r, counts)
		}
		for id, s := range f.Stats {
			if counts[id] != s.NumValues {
				t.Errorf("%s: column %d (%s) has %d non-null values, statistics say %d", fx.path, id, f.types[id], counts[id], s.NumValues)
			}
		}
		if f.Schema.Field("_FILE") != nil { // a manifest, not a manifest list
			checkCreationTimes(t, f, fx, rows)
		}
	}
	if codecs[Zstd] == 0 {
		t.Errorf("codecs %v: the fixtures are zstd-compressed", codecs)
	}
}

// checkCreationTimes: _CREATION_TIME is the writer's wall clock; in the stripe's writer time
// zone it must fall between the table's creation and its last snapshot (epoch millis in JSON).
func checkCreationTimes(t *testing.T, f *File, fx orcFixture, rows []map[string]any) {
	t.Helper()
	first, last := jsonMillis(t, filepath.Join(fx.table, "schema", "schema-0")), int64(0)
	snaps, _ := filepath.Glob(filepath.Join(fx.table, "snapshot", "snapshot-*"))
	for _, s := range snaps {
		last = max(last, jsonMillis(t, s))
	}
	st, err := f.openStripe(0)
	if err != nil {
		t.Fatal(err)
	}
	if st.tz == nil {
		t.Fatalf("%s: Java wrote no writer time zone", fx.path)
	}
	for _, r := range rows {
		wall := r["_FILE"].(map[string]any)["_CREATION_TIME"].(time.Time)
		at := time.Date(wall.Year(), wall.Month(), wall.Day(), wall.Hour(), wall.Minute(), wall.Second(), wall.Nanosecond(), st.tz)
		if ms := at.UnixMilli(); ms < first || ms > last {
			t.Errorf("%s: creation time %s (%s) outside %d..%d", fx.path, wall, st.tz, first, last)
		}
	}
}

func jsonMillis(t *testing.T, path string) int64 {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		TimeMillis int64 `json:"timeMillis"`
	}
	if err := json.Unmarshal(raw, &v); err != nil || v.TimeMillis == 0 {
		t.Fatalf("%s: no timeMillis (%v)", path, err)
	}
	return v.TimeMillis
}
