package table

import (
	"context"

	"github.com/lakeload/lakeload/fileio"
)

// boundedScanMax is the largest id range idsAfter probes one snapshot at a time; a longer range is
// listed (one directory listing is cheaper than that many probes).
const boundedScanMax = 256

// idsAfter returns the ids of the snapshot files newer than afterID, ascending, for a lookup that must
// see every such snapshot (FindCommits). When the range up to the latest snapshot is short — the
// loader looks a window up after the snapshot it saw at assignment — the ids are probed one by one
// instead of listing the snapshot directory, so a lookup costs O(snapshots after afterID), not
// O(snapshots in the table).
//
// It sees what a listing sees: snapshot ids are created in order (n+1 only after n exists), so every
// snapshot created before the scan is at most LatestID, and the probe continues past LatestID until
// an id is missing to take in commits that land meanwhile. Missing ids inside the range (expired or
// removed) are left out, as a listing would. Candidates are returned without reading them; the
// caller reads each one and skips those that vanish.
func (m *Snapshots) idsAfter(ctx context.Context, afterID int64) ([]int64, error) {
	latest, ok, err := m.LatestID(ctx)
	if err != nil {
		return nil, err
	}
	if !ok {
		return m.IDs(ctx) // no snapshot found by the hint: list (nothing, or a table without hints)
	}
	if latest-afterID > boundedScanMax || afterID < 0 {
		return m.IDs(ctx)
	}
	var ids []int64
	for id := afterID + 1; id <= latest; id++ {
		ids = append(ids, id) // Get reports a missing one as ErrNotExist, which FindCommits skips
	}
	for id := latest + 1; ; id++ {
		exists, err := fileio.Exists(ctx, m.fs, m.Path(id))
		if err != nil {
			return nil, err
		}
		if !exists {
			break
		}
		ids = append(ids, id)
	}
	return ids, nil
}
