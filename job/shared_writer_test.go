package job

import (
	"context"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/internal/loadtest"
)

// TestOneWriterPerBucketPerWindow: by default (no SplitTasks) a window's splits are read in
// parallel but every (partition, bucket) of a window is written by one writer, so its files carry
// one writer id (the uuid in data-<uuid>-<n>.parquet), while SplitTasks gives each task writers of
// its own. Both load the table exactly.
func TestOneWriterPerBucketPerWindow(t *testing.T) {
	for _, split := range []bool{false, true} {
		fx := loadtest.Dedup(31, 8, 60)
		glob := fx.WriteInputs(t, loadtest.TempDir(t))
		e := newLoadEnv(t, fx, glob)
		cfg := e.config(240) // about 4 files per window, read by 2 readers
		cfg.SplitTasks = split
		if _, err := Run(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		if d := loadtest.Diff(fx.Expected(t), loadtest.Lines(t, e.tbl)); d != "" {
			t.Fatalf("split=%v: table differs:%s", split, d)
		}
		ctx := context.Background()
		ids, err := e.tbl.Snapshots().IDs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		shared := 0 // (window, bucket) groups written by more than one writer
		for _, id := range ids {
			s, err := e.tbl.Snapshots().Get(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			writers := map[string]map[string]bool{}
			for en, err := range e.tbl.DeltaEntries(ctx, s) {
				if err != nil {
					t.Fatal(err)
				}
				key := string(en.Partition) + "/" + string(rune(en.Bucket))
				name := strings.TrimPrefix(en.File.FileName, "data-")
				uuid := name[:36]
				if writers[key] == nil {
					writers[key] = map[string]bool{}
				}
				writers[key][uuid] = true
			}
			for _, w := range writers {
				if len(w) > 1 {
					shared++
				}
			}
		}
		if !split && shared != 0 {
			t.Errorf("default mode: %d (window, partition, bucket) groups were written by several writers", shared)
		}
		if split && shared == 0 {
			t.Errorf("SplitTasks: no bucket was written by two tasks; the test input does not exercise the difference")
		}
	}
}
