package commit_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
)

// deleteMsgs turns the messages of an earlier commit into messages deleting the same files.
func deleteMsgs(msgs []table.CommitMessage) []table.CommitMessage {
	out := make([]table.CommitMessage, len(msgs))
	for i, m := range msgs {
		out[i] = table.CommitMessage{Partition: m.Partition, Bucket: m.Bucket, TotalBuckets: m.TotalBuckets, DeletedFiles: m.NewFiles}
	}
	return out
}

// TestManifestMergingAfterManyCommits makes 40 small commits, some of them deleting the files of an
// earlier commit, and checks that the manifests a snapshot references stay bounded by
// manifest.merge-min-count, that merged manifests hold only live ADD entries, and that every
// snapshot reads back exactly its rows.
func TestManifestMergingAfterManyCommits(t *testing.T) {
	for _, c := range []struct{ minCount, commits int }{{30, 40}, {3, 16}} {
		minCount, commits := c.minCount, c.commits
		t.Run(fmt.Sprintf("merge-min-count=%d", minCount), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			var opts map[string]string
			if minCount != 30 { // 30 is the default: leave the option unset
				opts = map[string]string{"manifest.merge-min-count": strconv.Itoa(minCount)}
			}
			tbl := memTable(t, appendCols, nil, nil, opts)
			// One writer for all commits (as a long-running job): a new writer per commit would re-read
			// every manifest to restore sequence numbers, which only slows the test down.
			w, err := write.New(ctx, tbl, write.Options{})
			if err != nil {
				t.Fatal(err)
			}
			written := map[int][]table.CommitMessage{}
			live := map[int][][]any{} // commit number → its rows, while its files are live
			wantAt := map[int64][][]any{}
			deltaNames := map[string]bool{}
			for i := 1; i <= commits; i++ {
				var msgs []table.CommitMessage
				if i%10 != 5 { // commits 5, 15, … only delete
					for _, r := range appendRows(int64(i)*100, 1+i%3, "c"+strconv.Itoa(i)) {
						if err := w.WriteRow(ctx, r, spec.RowKindInsert); err != nil {
							t.Fatal(err)
						}
					}
					if msgs, err = w.Prepare(ctx); err != nil {
						t.Fatal(err)
					}
					written[i] = msgs
					live[i] = appendRows(int64(i)*100, 1+i%3, "c"+strconv.Itoa(i))
				}
				if i%5 == 0 { // delete the files of commit i-3
					msgs = append(msgs, deleteMsgs(written[i-3])...)
					delete(live, i-3)
				}
				id := mustCommit(t, tbl, msgs, "u"+strconv.Itoa(i))
				if id != int64(i) {
					t.Fatalf("commit %d landed as snapshot %d", i, id)
				}
				var want [][]any
				for _, rows := range live {
					want = append(want, rows...)
				}
				wantAt[id] = want
			}
			snaps := snapshotsOf(t, tbl)
			checkCounts(t, tbl, snaps)
			maxRefs := 0
			for _, s := range snaps {
				metas, err := tbl.DataManifests(ctx, s)
				if err != nil {
					t.Fatal(err)
				}
				maxRefs = max(maxRefs, len(metas))
				if len(metas) > minCount {
					t.Errorf("snapshot %d references %d manifests, more than merge-min-count %d", s.ID, len(metas), minCount)
				}
				delta, err := tbl.ReadManifestList(ctx, s.DeltaManifestList)
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range delta {
					deltaNames[m.FileName] = true
				}
			}
			// A base manifest no commit wrote as its delta is a merge result: it holds only ADD entries, all
			// of them live in the snapshot it was merged from (the one before the first snapshot using it).
			merged := 0
			checked := map[string]bool{}
			for _, s := range snaps {
				base, err := tbl.ReadManifestList(ctx, s.BaseManifestList)
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range base {
					if deltaNames[m.FileName] || checked[m.FileName] {
						continue
					}
					checked[m.FileName] = true
					merged++
					prev := snaps[s.ID-2]
					prevLive, err := tbl.LiveFiles(ctx, prev)
					if err != nil {
						t.Fatal(err)
					}
					liveIDs := map[string]bool{}
					for _, e := range prevLive {
						liveIDs[e.Identifier()] = true
					}
					entries, err := tbl.ReadManifest(ctx, m.FileName)
					if err != nil {
						t.Fatal(err)
					}
					if m.NumDeletedFiles != 0 || int(m.NumAddedFiles) != len(entries) {
						t.Errorf("merged manifest %s: %d added, %d deleted, %d entries", m.FileName, m.NumAddedFiles, m.NumDeletedFiles, len(entries))
					}
					for _, e := range entries {
						if e.Kind != manifest.Add || !liveIDs[e.Identifier()] {
							t.Errorf("merged manifest of snapshot %d holds %s %s, not live in snapshot %d", s.ID, e.Kind, e.File.FileName, prev.ID)
						}
					}
					if len(entries) != len(prevLive) {
						t.Errorf("merged manifest of snapshot %d holds %d files, snapshot %d has %d live", s.ID, len(entries), prev.ID, len(prevLive))
					}
				}
			}
			if merged == 0 {
				t.Errorf("no manifest was merged in %d commits (max %d referenced)", commits, maxRefs)
			}
			t.Logf("at most %d manifests referenced; %d merged manifests", maxRefs, merged)
			for _, id := range []int64{1, 5, int64(minCount) - 1, int64(minCount), int64(minCount) + 1, int64(commits)} {
				checkRows(t, tbl, id, wantAt[id])
			}
		})
	}
}
