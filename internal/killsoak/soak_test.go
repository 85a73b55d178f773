package killsoak

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lakeload/lakeload/internal/oracle"
)

const (
	soakDB  = "soak"
	soakJob = "soak"
)

// killStats counts what the harness did to the children of all tables.
type killStats struct {
	aimed     map[string]int // SIGKILLs while the child was paused at the point
	random    int            // SIGKILLs at a random moment
	fallback  int            // aimed runs that hung (no progress for aimHangGuard): killed, and the soak fails
	missed    map[string]int // aimed points not reached because the job finished first
	runs      int            // child processes started
	childTime time.Duration  // wall time of all children
	committed int            // "window committed" log lines of all children
}

func (s *killStats) kills() int {
	n := s.random + s.fallback
	for _, k := range s.aimed {
		n += k
	}
	return n
}

// randomDelay is a random moment within about one window of work (as measured from the children so
// far, start-up included).
func (s *killStats) randomDelay(rng *rand.Rand) time.Duration {
	perWindow := time.Second
	if s.committed > 0 {
		perWindow = s.childTime / time.Duration(s.committed)
	}
	limit := 100*time.Millisecond + perWindow
	return time.Duration(rng.Int64N(int64(limit)))
}

// tableResult is what one table's soak produced.
type tableResult struct {
	name      string
	rows      int64 // input rows
	expected  int   // expected table rows
	kills     int
	runs      int
	java, py  diff
	snaps     snapshotReport
	published int64 // windows the store records as published (by file name)
	loadTime  time.Duration
	checkTime time.Duration
}

func TestKillSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("the kill -9 soak takes about 20 s; run without -short (or `make soak` for the long one)")
	}
	m := currentMode()
	java, py := oracle.Java(t), oracle.Py(t) // skip (or fail under CI) before any work when missing
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("LAKELOAD_SOAK_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("LAKELOAD_SOAK_SEED=%q: %v", s, err)
		}
		seed = v
	}
	t.Logf("mode %s, kill-timing seed %d (LAKELOAD_SOAK_SEED repeats the random delays); binary built in %v",
		m.name, seed, buildTime.Round(time.Millisecond))
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	root := t.TempDir()
	wh := filepath.Join(root, "wh")
	st := &killStats{aimed: map[string]int{}, missed: map[string]int{}}
	sched := &scheduler{}
	t0 := time.Now()
	var results []tableResult
	for i, ts := range soakTables(m) {
		r := soakTable(t, m, i, ts, root, localPlace(wh, ts.name), sched, st, rng)
		results = append(results, verifyTable(t, r, filepath.Join(wh, soakDB+".db", ts.name), java, py))
	}
	summary := summarize(m, results, st, time.Since(t0))
	t.Log(summary)
	for _, p := range points {
		if st.aimed[p] == 0 {
			t.Errorf("no kill landed at %s (missed: %v); the schedule must cover every point", p, st.missed)
		}
	}
	if m.name == "long" && st.kills() < 30 {
		t.Errorf("long soak: %d kills, want ≥ 30", st.kills())
	}
}

// verifyTable reads the soaked table at path (a local directory) with Java Paimon and pypaimon,
// compares both with the expected rows and checks one APPEND snapshot per window.
func verifyTable(t *testing.T, r soakRun, path string, java, py *oracle.Client) tableResult {
	t.Helper()
	c0 := time.Now()
	r.java = compareLines(r.wantLines, java.Read(path, oracle.ReadOpts{}))
	r.py = compareLines(r.wantLines, py.Read(path, oracle.ReadOpts{}))
	r.snaps = checkSnapshots(java.Snapshots(path))
	r.checkTime = time.Since(c0)
	r.wantLines = nil
	t.Logf("table %-6s rows %d -> %d expected | kills %d, runs %d | java %v | py %v | %d windows, %d APPEND of %d snapshots, snapshots/window %d..%d | load %v, check %v",
		r.name, r.rows, r.expected, r.kills, r.runs, r.java, r.py, r.snaps.windows, r.snaps.appends, r.snaps.total,
		r.snaps.minPer, r.snaps.maxPer, r.loadTime.Round(time.Millisecond), r.checkTime.Round(time.Millisecond))
	checkReads(t, &r, "java", "pypaimon")
	return r.tableResult
}

