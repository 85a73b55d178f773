package job

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/internal/oracle"
	"github.com/lakeload/lakeload/paimon/compact"
	"github.com/lakeload/lakeload/paimon/index"
	"github.com/lakeload/lakeload/paimon/mergetree"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/binrow"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
)

// twoDays keeps the rows of fx in partitions 2024-01-01 (replaced by overwriteFixtures' new input)
// and 2024-01-03 (which the new input never touches).
func twoDays(fx loadtest.Fixture) loadtest.Fixture {
	files := make([]loadtest.File, len(fx.Files))
	for i, fl := range fx.Files {
		files[i].Name = fl.Name
		for _, r := range fl.Rows {
			if r.Values[0] != "2024-01-02" {
				files[i].Rows = append(files[i].Rows, r)
			}
		}
	}
	fx.Files = files
	return fx
}

// firstRowPartitioned is a first-row table partitioned by dt (2 days) with key (dt, k).
func firstRowPartitioned(seed uint64, files, rows int) loadtest.Fixture {
	r := rand.New(rand.NewPCG(seed, 11))
	f := loadtest.Fixture{Name: "firsts_p", Columns: [][2]string{{"dt", "STRING NOT NULL"}, {"k", "BIGINT NOT NULL"}, {"v", "STRING"}, {"n", "BIGINT"}},
		PK: []string{"dt", "k"}, Partition: []string{"dt"}, Options: map[string]string{"bucket": "2", "merge-engine": "first-row"}}
	for i := range files {
		fl := loadtest.File{Name: fmt.Sprintf("in-%02d.%s", i, []string{"parquet", "csv", "parquet", "jsonl"}[i%4])}
		for j := range rows {
			dt := []string{"2024-01-01", "2024-01-03"}[r.IntN(2)]
			fl.Rows = append(fl.Rows, loadtest.Row{Kind: spec.RowKindInsert, Values: []any{dt, int64(r.IntN(60)), fmt.Sprintf("f%d-%d", i, j), int64(r.IntN(1000))}})
		}
		f.Files = append(f.Files, fl)
	}
	return f
}

// firstRowsOf is the first-row model of files loaded in order: the first row of every (dt, k).
func firstRowsOf(t testing.TB, fx loadtest.Fixture, files []loadtest.File) []string {
	seen := map[string]bool{}
	var rows [][]any
	for _, f := range files {
		for _, r := range f.Rows {
			if k := fmt.Sprint(r.Values[0], "|", r.Values[1]); !seen[k] {
				seen[k] = true
				rows = append(rows, r.Values)
			}
		}
	}
	return fx.Canon(t, rows)
}

// newHiddenOwEnv is newOwEnv for a table hiding level 0 (first-row tables get their own model).
func newHiddenOwEnv(t *testing.T, fx loadtest.Fixture, mode string) *owEnv {
	e := newOwEnv(t, fx, mode)
	if fx.Options["merge-engine"] != "first-row" {
		return e
	}
	_, newFx := overwriteFixtures(fx)
	e.setModel(t, fx, firstRowsOf(t, fx, newFx.Files))
	return e
}

// hiddenOwFixtures are a deletion-vector deduplicate table and a first-row table, each with two
// partitions of which the overwrite replaces one.
func hiddenOwFixtures() []loadtest.Fixture {
	return []loadtest.Fixture{
		withOptions(twoDays(loadtest.Dedup(41, matrixFiles, 150)), "current_dv", map[string]string{"deletion-vectors.enabled": "true"}),
		firstRowPartitioned(42, matrixFiles, 100),
	}
}

// checkJavaStates reads every snapshot since the old data with Java Paimon: each must show every
// partition with exactly its old or its new rows (never neither: no replaced partition is empty
// for a moment), and the latest one the old table before the job's OVERWRITE snapshot exists and
// the new table after.
func (e *owEnv) checkJavaStates(t testing.TB, java *oracle.Client, mu *sync.Mutex) {
	t.Helper()
	ctx := context.Background()
	latest, _, err := e.tbl.Snapshots().LatestID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	oldP, newP := e.partitions(t, e.oldLines), e.partitions(t, e.newLines)
	mu.Lock()
	defer mu.Unlock()
	for id := e.oldSnap; id <= latest; id++ {
		if _, err := e.tbl.Snapshots().Get(ctx, id); err != nil {
			continue // a snapshot file lost to the crash (LATEST hint) does not exist
		}
		got := java.Read(e.tbl.Path, oracle.ReadOpts{Snapshot: id})
		gotP := e.partitions(t, got)
		for _, p := range slices.Sorted(mapKeys(oldP, newP, gotP)) {
			if !slices.Equal(gotP[p], oldP[p]) && !slices.Equal(gotP[p], newP[p]) {
				t.Fatalf("Java at snapshot %d: partition %q holds neither its old nor its new rows:%s", id, p, loadtest.Diff(newP[p], gotP[p]))
			}
		}
	}
	want := e.oldLines
	if jr, ok := e.state(t).Job(); ok && len(loadtest.SnapshotsOf(t, e.tbl, jr.CommitUser)) > 0 {
		want = e.newLines
	}
	got := java.Read(e.tbl.Path, oracle.ReadOpts{})
	if d := loadtest.Diff(want, got); d != "" {
		t.Fatalf("Java reads the latest snapshot differently from the table the job's snapshots make:%s", d)
	}
}

