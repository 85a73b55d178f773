package commit

import (
	"context"

	"github.com/lakeload/lakeload/paimon/index"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// Overwrite makes a commit an OVERWRITE (Java's INSERT OVERWRITE, FileStoreCommitImpl.overwrite):
// the live files of the replaced partitions (or of the whole table) are deleted and the commit's new
// files added, in one snapshot of kind OVERWRITE. The files to delete are read from the latest
// snapshot on every attempt, so a writer that commits in between is replaced too (and Java's
// conflict checks run on the result). Index files go the same way: every live index entry of the
// replaced partitions is deleted and the messages' new index files added (their DeletedIndexFiles
// must be empty), so a dynamic-bucket table gets the replacement's HASH files only.
type Overwrite struct {
	// Table replaces every live file of the table; the new files may be empty (truncate).
	Table bool
	// Partitions are the BinaryRow bytes of the partitions to replace (with Table false). A
	// partition listed here without new files is emptied.
	Partitions [][]byte
}

// overwriteEntries returns DELETE entries for the live files of latest that o replaces, followed by
// adds, and DELETE entries for every live index file (HASH, deletion vectors, …) of the replaced
// partitions (or of the whole table): the replaced data's index goes with it, and the commit's own
// index files (the messages' NewIndexFiles) are then added.
func overwriteEntries(ctx context.Context, t *table.Table, latest *spec.Snapshot, adds []manifest.ManifestEntry, o *Overwrite) (
	[]manifest.ManifestEntry, []manifest.IndexManifestEntry, error) {
	var out []manifest.ManifestEntry
	var idx []manifest.IndexManifestEntry
	if latest != nil {
		replace := map[string]bool{}
		for _, p := range o.Partitions {
			replace[string(p)] = true
		}
		live, err := t.LiveFiles(ctx, latest)
		if err != nil {
			return nil, nil, err
		}
		for _, e := range live {
			if o.Table || replace[string(e.Partition)] {
				e.Kind = manifest.Delete
				out = append(out, e)
			}
		}
		liveIdx, err := index.SnapshotEntries(ctx, t, latest)
		if err != nil {
			return nil, nil, err
		}
		for _, e := range liveIdx {
			if o.Table || replace[string(e.Partition)] {
				e.Kind = manifest.Delete
				idx = append(idx, e)
			}
		}
	}
	return append(out, adds...), idx, nil
}

// PartitionsOf returns the distinct partitions (BinaryRow bytes) of msgs' new files, in first-seen order.
func PartitionsOf(msgs []table.CommitMessage) [][]byte {
	seen := map[string]bool{}
	var out [][]byte
	for _, m := range msgs {
		if len(m.NewFiles) == 0 || seen[string(m.Partition)] {
			continue
		}
		seen[string(m.Partition)] = true
		out = append(out, m.Partition)
	}
	return out
}