// checkReads fails the test when a reader's rows differ from the model or the snapshots are not one
// APPEND snapshot per published window of one commit user.
func checkReads(t *testing.T, r *soakRun, javaWho, pyWho string) {
	t.Helper()
	for _, d := range []struct {
		who string
		d   diff
	}{{javaWho, r.java}, {pyWho, r.py}} {
		if !d.d.ok() {
			t.Errorf("table %s read by %s: %v; samples:\n%s", r.name, d.who, d.d, strings.Join(d.d.samples, "\n"))
		}
	}
	if len(r.snaps.problems) > 0 || int64(r.snaps.windows) != r.published || len(r.snaps.users) != 1 {
		t.Errorf("table %s snapshots: %d windows (the job published %d), commit users %v, problems: %v",
			r.name, r.snaps.windows, r.published, r.snaps.users, r.snaps.problems)
	}
}

// summarize renders the one-line result of a soak.
func summarize(m mode, results []tableResult, st *killStats, total time.Duration) string {
	var rows int64
	var lost, dup, wrong, windows, minPer, maxPer int
	for _, r := range results {
		rows += r.rows
		for _, d := range []diff{r.java, r.py} {
			lost, dup, wrong = lost+d.lost, dup+d.dup, wrong+d.wrong
		}
		windows += r.snaps.windows
		if minPer == 0 || r.snaps.minPer < minPer {
			minPer = r.snaps.minPer
		}
		maxPer = max(maxPer, r.snaps.maxPer)
	}
	var phases []string
	for _, p := range points {
		phases = append(phases, fmt.Sprintf("%s=%d", p, st.aimed[p]))
	}
	phases = append(phases, fmt.Sprintf("random=%d", st.random))
	if st.fallback > 0 {
		phases = append(phases, fmt.Sprintf("aimed-not-reached=%d", st.fallback))
	}
	missed := ""
	if len(st.missed) > 0 {
		keys := make([]string, 0, len(st.missed))
		for k, n := range st.missed {
			keys = append(keys, fmt.Sprintf("%s=%d", k, n))
		}
		slices.Sort(keys)
		missed = " missed[" + strings.Join(keys, " ") + "]"
	}
	return fmt.Sprintf("SOAK mode=%s tables=%d rows=%d kills=%d [%s]%s runs=%d lost=%d dup=%d wrong=%d (java+pypaimon) windows=%d snapshots/window=%d..%d time=%v",
		m.name, len(results), rows, st.kills(), strings.Join(phases, " "), missed, st.runs, lost, dup, wrong, windows,
		minPer, maxPer, total.Round(time.Second))
}

// soakRun is a table's result plus its expected lines, dropped once compared.
type soakRun struct {
	tableResult
	wantLines []string
	windows   int64 // the load's estimated windows (0: input rows / --commit-rows)
}

// soakTable generates the table's input, creates it, loads it under SIGKILLs until the job finishes,
// and returns the expected rows for the oracles to compare.
func soakTable(t *testing.T, m mode, idx int, ts tableSpec, root string, pl place, sched *scheduler, st *killStats, rng *rand.Rand) soakRun {
	t.Helper()
	r := soakRun{tableResult: tableResult{name: ts.name}}
	in := filepath.Join(root, "in", ts.name)
	want, rows := generate(t, m, idx, ts, in)
	r.rows, r.expected, r.wantLines = rows, len(want), want
	createTable(t, pl, ts)
	load := loadArgs(m, pl, ts, filepath.Join(in, "*.parquet"))
	loadUnderKills(t, m, &r, load, pl.storeDir, killPlan{aimed: m.aimed[idx], random: m.random[idx]}, sched, st, rng, reachable)
	return r
}

// createTable runs `lakeload table create` for ts in pl's warehouse.
func createTable(t *testing.T, pl place, ts tableSpec) {
	t.Helper()
	create := append(append([]string{"table", "create"}, pl.tableFlags()...), "--table", soakDB+"."+ts.name)
	for _, c := range ts.columns[:ts.createColumns()] {
		create = append(create, "--column", c)
	}
	if len(ts.pk) > 0 {
		create = append(create, "--primary-key", strings.Join(ts.pk, ","))
	}
	if len(ts.part) > 0 {
		create = append(create, "--partition-key", strings.Join(ts.part, ","))
	}
	for _, o := range ts.options {
		create = append(create, "--option", o)
	}
	runToEnd(t, create)
}

