package maintain

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lakeload/lakeload/internal/tamper"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
)

// Tests of issue 14, findings 1 and 2: names read from a table's metadata never make a maintenance
// command (or a scan) touch a file outside the table. Each case plants victim files outside the
// warehouse, tampers with the table's metadata or directories the way an attacker with write access
// to the table's files could, and checks that every victim survives.

// newLocalTable is tamper's table below a fresh directory (victims outside its warehouse).
func newLocalTable(t *testing.T, external bool) *tamper.Table {
	t.Helper()
	return tamper.New(t, t.TempDir(), external)
}

// expireAll expires every snapshot but the latest.
func expireAll(lt *tamper.Table) (ExpireResult, error) {
	o := ExpireOptions{RetainMin: 1, RetainMax: maxRetain, TimeRetained: 0, MaxDeletes: 50, Now: fixed(time.Now().Add(time.Hour))}
	return Expire(context.Background(), lt.Tbl, o)
}

func strPtr(s string) *string { return &s }

// TestExpireNeverDeletesOutsideTable (issue 14, finding 1): with a snapshot, manifest list,
// manifest or index manifest naming a file outside the table, Expire deletes no victim and fails
// with an error wrapping spec.ErrCorrupt that names the metadata at fault.
func TestExpireNeverDeletesOutsideTable(t *testing.T) {
	for _, c := range tamper.Cases() {
		t.Run(c.Name, func(t *testing.T) {
			lt := newLocalTable(t, c.External)
			lt.History(t)
			victims, mention := c.Tamper(t, lt)
			before := tableFiles(t, lt.Tbl.Path)
			_, err := expireAll(lt)
			tamper.Survive(t, victims)
			// Every name is checked before anything is deleted: the refused run deleted nothing inside
			// the table either, so the snapshots it was expiring stay whole.
			if after := tableFiles(t, lt.Tbl.Path); !slices.Equal(before, after) {
				t.Errorf("the refused expire deleted files inside the table: before %v, after %v", before, after)
			}
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
	for _, c := range tamper.Cases() {
		t.Run(c.Name, func(t *testing.T) {
			lt := newLocalTable(t, c.External)
			lt.History(t)
			victims, _ := c.Tamper(t, lt)
			_, err := CleanOrphans(context.Background(), lt.Tbl, time.Now().Add(time.Minute), false, nil)
			tamper.Survive(t, victims)
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
		lt.Commit(t, 0, 3, "a", false)
		e, _ := lt.FirstEntry(t)
		real, err := lt.Tbl.NewPaths().DataFile(e.Partition, e.Bucket, e.File.FileName, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(real)
		if err != nil {
			t.Fatal(err)
		}
		stolen := lt.Plant(t, e.File.FileName, b) // a readable data file outside the table
		lt.EditManifests(t, lt.Snapshot(t, 1).DeltaManifestList, func(es []manifest.ManifestEntry) []manifest.ManifestEntry {
			for i := range es {
				if external {
					es[i].File.ExternalPath = strPtr(filepath.ToSlash(stolen))
				} else {
					es[i].File.FileName = lt.Rel(t, "p=a/bucket-0", stolen)
				}
			}
			return es
		})
		if err := os.Remove(real); err != nil {
			t.Fatal(err)
		}
		_, rows, err := read.Rows(context.Background(), lt.Tbl, read.ScanOptions{SnapshotID: 1})
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
	lt.History(t)
	victims, links := lt.LinkOutside(t)
	content := []byte("orphan data")
	orphan := filepath.Join(lt.Tbl.Path, "p=a", "bucket-0", "data-orphan.parquet")
	if err := os.WriteFile(orphan, content, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := CleanOrphans(context.Background(), lt.Tbl, time.Now().Add(time.Minute), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	tamper.Survive(t, victims)
	for _, link := range links {
		if _, err := os.Lstat(filepath.Join(lt.Tbl.Path, link)); err != nil {
			t.Errorf("link %s was deleted: %v", link, err)
		}
	}
	if _, err := os.Stat(orphan); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the real orphan %s survived (%v); deleted %v", orphan, err, rels(res.Files))
	}
	var want []string
	for _, link := range links {
		want = append(want, filepath.ToSlash(filepath.Join(lt.Tbl.Path, link)))
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
	lt.History(t)
	victims := lt.LinkBucket(t)
	_, err := expireAll(lt)
	tamper.Survive(t, victims)
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("expire through a linked bucket directory: err %v, want a refusal naming the link", err)
	}
}

// tableFiles lists the files below dir (relative paths, sorted).
func tableFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}
