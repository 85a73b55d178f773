package table

import (
	"context"
	"errors"

	"github.com/lakeload/lakeload/fileio"
)

// FloorSince returns the snapshot id after which every snapshot created since snapshot seen was the
// latest can be found; seenList is the delta manifest list seen had then (its identity: manifest
// list names are unique per commit).
//
// Normally that is seen itself. A rollback removes the snapshots above its target and later commits
// reuse their ids, so a snapshot created since may sit at or below seen: when seen is gone while
// the table's latest is below it, or the snapshot now at seen is another one (its delta list
// differs), the table was rolled back below seen, and the floor is the one before the earliest
// snapshot: the whole retained history is searched. A seen that expired (below the earliest) is
// returned as it is: the caller's completeness check (earliest ≤ floor+1) reports that range as
// unverifiable. An empty seenList (a record written before identities were kept) gives the older
// rule, min(seen, latest), which misses a reused id at or below seen.
func (m *Snapshots) FloorSince(ctx context.Context, seen int64, seenList string) (int64, error) {
	if seen <= 0 {
		return 0, nil
	}
	latest, ok, err := m.LatestID(ctx)
	if err != nil || !ok {
		return 0, err
	}
	if seenList == "" {
		return min(seen, latest), nil
	}
	if latest >= seen {
		s, err := m.Get(ctx, seen)
		switch {
		case err == nil && s.DeltaManifestList == seenList:
			return seen, nil
		case err != nil && !errors.Is(err, fileio.ErrNotExist):
			return 0, err
		}
	}
	earliest, ok, err := m.EarliestID(ctx)
	if err != nil || !ok {
		return 0, err
	}
	if earliest > seen {
		return seen, nil // expired, not rolled back: the range after seen is incomplete
	}
	return earliest - 1, nil
}
