package killsoak

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/oracle"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/source"
	"github.com/lakeload/lakeload/source/file"
)

// feature is one soak of a load feature: a table, the extra `lakeload load` flags, the kills, and the
// checks beyond "Java and pypaimon read the model". A new feature is one entry of features.
type feature struct {
	name  string
	table func(m mode) tableSpec
	args  []string // extra `lakeload load` flags
	// kills: aimed and random, in `go test` (short) and `make soak` (long)
	short, long killPlan
	first       []string // points aimed at first (then the cycle of every point)
	randomFirst bool     // random kills before the aimed ones (not when a first point happens once per job)
	firstLong   []string // first in the long run (nil: first)
	windowless  []string // points aimed at their first occurrence in a run, not at a window
	avoid       []string // points a run of this feature may never reach (never aimed at)
	// resize adapts the feature mode's sizes to the feature (nil: as they are).
	resize func(m mode) mode
	// setup runs after the table is created and before the soaked load's input is written
	// (overwrite: the old rows; incremental: the first generation).
	setup func(t *testing.T, e *featureEnv)
	// want is the expected table (nil: the model of every input row, e.exp).
	want func(t *testing.T, e *featureEnv) []string
	// snapshots checks the table's snapshots (nil: one APPEND snapshot per window, as TestKillSoak).
	snapshots func(t *testing.T, e *featureEnv, snaps []map[string]any)
	// check runs last, for what the feature promises besides the rows.
	check func(t *testing.T, e *featureEnv)
}

// featureEnv is one feature soak's state, shared by its hooks.
type featureEnv struct {
	m          mode
	ts         tableSpec
	fields     []spec.DataField
	pl         place
	in         string // the soaked load's input directory
	tablePath  string // the table as a local directory
	exp        *expected
	rng        *rand.Rand // input generator
	first      int        // first input file of the soaked load (setup may load earlier ones)
	bad        []badRow   // bad rows of the soaked load's input
	run        soakRun
	java, py   *oracle.Client
	old        map[string][]string // overwrite: partition → its rows before the overwrite
	baseWindow int64               // overwrite: windows of the job that loaded the old rows
	notes      []string            // feature-specific results for the summary
}

// features are the feature soaks, in order. Points with no kill in a feature's short run are listed
// in its log; every feature must land its aimed kills (see TestKillSoakFeatures).
var features = []feature{
	{name: "dynbucket", table: dynUsersTable,
		short: killPlan{aimed: 4, random: 1}, long: killPlan{aimed: 10, random: 4}, randomFirst: true,
		first: []string{job.PointAssigned, job.PointInsideCommit, job.PointAfterCommit, job.PointRecoveryAction},
		check: checkDynamicBuckets},
	{name: "evolve", table: evolvedUsersTable, args: []string{"--evolve-schema", "add-columns"},
		short: killPlan{aimed: 3, random: 1}, long: killPlan{aimed: 10, random: 4},
		first: []string{job.PointSchemaEvolved, job.PointInsideCommit, job.PointRecoveryAction}, windowless: []string{job.PointSchemaEvolved},
		check: checkEvolvedSchema},
	{name: "quarantine", table: quarantineTotalsTable, args: []string{"--bad-rows", "quarantine"}, resize: textSizes,
		short: killPlan{aimed: 3, random: 1}, long: killPlan{aimed: 10, random: 4}, randomFirst: true,
		first: []string{job.PointResultStored, job.PointInsideCommit, job.PointRecoveryAction},
		check: checkQuarantine},
	{name: "overwrite", table: overwriteEventsTable, args: []string{"--overwrite", "partitions"},
		short: killPlan{aimed: 4, random: 1}, long: killPlan{aimed: 10, random: 4}, randomFirst: true,
		first:      []string{job.PointTaskWritten, job.PointInsideCommit, job.PointAfterCommit, job.PointBeforePublish},
		windowless: []string{job.PointBeforeCommit, job.PointInsideCommit, job.PointAfterCommit, job.PointBeforePublish, job.PointAfterPublish},
		// the final commit ends the job: in the long run the window points come first
		firstLong: []string{job.PointAssigned, job.PointTaskWritten, job.PointResultStored, job.PointAssigned, job.PointTaskWritten,
			job.PointResultStored, job.PointBeforeCommit, job.PointInsideCommit, job.PointAfterCommit, job.PointBeforePublish},
		avoid: []string{job.PointRecoveryAction, job.PointPlanned},
		setup: overwriteSetup, want: overwriteWant, snapshots: overwriteSnapshots},
	{name: "incremental", table: incrementalUsersTable, args: []string{"--incremental"},
		short: killPlan{aimed: 3, random: 1}, long: killPlan{aimed: 10, random: 4},
		first: []string{job.PointGenerationStarted, job.PointInsideCommit, job.PointRecoveryAction}, windowless: []string{job.PointGenerationStarted},
		avoid: []string{job.PointPlanned},
		setup: incrementalSetup},
}

