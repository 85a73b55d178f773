package killsoak

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/lakeload/lakeload/internal/canon"
	"github.com/lakeload/lakeload/internal/oracle"
)

// dynUsersTable is the partitioned deduplicate table fed with +I/-U/+U/-D rows as a dynamic-bucket
// table (bucket = -1) with few keys per bucket, so every partition's buckets fill up across windows.
func dynUsersTable(m mode) tableSpec {
	ts := usersTable()
	ts.name = "dynusers"
	target := 300
	if m.name == "features-long" {
		target = 20_000
	}
	ts.options = []string{"bucket=-1", "dynamic-bucket.target-row-num=" + strconv.Itoa(target)}
	return ts
}

// evolvedUsersTable is the partitioned deduplicate table created without its last column, extra:
// the second half of the input files carry it, so --evolve-schema add-columns adds it mid-job.
// Rows of the first half read as null in it unless a later row of the same key sets it.
func evolvedUsersTable(m mode) tableSpec {
	ts := usersTable()
	ts.name = "evolved"
	ts.columns = append(ts.columns, "extra BIGINT")
	ts.createCols = len(ts.columns) - 1
	half := m.files / 2
	ts.fileCols = func(f int) int {
		if f < half {
			return len(ts.columns) - 1
		}
		return len(ts.columns)
	}
	gen := ts.gen
	ts.gen = func(r *rand.Rand, f, n int) []genRow {
		rows := gen(r, f, n)
		for i := range rows {
			var extra any = r.Int64N(1 << 40)
			if r.IntN(20) == 0 {
				extra = nil
			}
			rows[i].vals = append(rows[i].vals, extra)
		}
		return rows
	}
	return ts
}

// quarantineTotalsTable is the sum-aggregation table (a window applied twice doubles its sums) fed
// with CSV and JSON Lines files in turns, about one row in badEvery bad.
func quarantineTotalsTable(m mode) tableSpec {
	ts := totalsTable(m.keys)
	ts.name = "qtotals"
	ts.format = func(f int) string { return []string{"csv", "jsonl"}[f%2] }
	ts.badEvery = 250
	if m.name == "features-long" {
		ts.badEvery = 1_000
	}
	return ts
}

// incrementalUsersTable is the partitioned deduplicate table: its first half of files is loaded as
// the job's first generation (incrementalSetup), the second half, which updates and deletes keys of
// the first, as a second generation under kills.
func incrementalUsersTable(mode) tableSpec {
	ts := usersTable()
	ts.name = "incusers"
	return ts
}

// incrementalSetup writes the first half of the input and loads it to the end (generation 1, no kills).
func incrementalSetup(t *testing.T, e *featureEnv) {
	t.Helper()
	e.first = e.m.files / 2
	writeInput(t, e.m, e.ts, e.fields, e.rng, e.in, 0, e.first, e.exp)
	runToEnd(t, loadArgs(e.m, e.pl, e.ts, filepath.Join(e.in, "part-*")))
	_, gen1 := storeProgress(e.pl.storeDir)
	e.notes = append(e.notes, fmt.Sprintf("generation1-windows=%d", gen1))
}

// overwriteEventsTable is a partitioned append table. Its old rows (overwriteSetup) are in partitions
// d1..d4; the soaked `--overwrite partitions` load writes d2, d3 and d5, so d1 and d4 must keep their
// old rows, d2 and d3 must hold the new rows only, and d5 is new.
func overwriteEventsTable(mode) tableSpec {
	return eventsInPartitions("owevents", []string{"d2", "d3", "d5"})
}

func eventsInPartitions(name string, parts []string) tableSpec {
	var next int64
	return tableSpec{
		name:    name,
		columns: []string{"dt STRING", "id BIGINT", "payload STRING", "amount DOUBLE"},
		part:    []string{"dt"},
		options: []string{"bucket=2", "bucket-key=id"},
		merge:   mergeAppend,
		gen: func(r *rand.Rand, f, n int) []genRow {
			rows := make([]genRow, 0, n)
			for range n {
				var amount any = float64(r.IntN(400_000)) / 8
				if r.IntN(100) == 0 {
					amount = nil
				}
				rows = append(rows, genRow{vals: []any{parts[r.IntN(len(parts))], next, fmt.Sprintf("%s-%d-%08x", name, next, r.Uint32()), amount}})
				next++
			}
			return rows
		},
	}
}