// loadArgs is the `lakeload load` command of job soak loading from into ts.
func loadArgs(m mode, pl place, ts tableSpec, from string, extra ...string) []string {
	return loadJobArgs(m, pl, ts, soakJob, from, extra...)
}

// loadJobArgs is the `lakeload load` command of job loading from into ts.
func loadJobArgs(m mode, pl place, ts tableSpec, job, from string, extra ...string) []string {
	load := append(append([]string{"load"}, pl.tableFlags()...), "--table", soakDB+"."+ts.name, "--from", from,
		"--job", job, "--commit-rows", strconv.FormatInt(m.commitRows, 10), "--parallelism", strconv.Itoa(m.parallelism))
	if ts.opColumn != "" {
		load = append(load, "--op-column", ts.opColumn)
	}
	if pl.checkpoint != "" {
		load = append(load, "--checkpoint", pl.checkpoint)
	}
	return append(load, extra...)
}

// killPlan is how many kills one load gets, and which points are aimed at their first occurrence in
// a run rather than at a window (points that happen once per run or at a job's final commit only).
type killPlan struct {
	aimed, random int
	windowless    map[string]bool
	randomFirst   bool // random kills before aimed ones
	randomSoon    bool // a random kill lands within about the first window of its run (small jobs outrun one aimed at a late window)
}

// loadUnderKills runs load again and again, killing each child (aimed kills first, then random
// ones), until the kills are spent or the job finishes; then resumes it to its end and checks that
// one more run says the job already finished. r.rows must hold the load's input rows; reach tells
// which points a run can reach (reachable, or a feature's narrower version).
func loadUnderKills(t *testing.T, m mode, r *soakRun, load []string, store string, kp killPlan, sched *scheduler, st *killStats, rng *rand.Rand,
	reach func(store string) func(string) bool) {
	t.Helper()
	windows := max(r.rows/m.commitRows, 1) // about the load's windows: kills are spread over them
	if r.windows > 0 {
		windows = r.windows
	}
	_, prior := storeProgress(store) // windows published before (an incremental job's earlier generations)
	slots := kp.aimed + kp.random
	t0 := time.Now()
	done := false
	aimedLeft, randomLeft := kp.aimed, kp.random
	for slot := 0; !done && aimedLeft+randomLeft > 0; slot++ {
		// Aimed kills first (a paused child is killed for certain), then random ones: a random kill can
		// miss when the job outruns its delay, and must not cost the table its aimed kills.
		aimed := aimedLeft > 0 && !(kp.randomFirst && randomLeft > 0)
		if aimed {
			aimedLeft--
		} else {
			randomLeft--
		}
		want := prior + slotWindow(slot, slots, windows)
		assigned, _ := storeProgress(store)
		target, pause := "", ""
		var env []string
		if aimed {
			if target = sched.next(reach(store)); target != "" {
				pause = pauseSpec(target, want, assigned, prior+windows)
				if kp.windowless[target] {
					pause = target
				}
				env = append(env, "LAKELOAD_PAUSE_AT="+pause)
			}
		}
		c, err := startChild(load, env...)
		if err != nil {
			t.Fatal(err)
		}
		st.runs++
		r.runs++
		var timer <-chan time.Time
		var delay time.Duration
		if target != "" {
			timer = stalled(c, store) // a hang guard: the child pauses at its point or exits
		} else if kp.randomSoon {
			// A random moment within about the first window of work of this run, start-up included
			// (before any window was measured: within 300 ms, as small jobs take about a second).
			delay = st.randomDelay(rng)
			if st.committed == 0 {
				delay = time.Duration(rng.Int64N(int64(300 * time.Millisecond)))
			}
			timer = time.After(delay)
		} else {
			// A random moment within about one window after window want−1 is published.
			waitPublished(c, store, want-1)
			delay = st.randomDelay(rng)
			timer = time.After(delay)
		}
		killed := ""
		select {
		case <-c.paused:
			killed = target
		case <-timer:
			killed = "random"
			if target != "" {
				killed = "fallback"
			}
		case <-c.exited:
		}
		if killed != "" {
			if err := c.kill(); err != nil {
				t.Fatalf("kill: %v", err)
			}
		} else {
			<-c.exited
		}
		st.childTime += time.Since(c.started)
		st.committed += c.windowsCommitted()
		switch {
		case killed != "" && c.killedBySignal():
			r.kills++
			t.Logf("table %s kill %d: %s after %v; last log line: %s", r.name, slot+1, describeKill(killed, pause, want, delay),
				time.Since(c.started).Round(time.Millisecond), c.lastLine())
			switch killed {
			case "random":
				st.random++
			case "fallback":
				st.fallback++
				t.Errorf("table %s: the run aimed at %s made no progress for %v (a hang); killed\n%s", r.name, pause, aimHangGuard, c.output(30))
			default:
				st.aimed[killed]++
			}
		case c.exitCode() == 0:
			done = true
			if target != "" {
				st.missed[target]++
			}
			t.Logf("table %s: job finished before kill %d (aimed at %q)", r.name, slot+1, target)
		default:
			t.Fatalf("table %s: lakeload load exited %d (aimed at %q)\n%s", r.name, c.exitCode(), target, c.output(30))
		}
	}
	finishLoad(t, r, load, store, done, st, t0)
}