// featureMode sizes the feature soaks: small tables in `go test`, ≥ 1M input rows per table with
// LAKELOAD_SOAK=long.
func featureMode() mode {
	if currentMode().name == "long" {
		return mode{name: "features-long", files: 16, rowsPerFile: 65_536, rowGroup: 8_192, commitRows: 32_768,
			parallelism: 2, keys: 20_000}
	}
	return mode{name: "features-short", files: 4, rowsPerFile: 5_000, rowGroup: 1_250, commitRows: 2_500,
		parallelism: 2, keys: 2_000}
}

// TestKillSoakFeatures is the kill -9 soak of the load features (one subtest per entry of
// features): the same kills, resumes and oracle comparison as TestKillSoak, plus each feature's
// own invariants.
func TestKillSoakFeatures(t *testing.T) {
	if testing.Short() {
		t.Skip("the feature kill -9 soaks take about 20 s; run without -short")
	}
	m := featureMode()
	java, py := oracle.Java(t), oracle.Py(t)
	seed := soakSeed(t)
	t.Logf("mode %s, kill-timing seed %d", m.name, seed)
	rng := rand.New(rand.NewPCG(seed, 0xfea7))
	root := t.TempDir()
	for _, f := range features {
		t.Run(f.name, func(t *testing.T) {
			st := &killStats{aimed: map[string]int{}, missed: map[string]int{}}
			t0 := time.Now()
			e := soakFeature(t, m, f, filepath.Join(root, f.name), st, rng, java, py)
			kp := f.short
			if m.name == "features-long" {
				kp = f.long
			}
			var lost, dup, wrong int
			for _, d := range []diff{e.run.java, e.run.py} {
				lost, dup, wrong = lost+d.lost, dup+d.dup, wrong+d.wrong
			}
			var phases []string
			for _, p := range append(append([]string(nil), points...), extraPoints...) {
				if st.aimed[p] > 0 {
					phases = append(phases, fmt.Sprintf("%s=%d", p, st.aimed[p]))
				}
			}
			phases = append(phases, fmt.Sprintf("random=%d", st.random))
			if st.fallback > 0 {
				phases = append(phases, fmt.Sprintf("aimed-not-reached=%d", st.fallback))
			}
			t.Logf("SOAK feature=%s mode=%s rows=%d expected=%d kills=%d [%s] runs=%d lost=%d dup=%d wrong=%d (java+pypaimon) windows=%d %s load=%v check=%v time=%v",
				f.name, m.name, e.run.rows, e.run.expected, st.kills(), strings.Join(phases, " "), st.runs, lost, dup, wrong,
				e.run.published, strings.Join(e.notes, " "), e.run.loadTime.Round(time.Millisecond), e.run.checkTime.Round(time.Millisecond),
				time.Since(t0).Round(time.Millisecond))
			if st.kills() < kp.aimed {
				t.Errorf("feature %s: %d kills landed (missed %v), want ≥ %d", f.name, st.kills(), st.missed, kp.aimed)
			}
			for _, p := range f.first {
				if st.aimed[p] == 0 && kp.aimed >= len(f.first) {
					t.Errorf("feature %s: no kill landed at %s (missed %v)", f.name, p, st.missed)
				}
			}
		})
	}
}

// extraPoints are the feature points outside the base protocol's points.
var extraPoints = []string{job.PointSchemaEvolved, job.PointGenerationStarted}

// soakSeed is LAKELOAD_SOAK_SEED, else the clock.
func soakSeed(t *testing.T) uint64 {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("LAKELOAD_SOAK_SEED"); s != "" {
		if _, err := fmt.Sscan(s, &seed); err != nil {
			t.Fatalf("LAKELOAD_SOAK_SEED=%q: %v", s, err)
		}
	}
	return seed
}

