package table_test

import (
	"context"
	"errors"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/binrow"
	"github.com/lakeload/lakeload/paimon/table"
)

func TestDataFileNames(t *testing.T) {
	cases := []struct {
		opts map[string]string
		re   string
	}{
		{nil, `^data-[0-9a-f-]{36}-\d+\.parquet$`},
		{map[string]string{"file.suffix.include.compression": "true"}, `^data-[0-9a-f-]{36}-\d+\.zstd\.parquet$`},
		{map[string]string{"file.suffix.include.compression": "true", "file.compression": "SNAPPY"}, `^data-[0-9a-f-]{36}-\d+\.snappy\.parquet$`},
		{map[string]string{"data-file.prefix": "part-"}, `^part-[0-9a-f-]{36}-\d+\.parquet$`},
		{map[string]string{"file.format": "ORC"}, `^data-[0-9a-f-]{36}-\d+\.orc$`},
	}
	for _, c := range cases {
		tbl := newTable(t, [][2]string{{"a", "INT"}}, nil, nil, c.opts)
		p := tbl.NewPaths()
		seen := map[string]bool{}
		for range 3 {
			n := p.NewDataFileName()
			if !regexp.MustCompile(c.re).MatchString(n) {
				t.Errorf("options %v: name %q does not match %s", c.opts, n, c.re)
			}
			if seen[n] {
				t.Errorf("name %q repeated", n)
			}
			seen[n] = true
		}
	}
	// Two factories never share names; all kinds of names carry the factory's uuid and counter.
	tbl := newTable(t, [][2]string{{"a", "INT"}}, nil, nil, nil)
	p1, p2 := tbl.NewPaths(), tbl.NewPaths()
	if p1.NewManifestName() == p2.NewManifestName() {
		t.Error("two path factories produced the same manifest name")
	}
	for _, n := range []string{p1.NewManifestName(), p1.NewManifestListName(), p1.NewIndexManifestName(), p1.NewIndexFileName()} {
		if !regexp.MustCompile(`^(manifest|manifest-list|index-manifest|index)-[0-9a-f-]{36}-\d+$`).MatchString(n) {
			t.Errorf("bad name %q", n)
		}
	}
	if got, want := p1.ManifestDir(), filepath.Join(tbl.Path, "manifest"); got != want {
		t.Errorf("ManifestDir = %s, want %s", got, want)
	}
	if got, want := p1.IndexDir(), filepath.Join(tbl.Path, "index"); got != want {
		t.Errorf("IndexDir = %s, want %s", got, want)
	}
}

func TestPartitionAndBucketDirs(t *testing.T) {
	tbl := newTable(t, [][2]string{{"dt", "STRING"}, {"h", "INT"}, {"v", "INT"}}, []string{"dt", "h"}, nil,
		map[string]string{"partition.default-name": "NULLPART"})
	types := tbl.PartitionTypes()
	cases := []struct {
		values []any
		bucket int32
		want   string
	}{
		{[]any{"2024-01-01", int32(3)}, 0, "dt=2024-01-01/h=3/bucket-0"},
		{[]any{"a/b:c", int32(-1)}, 7, "dt=a%2Fb%3Ac/h=-1/bucket-7"},
		{[]any{"x=y?#%", int32(0)}, 1, "dt=x%3Dy%3F%23%25/h=0/bucket-1"},
		{[]any{"with space ü", int32(1)}, 0, "dt=with space ü/h=1/bucket-0"},
		{[]any{nil, nil}, 0, "dt=NULLPART/h=NULLPART/bucket-0"},
		{[]any{"", int32(2)}, 0, "dt=NULLPART/h=2/bucket-0"},
		{[]any{"  ", int32(2)}, -2, "dt=NULLPART/h=2/bucket-postpone"},
	}
	p := tbl.NewPaths()
	for _, c := range cases {
		part, err := binrow.Serialize(types, c.values)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 { // second call is served from the cache
			got, err := p.BucketDir(part, c.bucket)
			if err != nil {
				t.Fatal(err)
			}
			if want := filepath.Join(tbl.Path, c.want); got != want {
				t.Errorf("BucketDir(%v, %d) = %s, want %s", c.values, c.bucket, got, want)
			}
		}
		f, err := p.DataFile(part, c.bucket, "data-x-0.parquet", nil)
		if err != nil || f != filepath.Join(tbl.Path, c.want, "data-x-0.parquet") {
			t.Errorf("DataFile = %s, %v", f, err)
		}
	}
	// An external path is refused unless data-file.external-paths allows it (TestResolveMetadataNames).
	ext := "s3://bucket/elsewhere/data-1.parquet"
	var pe *table.PathError
	part, _ := binrow.Serialize(types, cases[0].values)
	if f, err := p.DataFile(part, 0, "data-1.parquet", &ext); !errors.As(err, &pe) || f != "" {
		t.Errorf("external path without data-file.external-paths: %s, %v", f, err)
	}
	if _, err := p.PartitionDir([]byte{1, 2, 3}); !errors.Is(err, spec.ErrCorrupt) {
		t.Errorf("bad partition bytes: %v, want ErrCorrupt", err)
	}
	// Unpartitioned tables put buckets at the table root.
	flat := newTable(t, [][2]string{{"a", "INT"}}, nil, nil, nil)
	if d, err := flat.NewPaths().BucketDir(binrow.EmptyRow, 3); err != nil || d != filepath.Join(flat.Path, "bucket-3") {
		t.Errorf("unpartitioned BucketDir = %s, %v", d, err)
	}
}

