package killsoak

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lakeload/lakeload/internal/oracle"
)

// pauseMode sizes one pause soak run.
type pauseMode struct {
	name        string
	pauses      int // pauses per table, at least (the job in progress then runs to its end)
	maxJobs     int // jobs per table at most; each loads input files new to the table
	filesPerJob int
	rowsPerFile int
	rowGroup    int
	commitRows  int64
	parallelism int
	keys        int // distinct keys of the aggregation table's input
}

var (
	pauseShort = pauseMode{name: "pause-short", pauses: 8, maxJobs: 4, filesPerJob: 2, rowsPerFile: 4_000, rowGroup: 250,
		commitRows: 500, parallelism: 2, keys: 2_000}
	pauseLong = pauseMode{name: "pause-long", pauses: 36, maxJobs: 20, filesPerJob: 4, rowsPerFile: 16_384, rowGroup: 2_048,
		commitRows: 4_096, parallelism: 2, keys: 20_000}
)

func currentPauseMode() pauseMode {
	if os.Getenv("LAKELOAD_SOAK") == "long" {
		return pauseLong
	}
	return pauseShort
}

// loadMode is the mode loadArgs takes.
func (pm pauseMode) loadMode() mode {
	return mode{name: pm.name, commitRows: pm.commitRows, parallelism: pm.parallelism}
}

// TestPauseSoak is the pause soak (issue 13, "the proof gets time"): runners of `lakeload load` are
// stopped with SIGSTOP at every hook point in turn and at random moments, the world moves on
// (takeovers, other writers' commits, snapshot expiry), and then they get SIGCONT. See doc.go.
func TestPauseSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("the pause soak takes about a minute; run without -short (or `make soak` for the long one)")
	}
	pm := currentPauseMode()
	java, py := oracle.Java(t), oracle.Py(t) // skip (or fail under CI) before any work when missing
	seed := soakSeed(t)
	t.Logf("mode %s, schedule seed %d (LAKELOAD_SOAK_SEED repeats the schedule, not the timing); binary built in %v",
		pm.name, seed, buildTime.Round(time.Millisecond))
	rng := rand.New(rand.NewPCG(seed, 0x9a05e))
	root := t.TempDir()
	st := newPauseStats()
	sched := &scheduler{}
	t0 := time.Now()
	var results []pauseResult
	for i, ts := range soakTables(mode{keys: pm.keys}) {
		p := newPauseTable(t, pm, i, ts, filepath.Join(root, "wh"), filepath.Join(root, "in", ts.name), rng, sched, st)
		p.soak()
		results = append(results, p.verify(java, py))
	}
	t.Log(st.summary(pm, results, time.Since(t0)))
	if pm.name == pauseLong.name {
		if n := st.total(); n < 100 {
			t.Errorf("long pause soak: %d pauses, want ≥ 100", n)
		}
		for _, pt := range points {
			if st.byPoint[pt] == 0 {
				t.Errorf("no runner was paused at %s; the schedule must cover every point", pt)
			}
		}
	}
}

// pauseTable is one table of the pause soak: its jobs, the model of its rows, and every snapshot seen.
type pauseTable struct {
	t      *testing.T
	pm     pauseMode
	ts     tableSpec
	schema *arrow.Schema
	wh, in string
	path   string // the table's directory
	exp    *expected
	gen    *rand.Rand // the input generator (deterministic)
	rng    *rand.Rand // the schedule
	sched  *scheduler
	st     *pauseStats
	hist   *snapHistory
	jobs   []*pauseJob
	live   []*runner // runners not reaped yet (stopped ones included)
	pauses int

	writes             int     // `lakeload write` commits of the other writer
	foreignNext        int64   // next id of the other writer's rows
	foreignLive        []int64 // deduplicate table: the other writer's keys present
	foreignRowsWritten int64
	inputRows          int64
	took               time.Duration
	outcomes           map[string]int // this table's share of pauseStats.outcomes
	trace              []string       // the last observations (step, snapshots, pins), for findings
}

// pauseJob is one load job of a table.
type pauseJob struct {
	name    string
	load    []string
	store   string
	rows    int64 // input rows
	windows int64 // about rows / --commit-rows
	done    bool
	user    string // its commit user, from status
}