// checkMergedOverwrite asserts the job's OVERWRITE snapshot added only highest-level files (one
// sorted run per bucket) and that no COMPACT snapshot was needed after the old data.
func (e *owEnv) checkMergedOverwrite(t testing.TB) {
	t.Helper()
	ctx := context.Background()
	st := e.state(t)
	jr, _ := st.Job()
	snaps := loadtest.SnapshotsOf(t, e.tbl, jr.CommitUser)
	if len(snaps) != 1 {
		t.Fatalf("the job made %d snapshots, want 1", len(snaps))
	}
	level, err := compact.MaxLevel(e.tbl)
	if err != nil {
		t.Fatal(err)
	}
	adds := 0
	for en, err := range e.tbl.DeltaEntries(ctx, snaps[0]) {
		if err != nil {
			t.Fatal(err)
		}
		if en.Kind == manifest.Add {
			adds++
			if en.File.Level != level {
				t.Fatalf("the OVERWRITE snapshot adds %s at level %d, want the highest level %d", en.File.FileName, en.File.Level, level)
			}
		}
	}
	if adds == 0 {
		t.Fatal("the OVERWRITE snapshot adds no file")
	}
	latest, _, err := e.tbl.Snapshots().LatestID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for id := e.oldSnap + 1; id <= latest; id++ {
		if s, err := e.tbl.Snapshots().Get(ctx, id); err == nil && s.CommitKind == spec.CommitKindCompact {
			t.Fatalf("snapshot %d is a COMPACT: the overwrite should need none", id)
		}
	}
}

// TestOverwriteHiddenLevel0CrashMatrix overwrites a partition of a deletion-vector deduplicate table
// and of a first-row table (the other partition untouched; table mode once too), crashing at every
// point around the final commit — the merge of the staged files into the highest level included —
// and around publishing. After each crash and after the resume, Java Paimon reads every snapshot
// since the old data: each partition holds its old rows or its new rows, never neither, and the
// latest shows the old table until the OVERWRITE snapshot exists, the new one after. The resume
// finishes with one OVERWRITE snapshot adding only highest-level files and no COMPACT snapshot.
func TestOverwriteHiddenLevel0CrashMatrix(t *testing.T) {
	java := oracle.Java(t)
	var javaMu sync.Mutex
	for _, fx := range hiddenOwFixtures() {
		for _, mode := range []string{checkpoint.OverwritePartitions, checkpoint.OverwriteTable} {
			ref := newHiddenOwEnv(t, fx, mode)
			res := ref.runUncrashed(t, fx.Name+" "+mode)
			ref.checkOverwriteFinished(t)
			ref.checkMergedOverwrite(t)
			ref.checkVisibleStates(t)
			ref.checkJavaStates(t, java, &javaMu)
			if d := loadtest.Diff(ref.newLines, oracle.Py(t).Read(ref.tbl.Path, oracle.ReadOpts{})); d != "" {
				t.Fatalf("pypaimon reads the overwritten %s differently:%s", fx.Name, d)
			}
			if mode == checkpoint.OverwriteTable {
				continue // table mode: the crash-free run above
			}
			w, final := res.Windows, res.Windows+1
			crashes := overwriteCrashes(w, final, "before-commit", "before-compact", "inside-compact", "inside-commit",
				"snapshot-latest", "after-commit", "before-publish-1", "after-publish-1", "before-publish-last")
			// Here "twice" crashes the merge of the staged files, then a publish.
			crashes["twice"] = []crashAt{{PointInsideCompact, final}, {PointAfterPublish, 2}}
			runCrashCases(t, fx.Name+"/", crashes, func(t *testing.T, _ string, crashes []crashAt) {
				e := newHiddenOwEnv(t, fx, mode)
				e.crashAndResume(t, crashes, func() { e.checkJavaStates(t, java, &javaMu) })
				e.checkOverwriteFinished(t)
				e.checkMergedOverwrite(t)
				e.checkVisibleStates(t)
				e.checkJavaStates(t, java, &javaMu)
			})
		}
	}
}

