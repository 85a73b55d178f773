package job

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/paimon/index"
	"github.com/lakeload/lakeload/paimon/mergetree"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/binrow"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
)

// owDynEnv is an overwrite of the dynamic-bucket fixture (3 partitions, 8 keys per bucket) whose new
// input leaves partition 2024-01-03 untouched; oldIndex is the table's index before the overwrite.
type owDynEnv struct {
	*owEnv
	oldIndex []manifest.IndexManifestEntry
}

func newOwDynEnv(t *testing.T, mode string) *owDynEnv {
	t.Helper()
	e := &owDynEnv{owEnv: newOwEnv(t, dynFixture(), mode)}
	e.oldIndex = latestIndex(t, e.tbl)
	if len(e.oldIndex) < 6 {
		t.Fatalf("old table has %d index files; the fixture should spread 3 partitions over several buckets", len(e.oldIndex))
	}
	return e
}

// checkDynamicIndex checks the latest snapshot after the overwrite: one HASH file per (partition,
// bucket) and no hash in two buckets (checkHashIndexUnique); every key of the live data files in
// exactly one bucket of its partition; no old index file of a replaced partition left, and the
// untouched partition's old index files all kept (partitions mode).
func (e *owDynEnv) checkDynamicIndex(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	checkHashIndexUnique(t, e.tbl, 3-boolInt(e.mode == checkpoint.OverwriteTable))
	now := latestIndex(t, e.tbl)
	live := map[string]bool{}
	for _, x := range now {
		live[x.FileName] = true
	}
	paths := e.tbl.NewPaths()
	kept := 0
	for _, old := range e.oldIndex {
		dir, err := paths.PartitionDir(old.Partition)
		if err != nil {
			t.Fatal(err)
		}
		replaced := e.mode == checkpoint.OverwriteTable || e.touchedOf[strings.TrimSuffix(strings.TrimPrefix(dir, "dt="), "/")]
		switch {
		case replaced && live[old.FileName]:
			t.Errorf("old index file %s of replaced partition %s (bucket %d) is still in the index manifest", old.FileName, dir, old.Bucket)
		case !replaced && !live[old.FileName]:
			t.Errorf("old index file %s of untouched partition %s (bucket %d) was dropped", old.FileName, dir, old.Bucket)
		case !replaced:
			kept++
		}
	}
	if e.mode == checkpoint.OverwritePartitions && kept == 0 {
		t.Error("the untouched partition kept no index file")
	}
	plan, err := read.Scan(ctx, e.tbl, read.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := read.NewReader(e.tbl, plan.Schema)
	if err != nil {
		t.Fatal(err)
	}
	// HASH index of every (partition, bucket), and the key types it hashes.
	indexed := map[string]map[int32]int32{} // partition → hash → bucket
	for _, x := range now {
		hs, err := index.ReadHashFile(ctx, e.tbl, x)
		if err != nil {
			t.Fatal(err)
		}
		if indexed[string(x.Partition)] == nil {
			indexed[string(x.Partition)] = map[int32]int32{}
		}
		for _, h := range hs {
			indexed[string(x.Partition)][h] = x.Bucket
		}
	}
	var keyTypes []spec.DataType
	for _, k := range e.tbl.Schema.TrimmedPrimaryKeys() {
		f, _, _ := e.tbl.Schema.Field(k)
		keyTypes = append(keyTypes, f.Type)
	}
	bucketOf := map[string]int32{}
	hashes := map[string]map[int32]bool{} // partition → hashes of its live keys
	for _, s := range plan.Splits {
		seen := map[string]bool{}
		err := r.ReadKeyValues(ctx, s, false, func(kv mergetree.KeyValue) error {
			k := fmt.Sprintf("%x/%v", s.Partition, kv.Key)
			if b, ok := bucketOf[k]; ok && b != s.Bucket && !seen[k] {
				return fmt.Errorf("key %v of partition %x is in buckets %d and %d", kv.Key, s.Partition, b, s.Bucket)
			}
			bucketOf[k], seen[k] = s.Bucket, true
			row, err := binrow.Encode(keyTypes, kv.Key)
			if err != nil {
				return err
			}
			h := binrow.Hash(row)
			if b, ok := indexed[string(s.Partition)][h]; !ok || b != s.Bucket {
				return fmt.Errorf("key %v is in bucket %d of partition %x, its HASH index says bucket %d (indexed %v)", kv.Key, s.Bucket, s.Partition, b, ok)
			}
			if hashes[string(s.Partition)] == nil {
				hashes[string(s.Partition)] = map[int32]bool{}
			}
			hashes[string(s.Partition)][h] = true
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(bucketOf) == 0 {
		t.Fatal("no keys read")
	}
	// A replaced partition's index holds the new keys only (no hash left over from the old data).
	for p, hs := range indexed {
		dir, _ := paths.PartitionDir([]byte(p))
		if e.mode == checkpoint.OverwritePartitions && !e.touchedOf[strings.TrimSuffix(strings.TrimPrefix(dir, "dt="), "/")] {
			continue
		}
		if len(hs) != len(hashes[p]) {
			t.Errorf("replaced partition %s: HASH index holds %d key hashes, its data %d keys", dir, len(hs), len(hashes[p]))
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestOverwriteDynamicBucketCrashMatrix crashes an overwrite of a dynamic-bucket primary-key table
// (3 partitions, one untouched by the new input; ≥ 3 windows that fill buckets across windows) at
// every named point, resumes it, and requires the end state of TestOverwriteCrashMatrix plus a
// consistent index: old index files of replaced partitions gone, untouched ones kept, every key in
// one bucket. At every snapshot each replaced partition is all-old or all-new. One case per mode is
// read by Java Paimon and pypaimon.
func TestOverwriteDynamicBucketCrashMatrix(t *testing.T) {
	for _, mode := range []string{checkpoint.OverwritePartitions, checkpoint.OverwriteTable} {
		ref := newOwDynEnv(t, mode)
		res := ref.runUncrashed(t, mode)
		ref.checkOverwriteFinished(t)
		ref.checkVisibleStates(t)
		ref.checkDynamicIndex(t)
		w, final := res.Windows, res.Windows+1
		crashes := overwriteCrashes(w, final, "assigned", "task-written", "result-stored", "before-commit",
			"inside-commit", "snapshot-latest", "after-commit", "before-publish-last", "twice")
		var oracleOnce sync.Once
		runCrashCases(t, mode+"/", crashes, func(t *testing.T, name string, crashes []crashAt) {
			e := newOwDynEnv(t, mode)
			cfg := e.crashAndResume(t, crashes, nil)
			e.checkOverwriteFinished(t)
			e.checkVisibleStates(t)
			e.checkDynamicIndex(t)
			e.checkAlreadyDone(t, cfg)
			if name == "snapshot-latest" {
				oracleOnce.Do(func() { e.checkOracles(t) })
			}
		})
	}
}

// TestOverwriteDynamicBucketRecomputeRebuildsIndex: the staged files of window 2 vanish before the
// final commit. The rerun recomputes window 2 from the index staged by window 1, then every later
// window writing a partition window 2 wrote (their assignment was computed from window 2's old
// HASH files), and commits a consistent index.
func TestOverwriteDynamicBucketRecomputeRebuildsIndex(t *testing.T) {
	e := newOwDynEnv(t, checkpoint.OverwritePartitions)
	cfg := e.crashBeforeCommit(t)
	st := e.state(t)
	if id, why, err := inconsistentWindow(st, nil); id != 0 || err != nil {
		t.Fatalf("freshly staged windows are inconsistent: window %d: %s", id, why)
	}
	ws, _ := st.Window(2)
	at, _ := ws.Attempt(1)
	deleteNewFiles(t, e.tbl, msgsOf(t, at.Results[0]))
	log := &actionLog{}
	cfg.Hook, cfg.Logger = nil, slog.New(log)
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	e.checkOverwriteFinished(t)
	e.checkVisibleStates(t)
	e.checkDynamicIndex(t)
	st = e.state(t)
	if id, why, err := inconsistentWindow(st, nil); id != 0 || err != nil {
		t.Fatalf("after recovery window %d is inconsistent: %s", id, why)
	}
	recomputed := 0
	for _, ws := range st.Windows() {
		if ws.Published.Attempt > 1 {
			recomputed++
		}
		if ws.Window < 2 && ws.Published.Attempt != 1 {
			t.Errorf("window %d was recomputed (attempt %d); only window 2 and later ones depend on window 2", ws.Window, ws.Published.Attempt)
		}
	}
	if ws, _ := st.Window(2); ws.Published.Attempt != 2 || recomputed < 2 {
		t.Fatalf("window 2 published attempt %d, %d windows recomputed; want window 2 and a later window (same partitions) recomputed; actions %v",
			ws.Published.Attempt, recomputed, log.kinds())
	}
}
