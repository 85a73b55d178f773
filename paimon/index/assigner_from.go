package index

import (
	"fmt"

	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// NewAssignerFrom restores an assigner from explicit HASH index files rather than a snapshot: files
// are the index state to continue (at most one HASH file per partition and bucket; other index
// types are ignored), and no bucket is taken to hold data beyond them. An overwrite job's staged
// windows use it: the partitions they write are about to be replaced, so the table's own index of
// them does not apply; window k continues the HASH files staged by windows 1..k-1 (none: every
// partition starts empty). BaseSnapshot is 0.
func NewAssignerFrom(t *table.Table, files []manifest.IndexManifestEntry) (*Assigner, error) {
	opts, err := OptionsOf(t.Options)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", t.Path, err)
	}
	a := &Assigner{t: t, opts: opts, files: map[string][]manifest.IndexManifestEntry{}, dataBkts: map[string]map[int32]bool{},
		parts: map[string]*partitionIndex{}, paths: t.NewPaths()}
	for _, e := range files {
		if e.IndexType == manifest.IndexTypeHash {
			a.files[string(e.Partition)] = append(a.files[string(e.Partition)], e)
		}
	}
	return a, nil
}