func TestTableKeys(t *testing.T) {
	tbl := newTable(t, [][2]string{{"dt", "STRING"}, {"id", "BIGINT"}, {"k2", "STRING"}, {"v", "DOUBLE"}},
		[]string{"dt"}, []string{"dt", "id", "k2"}, map[string]string{"bucket": "4"})
	if !tbl.HasPrimaryKey() {
		t.Fatal("HasPrimaryKey = false")
	}
	names := func(fs []spec.DataField) string {
		var s []string
		for _, f := range fs {
			s = append(s, f.Name)
		}
		return strings.Join(s, ",")
	}
	if got := names(tbl.KeyFields()); got != "id,k2" {
		t.Errorf("KeyFields = %s, want id,k2 (partition columns trimmed)", got)
	}
	if got := names(tbl.PartitionFields()); got != "dt" {
		t.Errorf("PartitionFields = %s", got)
	}
	bk, err := tbl.BucketKeyFields()
	if err != nil || names(bk) != "id,k2" {
		t.Errorf("BucketKeyFields = %s, %v; want the trimmed primary key", names(bk), err)
	}
	app := newTable(t, [][2]string{{"a", "INT"}, {"b", "STRING"}}, nil, nil, map[string]string{"bucket": "2", "bucket-key": "b"})
	if bk, err := app.BucketKeyFields(); err != nil || names(bk) != "b" {
		t.Errorf("append BucketKeyFields = %s, %v; want b", names(bk), err)
	}
	if app.HasPrimaryKey() || len(app.KeyFields()) != 0 {
		t.Error("append table reports a primary key")
	}
}

func TestSchemas(t *testing.T) {
	ctx := context.Background()
	tbl := newTable(t, [][2]string{{"a", "INT"}}, nil, nil, nil)
	m := tbl.Schemas()
	s1 := *tbl.Schema
	s1.ID = 1
	s1.Fields = append(append([]spec.DataField{}, s1.Fields...), spec.DataField{ID: 1, Name: "b", Type: spec.DataType{Root: spec.VarChar, Length: spec.MaxLength, Nullable: true}})
	s1.HighestFieldID = 1
	if err := m.Create(ctx, &s1); err != nil {
		t.Fatal(err)
	}
	if err := m.Create(ctx, &s1); !errors.Is(err, fileio.ErrExist) || !strings.Contains(err.Error(), "schema 1") {
		t.Errorf("creating schema 1 twice: %v, want ErrExist naming it", err)
	}
	putFile(t, tbl.FS, filepath.Join(tbl.Path, "schema", ".schema-2.abc.tmp"), "partial")
	putFile(t, tbl.FS, filepath.Join(tbl.Path, "schema", "schema-x"), "junk")
	ids, err := m.IDs(ctx)
	if err != nil || !equalIDs(ids, []int64{0, 1}) {
		t.Errorf("IDs = %v, %v", ids, err)
	}
	latest, err := m.Latest(ctx)
	if err != nil || latest.ID != 1 || len(latest.Fields) != 2 {
		t.Fatalf("Latest = %+v, %v", latest, err)
	}
	reopened, err := table.Open(ctx, tbl.FS, tbl.Path, "db.t")
	if err != nil || reopened.Schema.ID != 1 {
		t.Fatalf("Open picks schema %v, %v; want 1", reopened, err)
	}
	if _, err := m.Get(ctx, 5); !errors.Is(err, fileio.ErrNotExist) {
		t.Errorf("Get(5): %v, want ErrNotExist", err)
	}
	empty := table.NewSchemas(tbl.FS, t.TempDir())
	if _, err := empty.Latest(ctx); !errors.Is(err, fileio.ErrNotExist) {
		t.Errorf("Latest of a table without schema: %v, want ErrNotExist", err)
	}
	if _, err := table.Open(ctx, tbl.FS, t.TempDir(), "db.none"); !errors.Is(err, fileio.ErrNotExist) {
		t.Errorf("Open without schema: %v, want ErrNotExist", err)
	}
	putFile(t, tbl.FS, filepath.Join(tbl.Path, "schema", "schema-3"), "{")
	if _, err := m.Latest(ctx); !errors.Is(err, spec.ErrCorrupt) || !strings.Contains(err.Error(), "schema-3") {
		t.Errorf("corrupt schema-3: %v, want ErrCorrupt naming the file", err)
	}
}

func TestCommitMessageIsEmpty(t *testing.T) {
	if !(table.CommitMessage{Bucket: 1}).IsEmpty() {
		t.Error("message without files is not empty")
	}
	if (table.CommitMessage{DeletedFiles: make([]manifestFile, 1)}).IsEmpty() {
		t.Error("message deleting a file is empty")
	}
	if (table.CommitMessage{NewFiles: make([]manifestFile, 1)}).IsEmpty() {
		t.Error("message adding a file is empty")
	}
}
