package manifest

import (
	"strings"
	"testing"
)

func entry(kind FileKind, name string, level int32) ManifestEntry {
	return ManifestEntry{Kind: kind, Partition: sampleRow, Bucket: 1, TotalBuckets: 2,
		File: DataFileMeta{FileName: name, Level: level, ExtraFiles: []string{}}}
}

func names(es []ManifestEntry) string {
	var s []string
	for _, e := range es {
		s = append(s, e.Kind.String()+":"+e.File.FileName+"@"+itoa(int64(e.File.Level)))
	}
	return strings.Join(s, " ")
}

func TestMergeEntries(t *testing.T) {
	cases := []struct {
		name       string
		in         []ManifestEntry
		live, kept string
	}{
		{"delete cancels add", []ManifestEntry{entry(Add, "a", 0), entry(Add, "b", 0), entry(Delete, "a", 0)}, "ADD:b@0", "ADD:b@0"},
		{"level move", []ManifestEntry{entry(Add, "a", 0), entry(Delete, "a", 0), entry(Add, "a", 5)}, "ADD:a@5", "ADD:a@5"},
		{"delete of other level is kept", []ManifestEntry{entry(Add, "a", 0), entry(Delete, "a", 5)}, "ADD:a@0", "ADD:a@0 DELETE:a@5"},
		{"re-add after cancel", []ManifestEntry{entry(Add, "a", 0), entry(Delete, "a", 0), entry(Add, "a", 0), entry(Add, "b", 0)}, "ADD:a@0 ADD:b@0", "ADD:a@0 ADD:b@0"},
	}
	for _, c := range cases {
		live, err := MergeEntries(c.in)
		if err != nil || names(live) != c.live {
			t.Errorf("%s: MergeEntries = %q, %v; want %q", c.name, names(live), err, c.live)
		}
		kept, err := MergeKeepingDeletes(c.in)
		if err != nil || names(kept) != c.kept {
			t.Errorf("%s: MergeKeepingDeletes = %q, %v; want %q", c.name, names(kept), err, c.kept)
		}
	}
}

func TestMergeEntriesRejectsDuplicateAdd(t *testing.T) {
	for _, in := range [][]ManifestEntry{
		{entry(Add, "a", 0), entry(Add, "a", 0)},
		{entry(Delete, "a", 0), entry(Add, "a", 0)}, // Java: the unmatched DELETE stays in the map
	} {
		if _, err := MergeEntries(in); err == nil || !strings.Contains(err.Error(), "already present") {
			t.Errorf("%s: got %v, want duplicate error", names(in), err)
		}
	}
	bad := entry(Add, "a", 0)
	bad.Kind = 7
	if _, err := MergeEntries([]ManifestEntry{bad}); err == nil {
		t.Error("unknown kind accepted")
	}
}

func TestIdentifierDistinguishesEveryComponent(t *testing.T) {
	base := entry(Add, "a", 0)
	variants := map[string]func(e *ManifestEntry){
		"partition":         func(e *ManifestEntry) { e.Partition = EmptyRow },
		"bucket":            func(e *ManifestEntry) { e.Bucket = 0 },
		"level":             func(e *ManifestEntry) { e.File.Level = 1 },
		"file name":         func(e *ManifestEntry) { e.File.FileName = "b" },
		"extra files":       func(e *ManifestEntry) { e.File.ExtraFiles = []string{"x"} },
		"extra files join":  func(e *ManifestEntry) { e.File.ExtraFiles = []string{"x", "y"} },
		"extra files comma": func(e *ManifestEntry) { e.File.ExtraFiles = []string{"x,y"} },
		"embedded empty":    func(e *ManifestEntry) { e.File.EmbeddedIndex = []byte{} },
		"embedded index":    func(e *ManifestEntry) { e.File.EmbeddedIndex = []byte{1} },
		"external empty":    func(e *ManifestEntry) { e.File.ExternalPath = ptr("") },
		"external path":     func(e *ManifestEntry) { e.File.ExternalPath = ptr("s3://x") },
	}
	seen := map[string]string{base.Identifier(): "base"}
	for name, mutate := range variants {
		e := base
		e.File.ExtraFiles = append([]string(nil), base.File.ExtraFiles...)
		mutate(&e)
		id := e.Identifier()
		if other, dup := seen[id]; dup {
			t.Errorf("%s has the same identifier as %s: %s", name, other, id)
		}
		seen[id] = name
	}
	// Not part of the identity: kind, total buckets, sizes, stats.
	e := base
	e.Kind, e.TotalBuckets, e.File.FileSize, e.File.RowCount = Delete, 9, 100, 7
	if e.Identifier() != base.Identifier() {
		t.Error("identifier depends on fields outside Java's Identifier")
	}
}
