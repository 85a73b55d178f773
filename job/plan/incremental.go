package plan

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/source"
)

// Diff is the file diff of an incremental generation: of files (the input glob planned now by
// file.PlanWith), it returns those that no live split of the job's plan (planned, less the indexes
// in dropped, sorted) names, cut into splits of about splitRows rows; and the planned files that
// changed (size or modification time) or are gone, the gone ones sorted by path. It writes nothing.
func Diff(ctx context.Context, fs fileio.FileIO, files, planned []source.Split, dropped []int,
	splitRows int64) (fresh []source.Split, changed []checkpoint.FileChange, err error) {
	known := map[string]source.Split{} // path → a live (not dropped) split of it
	for i, s := range planned {
		if _, gone := slices.BinarySearch(dropped, i); !gone {
			known[s.Path] = s
		}
	}
	seen := map[string]bool{}
	for _, f := range files {
		seen[f.Path] = true
		old, ok := known[f.Path]
		if !ok {
			cut, err := CutFile(ctx, fs, f, splitRows)
			if err != nil {
				return nil, nil, err
			}
			fresh = append(fresh, cut...)
			continue
		}
		if old.ModTimeUnixNano != 0 && (old.Size != f.Size || old.ModTimeUnixNano != f.ModTimeUnixNano) {
			changed = append(changed, checkpoint.FileChange{Path: f.Path, Change: "changed",
				Detail: fmt.Sprintf("size %d→%d, mod time %d→%d", old.Size, f.Size, old.ModTimeUnixNano, f.ModTimeUnixNano)})
		}
	}
	for _, p := range slices.Sorted(maps.Keys(known)) {
		if !seen[p] {
			changed = append(changed, checkpoint.FileChange{Path: p, Change: "gone"})
		}
	}
	return fresh, changed, nil
}
