package tamper

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec/manifest"
)

// LinkOutside (issue 14, finding 2) plants old victim files in directories outside the warehouse and
// makes a bucket directory (p=a/bucket-1), a partition (p=b), statistics/, index/ and a data file of
// the table symbolic links to them. It returns the victims and the links (relative to the table).
// clean-orphans must skip every link, delete nothing through them, and leave the links.
func (lt *Table) LinkOutside(t testing.TB) (victims map[string][]byte, links []string) {
	t.Helper()
	content := []byte("victim data")
	victims = map[string][]byte{}
	for _, n := range []string{"bucket/data-old.parquet", "part/bucket-0/data-old.parquet", "stats/stat-old", "manifest/manifest-old", "file-target"} {
		victims[lt.Plant(t, n, content)] = content
	}
	targets := map[string]string{
		"p=a/bucket-1": "bucket", "p=b": "part", "statistics": "stats", "index": "manifest", "p=a/bucket-0/data-link.parquet": "file-target",
	}
	for link, target := range targets {
		if err := os.Symlink(filepath.Join(lt.Victim, target), filepath.Join(lt.Tbl.Path, link)); err != nil {
			t.Fatal(err)
		}
		links = append(links, link)
	}
	return victims, links
}

// LinkBucket replaces the bucket directory p=a/bucket-0 by a symbolic link to a directory outside
// the warehouse holding a victim of the name of the data file snapshot 2 deletes (the file expiry of
// snapshots 1 and 2 removes). Expire must refuse to delete through the link. It returns the victim.
func (lt *Table) LinkBucket(t testing.TB) map[string][]byte {
	t.Helper()
	s2 := lt.Snapshot(t, 2)
	var deleted string
	lt.EditManifests(t, s2.DeltaManifestList, func(es []manifest.ManifestEntry) []manifest.ManifestEntry {
		for _, e := range es {
			if e.Kind == manifest.Delete {
				deleted = e.File.FileName
			}
		}
		return es
	})
	if deleted == "" {
		t.Fatalf("snapshot 2 deletes no file")
	}
	content := []byte("victim data")
	v := lt.Plant(t, "bucket/"+deleted, content)
	bucket := filepath.Join(lt.Tbl.Path, "p=a", "bucket-0")
	if err := os.Rename(bucket, filepath.Join(lt.Dir, "moved-bucket")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(lt.Victim, "bucket"), bucket); err != nil {
		t.Fatal(err)
	}
	return map[string][]byte{v: content}
}