// soakFeature creates f's table, runs its setup, writes the soaked load's input, loads it under
// SIGKILLs and checks the result.
func soakFeature(t *testing.T, m mode, f feature, root string, st *killStats, rng *rand.Rand, java, py *oracle.Client) *featureEnv {
	if f.resize != nil {
		m = f.resize(m)
	}
	ts := f.table(m)
	fields, err := ts.fields()
	if err != nil {
		t.Fatal(err)
	}
	wh := filepath.Join(root, "wh")
	h := fnv.New64a()
	h.Write([]byte(f.name))
	e := &featureEnv{m: m, ts: ts, fields: fields, pl: localPlace(wh, ts.name), in: filepath.Join(root, "in"),
		tablePath: filepath.Join(wh, soakDB+".db", ts.name), exp: newExpected(ts, fields),
		rng: rand.New(rand.NewPCG(20240101, h.Sum64())), java: java, py: py}
	e.run.name = ts.name
	createTable(t, e.pl, ts)
	if f.setup != nil {
		f.setup(t, e)
	}
	before := e.exp.rows
	e.bad = writeInput(t, m, ts, fields, e.rng, e.in, e.first, m.files, e.exp)
	e.run.rows = e.exp.rows - before + int64(len(e.bad))
	kp := f.short
	if m.name == "features-long" {
		kp = f.long
	}
	// Random kills first only in the long run: a short job on an idle machine can finish within the
	// first random delay, and then the aimed kills (which must all land) would find nothing to kill.
	kp.randomFirst, kp.randomSoon = f.randomFirst && m.name == "features-long", true
	e.run.windows = estimateWindows(t, e.in, e.first, m)
	kp.windowless = map[string]bool{}
	for _, p := range f.windowless {
		kp.windowless[p] = true
	}
	first := f.first
	if m.name == "features-long" && f.firstLong != nil {
		first = f.firstLong
	}
	sched := &featureScheduler{scheduler: scheduler{queue: append([]string(nil), first...)}, avoid: f.avoid}
	load := loadArgs(m, e.pl, ts, filepath.Join(e.in, "part-*"), f.args...)
	loadUnderKills(t, m, &e.run, load, e.pl.storeDir, kp, &sched.scheduler, st, rng, sched.reachable)

	var want []string
	if f.want != nil {
		want = f.want(t, e)
	} else if want, err = e.exp.canonicalLines(); err != nil {
		t.Fatal(err)
	}
	e.run.expected = len(want)
	c0 := time.Now()
	e.run.java = compareLines(want, java.Read(e.tablePath, oracle.ReadOpts{}))
	e.run.py = compareLines(want, py.Read(e.tablePath, oracle.ReadOpts{}))
	for _, d := range []struct {
		who string
		d   diff
	}{{"java", e.run.java}, {"pypaimon", e.run.py}} {
		if !d.d.ok() {
			t.Errorf("feature %s read by %s: %v; samples:\n%s", f.name, d.who, d.d, strings.Join(d.d.samples, "\n"))
		}
	}
	snaps := java.Snapshots(e.tablePath)
	if f.snapshots != nil {
		f.snapshots(t, e, snaps)
	} else {
		r := checkSnapshots(snaps)
		e.notes = append(e.notes, fmt.Sprintf("snapshots/window=%d..%d", r.minPer, r.maxPer))
		if len(r.problems) > 0 || int64(r.windows) != e.run.published || len(r.users) != 1 {
			t.Errorf("feature %s snapshots: %d windows (the job published %d), commit users %v, problems: %v",
				f.name, r.windows, e.run.published, r.users, r.problems)
		}
	}
	if f.check != nil {
		f.check(t, e)
	}
	e.run.checkTime = time.Since(c0)
	return e
}

// featureScheduler is the scheduler with points a feature's runs never reach taken out.
type featureScheduler struct {
	scheduler
	avoid []string
}

func (s *featureScheduler) reachable(store string) func(string) bool {
	r := reachable(store)
	return func(p string) bool {
		for _, a := range s.avoid {
			if a == p {
				return false
			}
		}
		return r(p)
	}
}

// textSizes is for CSV and JSON Lines input: four times the files, a quarter of the rows each, and
// windows of fewer rows, so the job still has several windows to kill (text files were one split
// each until they were cut into byte ranges; the sizes stayed).
func textSizes(m mode) mode {
	m.files *= 4
	m.rowsPerFile /= 4
	m.commitRows = m.commitRows * 2 / 5
	return m
}

// estimateWindows is the soaked load's windows as lakeload sizes them: the rows of the splits it
// plans (Parquet exactly, text files cut into byte ranges exactly, other text files at 64 bytes a
// row: job.EstimatedRows), over --commit-rows.
func estimateWindows(t *testing.T, dir string, first int, m mode) int64 {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	splitRows := max(m.commitRows/int64(max(2*m.parallelism, 1)), 1024) // job's splitRows
	var rows int64
	for _, en := range ents {
		var f int
		if _, err := fmt.Sscanf(en.Name(), "part-%d.", &f); err != nil || f < first {
			continue
		}
		if strings.HasSuffix(en.Name(), ".parquet") {
			rows += int64(m.rowsPerFile)
			continue
		}
		whole, err := file.PlanWith(context.Background(), local.New(), filepath.Join(dir, en.Name()), "", source.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		splits, err := file.CutText(context.Background(), local.New(), whole[0], splitRows)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range splits {
			rows += job.EstimatedRows(s)
		}
	}
	return max(rows/m.commitRows, 1)
}