// finishLoad ends a table's round of kills: unless the job is done it resumes without faults until the
// job finishes, then runs once more, which must say it already finished; it records the round's load
// time (since t0) and the windows published.
func finishLoad(t *testing.T, r *soakRun, load []string, store string, done bool, st *killStats, t0 time.Time) {
	t.Helper()
	if !done {
		out := runToEnd(t, load)
		st.runs++
		r.runs++
		if !strings.Contains(out, "job "+soakJob+" finished") && !strings.Contains(out, "already finished") {
			t.Fatalf("table %s: final run did not finish the job: %s", r.name, out)
		}
	}
	if out := runToEnd(t, load); !strings.Contains(out, "already finished") {
		t.Errorf("table %s: a run after the job finished printed %q, want \"already finished\"", r.name, out)
	}
	r.loadTime += time.Since(t0)
	_, r.published = storeProgress(store)
}

func describeKill(killed, pause string, want int64, delay time.Duration) string {
	switch killed {
	case "random":
		return fmt.Sprintf("random moment (%v after window %d was published)", delay.Round(time.Millisecond), want-1)
	case "fallback":
		return "aimed at " + pause + ", not reached"
	}
	return "paused at " + pause
}

// waitPublished returns once window w of the job is published (or the child has exited).
func waitPublished(c *child, store string, w int64) {
	for {
		if _, p := storeProgress(store); p >= w {
			return
		}
		select {
		case <-c.exited:
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// runToEnd runs lakeload with args to its end; a non-zero exit fails the test. It returns stdout.
func runToEnd(t *testing.T, args []string) string {
	t.Helper()
	c, err := startChild(args)
	if err != nil {
		t.Fatal(err)
	}
	<-c.exited
	if c.exitCode() != 0 {
		t.Fatalf("lakeload %s: exit %d\n%s", strings.Join(args, " "), c.exitCode(), c.output(30))
	}
	return c.stdout.String()
}

// generate writes the table's input files under dir (deterministic: the same files on every run) and
// returns the expected final table as sorted canonical lines and the number of input rows.
func generate(t *testing.T, m mode, idx int, ts tableSpec, dir string) ([]string, int64) {
	t.Helper()
	fields, err := ts.fields()
	if err != nil {
		t.Fatal(err)
	}
	schema, err := arrowSchema(ts, fields)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	exp := newExpected(ts, fields)
	rng := rand.New(rand.NewPCG(20240101, uint64(idx)))
	for f := range m.files {
		rows := ts.gen(rng, f, m.rowsPerFile)
		if err := writeParquet(filepath.Join(dir, fmt.Sprintf("part-%03d.parquet", f)), schema, rows, m.rowGroup); err != nil {
			t.Fatalf("write input of %s: %v", ts.name, err)
		}
		if err := exp.apply(rows); err != nil {
			t.Fatalf("expected state of %s: %v", ts.name, err)
		}
	}
	want, err := exp.canonicalLines()
	if err != nil {
		t.Fatal(err)
	}
	return want, exp.rows
}
