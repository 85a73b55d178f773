package tamper

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec/manifest"
)

// Case tampers with the table (after History) and returns its victims and the names the error
// must mention (the metadata at fault).
type Case struct {
	Name     string
	What     string // what the tampered metadata names, for docs
	External bool   // the table configures data-file.external-paths = victim/ext
	// Codes are the CLI's exit codes of expire, clean-orphans, compact, scan and table drop on the
	// tampered table, one digit each: 1 when it reads the tampered metadata and refuses the table as
	// corrupt, 0 when it does not read it (compact and scan read the latest snapshot only; a
	// snapshot-1 name is read by expire and clean-orphans alone; drop reads no metadata).
	Codes  string
	Tamper func(t testing.TB, lt *Table) (victims map[string][]byte, mention []string)
}

// Cases are the tamperings of issue 14, finding 1: each makes metadata name a file outside the table.
func Cases() []Case {
	content := []byte("victim data")
	return []Case{
		{Name: "data-file-dotdot", Codes: "11110", What: "a DELETE entry of snapshot 2 names a data file `../../../victim/…`", Tamper: func(t testing.TB, lt *Table) (map[string][]byte, []string) {
			v := lt.Plant(t, "data-dotdot.parquet", content)
			s2 := lt.Snapshot(t, 2)
			lt.EditManifests(t, s2.DeltaManifestList, func(es []manifest.ManifestEntry) []manifest.ManifestEntry {
				for i := range es {
					if es[i].Kind == manifest.Delete {
						es[i].File.FileName = lt.Rel(t, "p=a/bucket-0", v)
					}
				}
				return es
			})
			return map[string][]byte{v: content}, []string{"../"}
		}},
		{Name: "extra-manifest-entry", Codes: "11110", What: "an extra DELETE entry naming a file outside the table", Tamper: func(t testing.TB, lt *Table) (map[string][]byte, []string) {
			v := lt.Plant(t, "extra-entry.parquet", content)
			s2 := lt.Snapshot(t, 2)
			lt.EditManifests(t, s2.DeltaManifestList, func(es []manifest.ManifestEntry) []manifest.ManifestEntry {
				x := es[0]
				x.Kind = manifest.Delete
				x.File.FileName = lt.Rel(t, "p=a/bucket-0", v)
				return append(es, x)
			})
			return map[string][]byte{v: content}, []string{"../"}
		}},
		{Name: "extra-file-dotdot", Codes: "11110", What: "a data file's extra file named `../…`", Tamper: func(t testing.TB, lt *Table) (map[string][]byte, []string) {
			v := lt.Plant(t, "extra-file.index", content)
			s2 := lt.Snapshot(t, 2)
			lt.EditManifests(t, s2.DeltaManifestList, func(es []manifest.ManifestEntry) []manifest.ManifestEntry {
				for i := range es {
					if es[i].Kind == manifest.Delete {
						es[i].File.ExtraFiles = []string{lt.Rel(t, "p=a/bucket-0", v)}
					}
				}
				return es
			})
			return map[string][]byte{v: content}, []string{"extra-file.index"}
		}},
		{Name: "external-path-unconfigured", Codes: "11110", What: "an absolute external path, the table sets no `data-file.external-paths`", Tamper: func(t testing.TB, lt *Table) (map[string][]byte, []string) {
			v := lt.Plant(t, "external.parquet", content)
			s2 := lt.Snapshot(t, 2)
			lt.EditManifests(t, s2.DeltaManifestList, func(es []manifest.ManifestEntry) []manifest.ManifestEntry {
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
		{Name: "external-path-outside-root", Codes: "11110", What: "an external path `ROOT/../x` escaping the configured root", External: true, Tamper: func(t testing.TB, lt *Table) (map[string][]byte, []string) {
			v := lt.Plant(t, "ext/../external2.parquet", content) // below victim/, next to the configured root
			s2 := lt.Snapshot(t, 2)
			lt.EditManifests(t, s2.DeltaManifestList, func(es []manifest.ManifestEntry) []manifest.ManifestEntry {
				for i := range es {
					if es[i].Kind == manifest.Delete {
						es[i].File.FileName = "external2.parquet"
						es[i].File.ExternalPath = strPtr(filepath.ToSlash(filepath.Join(lt.Victim, "ext")) + "/../external2.parquet")
					}
				}
				return es
			})
			return map[string][]byte{v: content}, []string{"external2.parquet"}
		}},
		{Name: "manifest-list-name", Codes: "11000", What: "snapshot 1's `baseManifestList` is `../…`", Tamper: func(t testing.TB, lt *Table) (map[string][]byte, []string) {
			v := lt.Plant(t, "list", content)
			lt.EditSnapshot(t, 1, func(m map[string]any) { m["baseManifestList"] = lt.Rel(t, "manifest", v) })
			return map[string][]byte{v: content}, []string{"snapshot 1", "baseManifestList"}
		}},
		{Name: "manifest-name-in-list", Codes: "11000", What: "a manifest list names a manifest `../…`", Tamper: func(t testing.TB, lt *Table) (map[string][]byte, []string) {
			v := lt.Plant(t, "manifest", content)
			s1 := lt.Snapshot(t, 1)
			metas, err := lt.Tbl.ReadManifestList(context.Background(), s1.DeltaManifestList)
			if err != nil {
				t.Fatal(err)
			}
			x := metas[0]
			x.FileName = lt.Rel(t, "manifest", v)
			lt.WriteList(t, s1.DeltaManifestList, append(metas, x))
			return map[string][]byte{v: content}, []string{s1.DeltaManifestList}
		}},
		{Name: "statistics-name", Codes: "11000", What: "snapshot 1's `statistics` is `../…`", Tamper: func(t testing.TB, lt *Table) (map[string][]byte, []string) {
			v := lt.Plant(t, "stats", content)
			lt.EditSnapshot(t, 1, func(m map[string]any) { m["statistics"] = lt.Rel(t, "statistics", v) })
			return map[string][]byte{v: content}, []string{"snapshot 1", "statistics"}
		}},
		{Name: "index-manifest-name", Codes: "11000", What: "snapshot 1's `indexManifest` is `../…` (a readable index manifest)", Tamper: func(t testing.TB, lt *Table) (map[string][]byte, []string) {
			b := IndexManifestBytes(t, nil) // a readable (empty) index manifest outside the table
			v := lt.Plant(t, "index-manifest", b)
			lt.EditSnapshot(t, 1, func(m map[string]any) { m["indexManifest"] = lt.Rel(t, "manifest", v) })
			return map[string][]byte{v: b}, []string{"snapshot 1", "indexManifest"}
		}},
		{Name: "index-file-names", Codes: "11000", What: "an index manifest names index files by `../` and by an external path", Tamper: func(t testing.TB, lt *Table) (map[string][]byte, []string) {
			v1 := lt.Plant(t, "index-dotdot", content)
			v2 := lt.Plant(t, "index-external", content)
			e, _ := lt.FirstEntry(t)
			es := []manifest.IndexManifestEntry{
				{Kind: manifest.Add, Partition: e.Partition, IndexType: manifest.IndexTypeHash, FileName: lt.Rel(t, "index", v1), FileSize: 1},
				{Kind: manifest.Add, Partition: e.Partition, Bucket: 1, IndexType: manifest.IndexTypeHash, FileName: "index-x", FileSize: 1, ExternalPath: strPtr(filepath.ToSlash(v2))},
			}
			if err := os.WriteFile(lt.ManifestPath("index-manifest-tampered"), IndexManifestBytes(t, es), 0o644); err != nil {
				t.Fatal(err)
			}
			lt.EditSnapshot(t, 1, func(m map[string]any) { m["indexManifest"] = "index-manifest-tampered" })
			return map[string][]byte{v1: content, v2: content}, []string{"index-manifest-tampered"}
		}},
		{Name: "changelog-data-file", Codes: "11000", What: "a changelog manifest names a data file `../…`", Tamper: func(t testing.TB, lt *Table) (map[string][]byte, []string) {
			v := lt.Plant(t, "changelog-data", content)
			e, meta := lt.FirstEntry(t)
			e.File.FileName = lt.Rel(t, "p=a/bucket-0", v)
			lt.WriteManifest(t, "manifest-changelog-tampered", []manifest.ManifestEntry{e})
			meta.FileName = "manifest-changelog-tampered"
			lt.WriteList(t, "manifest-list-changelog-tampered", []manifest.ManifestFileMeta{meta})
			lt.EditSnapshot(t, 1, func(m map[string]any) { m["changelogManifestList"] = "manifest-list-changelog-tampered" })
			return map[string][]byte{v: content}, []string{"manifest-changelog-tampered"}
		}},
		{Name: "changelog-list-name", Codes: "11000", What: "snapshot 1's `changelogManifestList` is `../…`", Tamper: func(t testing.TB, lt *Table) (map[string][]byte, []string) {
			v := lt.Plant(t, "changelog-list", content)
			lt.EditSnapshot(t, 1, func(m map[string]any) { m["changelogManifestList"] = lt.Rel(t, "manifest", v) })
			return map[string][]byte{v: content}, []string{"snapshot 1", "changelogManifestList"}
		}},
	}
}