// TestOverwriteDynamicBucketDeletionVectors: the dynamic-bucket fixture with deletion vectors is
// overwritten (partitions mode), crashing once after the staged files were merged and before the
// commit. The resume merges again and commits; the HASH index is replaced as for other
// dynamic-bucket tables, the OVERWRITE snapshot adds only highest-level files, and Java reads every
// snapshot as all-old or all-new per partition.
func TestOverwriteDynamicBucketDeletionVectors(t *testing.T) {
	java := oracle.Java(t)
	var mu sync.Mutex
	fx := withOptions(dynFixture(), "dyn_dv", map[string]string{"deletion-vectors.enabled": "true"})
	e := newOwEnv(t, fx, checkpoint.OverwritePartitions)
	oldIndex := latestIndex(t, e.tbl)
	cfg := e.owConfig()
	cfg.Logger = slog.New(slog.DiscardHandler)
	var hit atomic.Bool
	cfg.Hook = func(p string, w int64) error {
		if p == PointInsideCompact && hit.CompareAndSwap(false, true) {
			return errCrash
		}
		return nil
	}
	if _, err := e.run(context.Background(), cfg); !hit.Load() || !errors.Is(err, errCrash) {
		t.Fatalf("crash inside the merge: hit=%v err=%v", hit.Load(), err)
	}
	e.checkStaged(t)
	e.checkJavaStates(t, java, &mu)
	cfg.Hook = nil
	if _, err := e.run(context.Background(), cfg); err != nil {
		t.Fatalf("resume: %v", err)
	}
	e.checkOverwriteFinished(t)
	e.checkMergedOverwrite(t)
	e.checkVisibleStates(t)
	checkMergedDynamicIndex(t, e, fx, oldIndex)
	e.checkJavaStates(t, java, &mu)
}

// checkMergedDynamicIndex checks the HASH index after an overwrite whose staged files were merged:
// old index files of replaced partitions gone, the untouched partition's kept; every live key's
// hash indexed in its bucket (and in one bucket only); and a replaced partition's index holding
// exactly the hashes of the new input's keys — deleted keys too, which the merge dropped from the
// data but which the staged writer had assigned a bucket (as in Java, the hash index never forgets a
// key); never a hash of the old data alone.
func checkMergedDynamicIndex(t *testing.T, e *owEnv, fx loadtest.Fixture, oldIndex []manifest.IndexManifestEntry) {
	t.Helper()
	ctx := context.Background()
	checkHashIndexUnique(t, e.tbl, 3)
	now := latestIndex(t, e.tbl)
	paths := e.tbl.NewPaths()
	dayOf := func(part []byte) string {
		dir, err := paths.PartitionDir(part)
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSuffix(strings.TrimPrefix(dir, "dt="), "/")
	}
	live := map[string]bool{}
	indexed := map[string]map[int32]int32{} // day → hash → bucket
	for _, x := range now {
		live[x.FileName] = true
		if x.IndexType != manifest.IndexTypeHash {
			t.Fatalf("index file %s of type %s after the merged overwrite", x.FileName, x.IndexType)
		}
		hs, err := index.ReadHashFile(ctx, e.tbl, x)
		if err != nil {
			t.Fatal(err)
		}
		d := dayOf(x.Partition)
		if indexed[d] == nil {
			indexed[d] = map[int32]int32{}
		}
		for _, h := range hs {
			indexed[d][h] = x.Bucket
		}
	}
	kept := 0
	for _, old := range oldIndex {
		switch replaced := e.touchedOf[dayOf(old.Partition)]; {
		case replaced && live[old.FileName]:
			t.Errorf("old index file %s of a replaced partition is still live", old.FileName)
		case !replaced && !live[old.FileName]:
			t.Errorf("old index file %s of the untouched partition was dropped", old.FileName)
		case !replaced:
			kept++
		}
	}
	if kept == 0 {
		t.Error("the untouched partition kept no index file")
	}
	var keyType []spec.DataType // the trimmed primary key: (id)
	for _, k := range e.tbl.Schema.TrimmedPrimaryKeys() {
		f, _, _ := e.tbl.Schema.Field(k)
		keyType = append(keyType, f.Type)
	}
	hashOf := func(id int64) int32 {
		row, err := binrow.Encode(keyType, []any{id})
		if err != nil {
			t.Fatal(err)
		}
		return binrow.Hash(row)
	}
	_, newFx := overwriteFixtures(fx)
	want := map[string]map[int32]bool{}
	for _, f := range newFx.Files {
		for _, r := range f.Rows {
			d := r.Values[0].(string)
			if want[d] == nil {
				want[d] = map[int32]bool{}
			}
			want[d][hashOf(r.Values[1].(int64))] = true
		}
	}
	for d, hs := range want {
		if len(indexed[d]) != len(hs) {
			t.Errorf("replaced partition %s: HASH index holds %d hashes, the new input has %d keys", d, len(indexed[d]), len(hs))
		}
		for h := range hs {
			if _, ok := indexed[d][h]; !ok {
				t.Errorf("replaced partition %s: hash %d of a new key is not indexed", d, h)
			}
		}
	}
	plan, err := read.Scan(ctx, e.tbl, read.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := read.NewReader(e.tbl, plan.Schema)
	if err != nil {
		t.Fatal(err)
	}
	keys := 0
	for _, s := range plan.Splits {
		d := dayOf(s.Partition)
		err := r.ReadKeyValues(ctx, s, true, func(kv mergetree.KeyValue) error {
			keys++
			if b, ok := indexed[d][hashOf(kv.Key[0].(int64))]; !ok || b != s.Bucket {
				return fmt.Errorf("key %v of %s is in bucket %d, its HASH index says %d (indexed %v)", kv.Key, d, s.Bucket, b, ok)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if keys == 0 {
		t.Fatal("no live key read")
	}
}