func newPauseTable(t *testing.T, pm pauseMode, idx int, ts tableSpec, wh, in string, rng *rand.Rand, sched *scheduler, st *pauseStats) *pauseTable {
	fields, err := ts.fields()
	if err != nil {
		t.Fatal(err)
	}
	schema, err := arrowSchema(ts, fields)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{in, filepath.Join(in, "foreign")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p := &pauseTable{t: t, pm: pm, ts: ts, schema: schema, wh: wh, in: in, path: filepath.Join(wh, soakDB+".db", ts.name),
		exp: newExpected(ts, fields), gen: rand.New(rand.NewPCG(20241213, uint64(idx))), rng: rng, sched: sched, st: st,
		hist: newSnapHistory(), outcomes: map[string]int{}}
	t.Cleanup(func() { // a failed run leaves no stopped process behind
		for _, r := range p.live {
			_ = r.cmd.Process.Kill()
		}
	})
	createTable(t, place{wh: wh}, ts)
	return p
}

// soak runs jobs, each loading new files of the table, round after round until the table had its
// pauses; the job in progress then runs to its end.
func (p *pauseTable) soak() {
	t0 := time.Now()
	for g := 1; p.pauses < p.pm.pauses && g <= p.pm.maxJobs; g++ {
		j := p.newJob(g)
		for round := 1; !j.done && p.pauses < p.pm.pauses; round++ {
			p.round(j, round)
			j.done = p.status(j).Done
		}
		p.finishJob(j)
	}
	p.took = time.Since(t0)
}

// newJob writes the next files of the table's input and returns the job that loads them.
func (p *pauseTable) newJob(g int) *pauseJob {
	t := p.t
	name := fmt.Sprintf("%s-%d", soakJob, g)
	dir := filepath.Join(p.in, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	j := &pauseJob{name: name, store: jobStore(p.wh, soakDB, p.ts.name, name)}
	for f := range p.pm.filesPerJob {
		rows := p.ts.gen(p.gen, (g-1)*p.pm.filesPerJob+f, p.pm.rowsPerFile)
		if err := writeParquet(filepath.Join(dir, fmt.Sprintf("part-%03d.parquet", f)), p.schema, rows, p.pm.rowGroup); err != nil {
			t.Fatal(err)
		}
		if err := p.exp.apply(rows); err != nil {
			t.Fatal(err)
		}
		j.rows += int64(len(rows))
	}
	p.inputRows += j.rows
	j.windows = max(j.rows/p.pm.commitRows, 1)
	j.load = loadJobArgs(p.pm.loadMode(), place{wh: p.wh}, p.ts, name, filepath.Join(dir, "*.parquet"))
	p.jobs = append(p.jobs, j)
	return j
}

// round is one pause of a fresh runner A: start it, stop it (at the next hook point of the cycle, or
// at a random moment), let the world move on, resume every stopped runner one at a time.
func (p *pauseTable) round(j *pauseJob, round int) {
	p.st.rounds++
	assigned, published := storeProgress(j.store)
	spec := ""
	if p.rng.IntN(100) < 60 {
		if pt := p.sched.next(reachable(j.store)); pt != "" {
			spec = pauseSpec(pt, assigned+1+p.rng.Int64N(2), assigned, j.windows)
		}
	}
	a := p.start(j.load, "A", spec)
	kind, ok := p.bringToStop(j, a, published+1+p.rng.Int64N(2))
	if !ok {
		p.logf(j, "round %d: A (pid %d) ended before its stop (%s)", round, a.pid(), describeStop("random", spec))
		p.ended(j, a, mayRun, -1)
		return
	}
	p.logf(j, "round %d: A (pid %d) %s; its last log line: %s", round, a.pid(), describeStop(kind, spec), a.lastLine())
	p.stopped(j, a, kind)
	stopped := []*runner{a}
	acts := p.worldPlan()
	if len(acts) == 0 {
		p.st.world["nothing"]++
	}
	for _, act := range acts {
		if r := p.act(j, act); r != nil {
			stopped = append(stopped, r)
		}
	}
	p.rng.Shuffle(len(stopped), func(i, k int) { stopped[i], stopped[k] = stopped[k], stopped[i] })
	for _, r := range stopped {
		p.resume(j, r)
	}
}

// act does one thing of the world plan and observes the table after it; a takeover that was stopped
// part-way is returned (to be resumed with the others).
func (p *pauseTable) act(j *pauseJob, act string) *runner {
	var stopped *runner
	switch act {
	case actTakeover:
		stopped = p.takeover(j)
	case actWrite:
		p.foreignWrite()
		p.st.world[actWrite]++
		p.logf(j, "  another writer commits")
	case actExpire:
		for _, r := range p.live {
			if procState(r.pid()) == 'T' {
				r.expired = true
			}
		}
		p.expire()
		p.st.world[actExpire]++
		p.logf(j, "  expire --retain-min 1 --older-than 0s")
	}
	p.observe(act)
	return stopped
}

// takeover runs the job with --takeover while other runners are stopped: to its end, killed
// part-way (at a hook point or a random moment), or itself stopped part-way.
func (p *pauseTable) takeover(j *pauseJob) *runner {
	fate := []string{"end", "kill", "kill", "pause", "pause", "pause"}[p.rng.IntN(6)]
	spec := ""
	if fate != "end" && p.rng.IntN(2) == 0 {
		assigned, _ := storeProgress(j.store)
		if pt := p.sched.next(reachable(j.store)); pt != "" {
			spec = pauseSpec(pt, assigned+1+p.rng.Int64N(2), assigned, j.windows)
		}
	}
	_, published := storeProgress(j.store)
	b := p.start(append(slices.Clone(j.load), "--takeover"), "B", spec)
	p.st.world["takeover-"+fate]++
	if fate == "end" {
		<-b.exited
		p.logf(j, "  takeover B (pid %d) runs to its end", b.pid())
		p.ended(j, b, mayRun, -1)
		return nil
	}
	kind, ok := p.bringToStop(j, b, published+1+p.rng.Int64N(2))
	if !ok {
		p.logf(j, "  takeover B (pid %d) ended before its %s", b.pid(), fate)
		p.ended(j, b, mayRun, -1)
		return nil
	}
	if fate == "kill" {
		p.logf(j, "  takeover B (pid %d) killed, %s", b.pid(), describeStop(kind, spec))
		p.kill(b)
		return nil
	}
	p.logf(j, "  takeover B (pid %d) %s", b.pid(), describeStop(kind, spec))
	p.stopped(j, b, kind)
	return b
}

// finding fails the test: the table's job cannot go on meaningfully after one.
func (p *pauseTable) finding(j *pauseJob, format string, args ...any) {
	p.t.Helper()
	p.t.Fatalf("table %s job %s: "+format+"\nthe last observations:\n%s", append([]any{p.ts.name, j.name}, append(args, strings.Join(p.trace, "\n"))...)...)
}

// finishJob resumes the job to its end with the same command, checks that one more run says it
// already finished, that status is true and that the job's pin is gone.
func (p *pauseTable) finishJob(j *pauseJob) {
	t := p.t
	t.Helper()
	if !j.done {
		out := runToEnd(t, j.load)
		p.st.runs++
		if !strings.Contains(out, "job "+j.name+" finished") && !strings.Contains(out, "already finished") {
			t.Fatalf("table %s: the final run did not finish job %s: %s", p.ts.name, j.name, out)
		}
	}
	if out := runToEnd(t, j.load); !strings.Contains(out, "already finished") {
		t.Errorf("table %s: a run after job %s finished printed %q, want \"already finished\"", p.ts.name, j.name, out)
	}
	p.st.runs++
	j.done = true
	st := p.status(j)
	j.user = st.CommitUser
	var published int64
	for _, w := range st.Windows {
		if w.State == "published" {
			published++
		}
	}
	if !st.Done || st.RowsPublished != j.rows || st.SplitsDone != st.SplitsTotal || published != int64(len(st.Windows)) {
		t.Errorf("table %s job %s status: done %v, %d rows published (input %d), splits %d/%d, %d of %d windows published",
			p.ts.name, j.name, st.Done, st.RowsPublished, j.rows, st.SplitsDone, st.SplitsTotal, published, len(st.Windows))
	}
	j.windows = int64(len(st.Windows))
	p.observe("job " + j.name + " finished")
	p.logf(j, "finished: %d windows, %d rows", j.windows, j.rows)
}

func (p *pauseTable) logf(j *pauseJob, format string, args ...any) {
	p.t.Helper()
	p.t.Logf("%s/%s "+format, append([]any{p.ts.name, j.name}, args...)...)
}
