package maintain

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// Tests of issue 14, findings 1 and 2: names read from a table's metadata never make a maintenance
// command (or a scan) touch a file outside the table. Each case plants victim files outside the
// warehouse, tampers with the table's metadata or directories the way an attacker with write access
// to the table's files could, and checks that every victim survives.

// localTable is a table on the local file system below dir/wh, outside of which victims live.
type localTable struct {
	f      *fixture
	dir    string // holds wh/ and victim/
	victim string // dir/victim
}

// newLocalTable creates the fixture's table (id BIGINT, p STRING, partitioned by p) on local disk;
// with external, its option data-file.external-paths names victim/ext.
func newLocalTable(t *testing.T, external bool) *localTable {
	t.Helper()
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	var opts map[string]string
	if external {
		opts = map[string]string{"data-file.external-paths": filepath.ToSlash(filepath.Join(victim, "ext"))}
	}
	fs := local.New()
	path := filepath.ToSlash(filepath.Join(dir, "wh", "db.db", "t"))
	idT, _ := spec.ParseType("BIGINT")
	pT, _ := spec.ParseType("STRING")
	s, err := spec.NewSchema([]spec.DataField{{Name: "id", Type: idT}, {Name: "p", Type: pT}}, []string{"p"}, nil, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := table.NewSchemas(fs, path).Create(ctx, s); err != nil {
		t.Fatal(err)
	}
	tbl, err := table.Open(ctx, fs, path, "db.t")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(victim, 0o755); err != nil {
		t.Fatal(err)
	}
	return &localTable{f: &fixture{tbl: tbl, rows: map[int64][]string{}}, dir: dir, victim: victim}
}

func (lt *localTable) tbl() *table.Table { return lt.f.tbl }

// plant writes a victim file outside the warehouse and returns its absolute path.
func (lt *localTable) plant(t *testing.T, name string, content []byte) string {
	t.Helper()
	p := filepath.Join(lt.victim, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, content, 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-48 * time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	return p
}

// rel is victim path p relative to directory dir of the table (e.g. "manifest", "p=a/bucket-0").
func (lt *localTable) rel(t *testing.T, dir, p string) string {
	t.Helper()
	r, err := filepath.Rel(filepath.Join(lt.tbl().Path, dir), p)
	if err != nil || !strings.HasPrefix(r, "..") {
		t.Fatalf("rel %s from %s: %q, %v", p, dir, r, err)
	}
	return filepath.ToSlash(r)
}

// history commits snapshot 1 (rows 0..3 in p=a), 2 (an overwrite with rows 3..6 in p=a: its delta
// DELETEs snapshot 1's file) and 3 (rows 6..9 in p=a). Expiring with RetainMin 1 removes 1 and 2.
func (lt *localTable) history(t *testing.T) {
	t.Helper()
	lt.f.commit(t, 0, 3, "a", false)
	lt.f.commit(t, 3, 6, "a", true)
	lt.f.commit(t, 6, 9, "a", false)
}

func (lt *localTable) expire(t *testing.T) (ExpireResult, error) {
	t.Helper()
	o := ExpireOptions{RetainMin: 1, RetainMax: maxRetain, TimeRetained: 0, MaxDeletes: 50, Now: fixed(t0.Add(time.Hour))}
	return Expire(context.Background(), lt.tbl(), o)
}

// editSnapshot rewrites snapshot id's JSON through edit.
func (lt *localTable) editSnapshot(t *testing.T, id int64, edit func(m map[string]any)) {
	t.Helper()
	p := lt.tbl().Snapshots().Path(id)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]any{}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func (lt *localTable) manifestPath(name string) string {
	return filepath.Join(lt.tbl().Path, "manifest", name)
}

// editManifests rewrites every manifest of list through edit.
func (lt *localTable) editManifests(t *testing.T, list string, edit func([]manifest.ManifestEntry) []manifest.ManifestEntry) {
	t.Helper()
	ctx := context.Background()
	metas, err := commit.ReadList(ctx, lt.tbl(), list)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range metas {
		es, err := commit.ReadManifest(ctx, lt.tbl(), m.FileName)
		if err != nil {
			t.Fatal(err)
		}
		lt.writeManifest(t, m.FileName, edit(es))
	}
}

func (lt *localTable) writeManifest(t *testing.T, name string, es []manifest.ManifestEntry) {
	t.Helper()
	var buf bytes.Buffer
	if err := manifest.WriteManifest(&buf, es); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lt.manifestPath(name), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (lt *localTable) writeList(t *testing.T, name string, metas []manifest.ManifestFileMeta) {
	t.Helper()
	var buf bytes.Buffer
	if err := manifest.WriteManifestList(&buf, metas); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lt.manifestPath(name), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func indexManifestBytes(t *testing.T, es []manifest.IndexManifestEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := manifest.WriteIndexManifest(&buf, es); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// firstEntry is an entry of snapshot 1's delta (a real data file entry to copy).
func (lt *localTable) firstEntry(t *testing.T) (manifest.ManifestEntry, manifest.ManifestFileMeta) {
	t.Helper()
	ctx := context.Background()
	s := getSnapshot(t, lt.tbl(), 1)
	metas, err := commit.ReadList(ctx, lt.tbl(), s.DeltaManifestList)
	if err != nil || len(metas) == 0 {
		t.Fatalf("delta of snapshot 1: %v, %v", metas, err)
	}
	es, err := commit.ReadManifest(ctx, lt.tbl(), metas[0].FileName)
	if err != nil || len(es) == 0 {
		t.Fatalf("manifest %s: %v, %v", metas[0].FileName, es, err)
	}
	return es[0], metas[0]
}

func strPtr(s string) *string { return &s }

// survives fails the test for every victim that is gone or changed.
func survives(t *testing.T, victims map[string][]byte) {
	t.Helper()
	for p, want := range victims {
		got, err := os.ReadFile(p)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("victim %s outside the warehouse was deleted or changed (%v)", p, err)
		}
	}
}

// tamperCase tampers with the table (after history) and returns its victims and the names the
// error must mention (the metadata at fault).
type tamperCase struct {
	name     string
	external bool // the table configures data-file.external-paths = victim/ext
	tamper   func(t *testing.T, lt *localTable) (victims map[string][]byte, mention []string)
}

func tamperCases() []tamperCase {
	content := []byte("victim data")
	return []tamperCase{
		{name: "data-file-dotdot", tamper: func(t *testing.T, lt *localTable) (map[string][]byte, []string) {
			v := lt.plant(t, "data-dotdot.parquet", content)
			s2 := getSnapshot(t, lt.tbl(), 2)
			lt.editManifests(t, s2.DeltaManifestList, func(es []manifest.ManifestEntry) []manifest.ManifestEntry {
				for i := range es {
					if es[i].Kind == manifest.Delete {
						es[i].File.FileName = lt.rel(t, "p=a/bucket-0", v)
					}
				}
				return es
			})
			return map[string][]byte{v: content}, []string{"../"}
		}},
		{name: "extra-manifest-entry", tamper: func(t *testing.T, lt *localTable) (map[string][]byte, []string) {
			v := lt.plant(t, "extra-entry.parquet", content)
			s2 := getSnapshot(t, lt.tbl(), 2)
			lt.editManifests(t, s2.DeltaManifestList, func(es []manifest.ManifestEntry) []manifest.ManifestEntry {
				x := es[0]
				x.Kind = manifest.Delete
				x.File.FileName = lt.rel(t, "p=a/bucket-0", v)
				return append(es, x)
			})
			return map[string][]byte{v: content}, []string{"../"}
		}},
		{name: "extra-file-dotdot", tamper: func(t *testing.T, lt *localTable) (map[string][]byte, []string) {
			v := lt.plant(t, "extra-file.index", content)
			s2 := getSnapshot(t, lt.tbl(), 2)
			lt.editManifests(t, s2.DeltaManifestList, func(es []manifest.ManifestEntry) []manifest.ManifestEntry {
				for i := range es {
					if es[i].Kind == manifest.Delete {
						es[i].File.ExtraFiles = []string{lt.rel(t, "p=a/bucket-0", v)}
					}
				}
				return es
			})
			return map[string][]byte{v: content}, []string{"extra-file.index"}
		}},
		{name: "external-path-unconfigured", tamper: func(t *testing.T, lt *localTable) (map[string][]byte, []string) {
			v := lt.plant(t, "external.parquet", content)
			s2 := getSnapshot(t, lt.tbl(), 2)
			lt.editManifests(t, s2.DeltaManifestList, func(es []manifest.ManifestEntry) []manifest.ManifestEntry {
				for i := range es {
					if es[i].Kind == manifest.Delete {
						es[i].File.FileName = "external.parquet"
						es[i].File.ExternalPath = strPtr(filepath.ToSlash(v))
					}
				}
				return es
			})
			return map[string][]byte{v: content}, []string{"external.parquet", "sets no data-file.external-paths"}
		}},
		{name: "external-path-outside-root", external: true, tamper: func(t *testing.T, lt *localTable) (map[string][]byte, []string) {
			v := lt.plant(t, "ext/../external2.parquet", content) // below victim/, next to the configured root
			s2 := getSnapshot(t, lt.tbl(), 2)
			lt.editManifests(t, s2.DeltaManifestList, func(es []manifest.ManifestEntry) []manifest.ManifestEntry {
				for i := range es {
					if es[i].Kind == manifest.Delete {
						es[i].File.FileName = "external2.parquet"
						es[i].File.ExternalPath = strPtr(filepath.ToSlash(filepath.Join(lt.victim, "ext")) + "/../external2.parquet")
					}
				}
				return es
			})
			return map[string][]byte{v: content}, []string{"external2.parquet"}
		}},
		{name: "manifest-list-name", tamper: func(t *testing.T, lt *localTable) (map[string][]byte, []string) {
			v := lt.plant(t, "list", content)
			lt.editSnapshot(t, 1, func(m map[string]any) { m["baseManifestList"] = lt.rel(t, "manifest", v) })
			return map[string][]byte{v: content}, []string{"snapshot 1", "baseManifestList"}
		}},
		{name: "manifest-name-in-list", tamper: func(t *testing.T, lt *localTable) (map[string][]byte, []string) {
			v := lt.plant(t, "manifest", content)
			s1 := getSnapshot(t, lt.tbl(), 1)
			metas, err := commit.ReadList(context.Background(), lt.tbl(), s1.DeltaManifestList)
			if err != nil {
				t.Fatal(err)
			}
			x := metas[0]
			x.FileName = lt.rel(t, "manifest", v)
			lt.writeList(t, s1.DeltaManifestList, append(metas, x))
			return map[string][]byte{v: content}, []string{s1.DeltaManifestList}
		}},
		{name: "statistics-name", tamper: func(t *testing.T, lt *localTable) (map[string][]byte, []string) {
			v := lt.plant(t, "stats", content)
			lt.editSnapshot(t, 1, func(m map[string]any) { m["statistics"] = lt.rel(t, "statistics", v) })
			return map[string][]byte{v: content}, []string{"snapshot 1", "statistics"}
		}},
		{name: "index-manifest-name", tamper: func(t *testing.T, lt *localTable) (map[string][]byte, []string) {
			b := indexManifestBytes(t, nil) // a readable (empty) index manifest outside the table
			v := lt.plant(t, "index-manifest", b)
			lt.editSnapshot(t, 1, func(m map[string]any) { m["indexManifest"] = lt.rel(t, "manifest", v) })
			return map[string][]byte{v: b}, []string{"snapshot 1", "indexManifest"}
		}},
		{name: "index-file-names", tamper: func(t *testing.T, lt *localTable) (map[string][]byte, []string) {
			v1 := lt.plant(t, "index-dotdot", content)
			v2 := lt.plant(t, "index-external", content)
			e, _ := lt.firstEntry(t)
			es := []manifest.IndexManifestEntry{
				{Kind: manifest.Add, Partition: e.Partition, IndexType: manifest.IndexTypeHash, FileName: lt.rel(t, "index", v1), FileSize: 1},
				{Kind: manifest.Add, Partition: e.Partition, Bucket: 1, IndexType: manifest.IndexTypeHash, FileName: "index-x", FileSize: 1, ExternalPath: strPtr(filepath.ToSlash(v2))},
			}
			if err := os.WriteFile(lt.manifestPath("index-manifest-tampered"), indexManifestBytes(t, es), 0o644); err != nil {
				t.Fatal(err)
			}
			lt.editSnapshot(t, 1, func(m map[string]any) { m["indexManifest"] = "index-manifest-tampered" })
			return map[string][]byte{v1: content, v2: content}, []string{"index-manifest-tampered"}
		}},
		{name: "changelog-data-file", tamper: func(t *testing.T, lt *localTable) (map[string][]byte, []string) {
			v := lt.plant(t, "changelog-data", content)
			e, meta := lt.firstEntry(t)
			e.File.FileName = lt.rel(t, "p=a/bucket-0", v)
			lt.writeManifest(t, "manifest-changelog-tampered", []manifest.ManifestEntry{e})
			meta.FileName = "manifest-changelog-tampered"
			lt.writeList(t, "manifest-list-changelog-tampered", []manifest.ManifestFileMeta{meta})
			lt.editSnapshot(t, 1, func(m map[string]any) { m["changelogManifestList"] = "manifest-list-changelog-tampered" })
			return map[string][]byte{v: content}, []string{"manifest-changelog-tampered"}
		}},
		{name: "changelog-list-name", tamper: func(t *testing.T, lt *localTable) (map[string][]byte, []string) {
			v := lt.plant(t, "changelog-list", content)
			lt.editSnapshot(t, 1, func(m map[string]any) { m["changelogManifestList"] = lt.rel(t, "manifest", v) })
			return map[string][]byte{v: content}, []string{"snapshot 1", "changelogManifestList"}
		}},
	}
}

// TestExpireNeverDeletesOutsideTable (issue 14, finding 1): with a snapshot, manifest list,
// manifest or index manifest naming a file outside the table, Expire deletes no victim and fails
// with an error wrapping spec.ErrCorrupt that names the metadata at fault.
func TestExpireNeverDeletesOutsideTable(t *testing.T) {
	for _, c := range tamperCases() {
		t.Run(c.name, func(t *testing.T) {
			lt := newLocalTable(t, c.external)
			lt.history(t)
			victims, mention := c.tamper(t, lt)
			_, err := lt.expire(t)
			survives(t, victims)
			if !errors.Is(err, spec.ErrCorrupt) {
				t.Fatalf("expire of tampered metadata: err %v, want one wrapping spec.ErrCorrupt", err)
			}
			for _, m := range mention {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error %q does not mention %q", err, m)
				}
			}
		})
	}
}

// TestCleanOrphansNeverDeletesOutsideTable: the same tampered metadata makes CleanOrphans fail
// (it cannot tell what the table uses) without deleting a victim.
func TestCleanOrphansNeverDeletesOutsideTable(t *testing.T) {
	for _, c := range tamperCases() {
		t.Run(c.name, func(t *testing.T) {
			lt := newLocalTable(t, c.external)
			lt.history(t)
			victims, _ := c.tamper(t, lt)
			_, err := CleanOrphans(context.Background(), lt.tbl(), time.Now().Add(time.Minute), false, nil)
			survives(t, victims)
			if !errors.Is(err, spec.ErrCorrupt) {
				t.Fatalf("clean-orphans of tampered metadata: err %v, want one wrapping spec.ErrCorrupt", err)
			}
		})
	}
}

// TestScanRefusesPathOutsideTable: a manifest entry naming a Parquet file outside the table (a
// relative name with "..", or an external path no table option allows) is not read.
func TestScanRefusesPathOutsideTable(t *testing.T) {
	for _, external := range []bool{false, true} {
		lt := newLocalTable(t, false)
		lt.f.commit(t, 0, 3, "a", false)
		e, _ := lt.firstEntry(t)
		real, err := lt.tbl().NewPaths().DataFile(e.Partition, e.Bucket, e.File.FileName, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(real)
		if err != nil {
			t.Fatal(err)
		}
		stolen := lt.plant(t, e.File.FileName, b) // a readable data file outside the table
		lt.editManifests(t, getSnapshot(t, lt.tbl(), 1).DeltaManifestList, func(es []manifest.ManifestEntry) []manifest.ManifestEntry {
			for i := range es {
				if external {
					es[i].File.ExternalPath = strPtr(filepath.ToSlash(stolen))
				} else {
					es[i].File.FileName = lt.rel(t, "p=a/bucket-0", stolen)
				}
			}
			return es
		})
		if err := os.Remove(real); err != nil {
			t.Fatal(err)
		}
		_, rows, err := read.Rows(context.Background(), lt.tbl(), read.ScanOptions{SnapshotID: 1})
		if !errors.Is(err, spec.ErrCorrupt) {
			t.Errorf("external=%v: scan read %d rows from %s outside the table (err %v), want an error wrapping spec.ErrCorrupt", external, len(rows), stolen, err)
		}
	}
}

// TestCleanOrphansDoesNotFollowSymlinks (issue 14, finding 2): a bucket, partition or statistics
// directory (or a file) that is a symbolic link to a directory outside the table is not followed:
// the old files there survive, and so does the link.
func TestCleanOrphansDoesNotFollowSymlinks(t *testing.T) {
	lt := newLocalTable(t, false)
	lt.history(t)
	content := []byte("victim data")
	victims := map[string][]byte{}
	for _, n := range []string{"bucket/data-old.parquet", "part/bucket-0/data-old.parquet", "stats/stat-old", "manifest/manifest-old", "file-target"} {
		victims[lt.plant(t, n, content)] = content
	}
	links := map[string]string{
		"p=a/bucket-1": "bucket", "p=b": "part", "statistics": "stats", "index": "manifest", "p=a/bucket-0/data-link.parquet": "file-target",
	}
	for link, target := range links {
		if err := os.Symlink(filepath.Join(lt.victim, target), filepath.Join(lt.tbl().Path, link)); err != nil {
			t.Fatal(err)
		}
	}
	orphan := filepath.Join(lt.tbl().Path, "p=a", "bucket-0", "data-orphan.parquet")
	if err := os.WriteFile(orphan, content, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := CleanOrphans(context.Background(), lt.tbl(), time.Now().Add(time.Minute), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	survives(t, victims)
	for link := range links {
		if _, err := os.Lstat(filepath.Join(lt.tbl().Path, link)); err != nil {
			t.Errorf("link %s was deleted: %v", link, err)
		}
	}
	if _, err := os.Stat(orphan); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the real orphan %s survived (%v); deleted %v", orphan, err, rels(res.Files))
	}
	var want []string
	for link := range links {
		want = append(want, filepath.ToSlash(filepath.Join(lt.tbl().Path, link)))
	}
	slices.Sort(want)
	if !slices.Equal(res.Skipped, want) {
		t.Errorf("skipped %v, want the links %v", res.Skipped, want)
	}
}

// TestExpireDoesNotDeleteThroughSymlink: a bucket directory replaced by a link to a directory
// outside the table makes Expire refuse the data file deletes below it.
func TestExpireDoesNotDeleteThroughSymlink(t *testing.T) {
	lt := newLocalTable(t, false)
	lt.history(t)
	s2 := getSnapshot(t, lt.tbl(), 2)
	var deleted string
	lt.editManifests(t, s2.DeltaManifestList, func(es []manifest.ManifestEntry) []manifest.ManifestEntry {
		for _, e := range es {
			if e.Kind == manifest.Delete {
				deleted = e.File.FileName
			}
		}
		return es
	})
	content := []byte("victim data")
	v := lt.plant(t, "bucket/"+deleted, content)
	bucket := filepath.Join(lt.tbl().Path, "p=a", "bucket-0")
	moved := filepath.Join(lt.dir, "moved-bucket")
	if err := os.Rename(bucket, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(lt.victim, "bucket"), bucket); err != nil {
		t.Fatal(err)
	}
	_, err := lt.expire(t)
	survives(t, map[string][]byte{v: content})
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("expire through a linked bucket directory: err %v, want a refusal naming the link", err)
	}
}
