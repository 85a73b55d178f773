package compact

import (
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// pickAppend chooses the files of an append bucket to merge (Java's append compaction, simplified):
// files smaller than Java's compaction file size (70% of target-file-size) are rewritten together
// once there are compaction.min.file-num of them; with Full every file is, if there are two or more.
// The output stays at level 0, as append files always do.
func pickAppend(t *table.Table, o Options, s Strategy, files []manifest.DataFileMeta) (Unit, bool) {
	var picked []manifest.DataFileMeta
	if o.Full {
		picked = files
	} else {
		limit := t.Options.TargetFileSize(false) / 10 * 7
		for _, f := range files {
			if f.FileSize < limit {
				picked = append(picked, f)
			}
		}
		if len(picked) < max(2, s.AppendMinFiles) {
			return Unit{}, false
		}
	}
	if len(picked) < 2 {
		return Unit{}, false
	}
	return Unit{OutputLevel: 0, Runs: []SortedRun{{Level: 0, Files: picked}}}, true
}