// overwriteSetup loads the old rows (partitions d1..d4) with another job in one window, and keeps
// them by partition.
func overwriteSetup(t *testing.T, e *featureEnv) {
	t.Helper()
	base := eventsInPartitions(e.ts.name, []string{"d1", "d2", "d3", "d4"})
	exp := newExpected(base, e.fields)
	dir := filepath.Join(filepath.Dir(e.in), "old")
	writeInput(t, e.m, base, e.fields, e.rng, dir, 0, max(e.m.files/2, 1), exp)
	load := loadArgs(e.m, e.pl, base, filepath.Join(dir, "part-*"))
	for i, a := range load {
		switch a {
		case "--job":
			load[i+1] = "old"
		case "--commit-rows":
			load[i+1] = strconv.FormatInt(exp.rows+1, 10)
		}
	}
	runToEnd(t, load)
	old, err := exp.canonicalLines()
	if err != nil {
		t.Fatal(err)
	}
	e.old = byPartition(t, old)
	e.baseWindow = 1
}

// overwriteWant is the new rows plus the old rows of the partitions the new input does not touch.
func overwriteWant(t *testing.T, e *featureEnv) []string {
	t.Helper()
	neu, err := e.exp.canonicalLines()
	if err != nil {
		t.Fatal(err)
	}
	touched := byPartition(t, neu)
	want := append([]string(nil), neu...)
	for p, lines := range e.old {
		if _, ok := touched[p]; !ok {
			want = append(want, lines...)
		}
	}
	canon.Sort(want)
	return want
}

// byPartition groups canonical lines by their dt value.
func byPartition(t *testing.T, lines []string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, l := range lines {
		var row struct {
			Dt string `json:"dt"`
		}
		if err := json.Unmarshal([]byte(l), &row); err != nil {
			t.Fatalf("canonical line %s: %v", l, err)
		}
		out[row.Dt] = append(out[row.Dt], l)
	}
	return out
}

// overwriteSnapshots checks the history of an overwrite: the old rows' job made APPEND snapshots,
// the soaked job exactly one OVERWRITE snapshot (identifier = its last window + 1) and nothing else;
// and at every snapshot, read by Java Paimon, each partition the new input touches holds exactly its
// old rows or exactly its new rows, never a mix or a part.
func overwriteSnapshots(t *testing.T, e *featureEnv, snaps []map[string]any) {
	t.Helper()
	neu, err := e.exp.canonicalLines()
	if err != nil {
		t.Fatal(err)
	}
	newBy := byPartition(t, neu)
	var overwrites []map[string]any
	users := map[string]map[string]int{} // user → kind → snapshots
	for _, s := range snaps {
		u, k := fmt.Sprint(s["commitUser"]), fmt.Sprint(s["commitKind"])
		if users[u] == nil {
			users[u] = map[string]int{}
		}
		users[u][k]++
		if k == "OVERWRITE" {
			overwrites = append(overwrites, s)
		}
	}
	if len(overwrites) != 1 {
		t.Fatalf("overwrite: %d OVERWRITE snapshots, want exactly 1 (snapshots by user and kind: %v)", len(overwrites), users)
	}
	ow := overwrites[0]
	owUser := fmt.Sprint(ow["commitUser"])
	if id, _ := ow["commitIdentifier"].(int64); id != e.run.published+1 {
		t.Errorf("overwrite snapshot %v has identifier %v, want %d (the number after the job's last window)", ow["id"], ow["commitIdentifier"], e.run.published+1)
	}
	for k, n := range users[owUser] {
		if k != "OVERWRITE" && k != "COMPACT" {
			t.Errorf("the overwrite job's commit user %s made %d %s snapshots, want none", owUser, n, k)
		}
	}
	checked, mixes := 0, 0
	for _, s := range snaps {
		id, _ := s["id"].(int64)
		got := byPartition(t, e.java.Read(e.tablePath, oracle.ReadOpts{Snapshot: id}))
		checked++
		state := map[string]string{}
		for p, nl := range newBy {
			switch {
			case sameLines(got[p], e.old[p]):
				state[p] = "old"
			case sameLines(got[p], nl):
				state[p] = "new"
			default:
				mixes++
				t.Errorf("snapshot %d (%v): partition %s has %d rows, neither its %d old rows nor its %d new rows",
					id, s["commitKind"], p, len(got[p]), len(e.old[p]), len(nl))
			}
		}
		if id < ow["id"].(int64) && slices.Contains(mapValues(state), "new") || id >= ow["id"].(int64) && slices.Contains(mapValues(state), "old") {
			t.Errorf("snapshot %d (%v): partitions %v; want all old before the OVERWRITE snapshot %v and all new from it on", id, s["commitKind"], state, ow["id"])
		}
	}
	e.notes = append(e.notes, fmt.Sprintf("snapshots=%d overwrite-snapshot=%v all-old-or-all-new-checked=%d mixed=%d", len(snaps), ow["id"], checked, mixes))
}

func sameLines(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	a, b = slices.Clone(a), slices.Clone(b)
	canon.Sort(a)
	canon.Sort(b)
	return slices.Equal(a, b)
}

func mapValues(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}
