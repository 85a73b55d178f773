package killsoak

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/lakeload/lakeload/internal/oracle"
)

// The pause soak's checks: after every step (snapshots, pins, status) and at the end of a table (Java
// and pypaimon against the model, the snapshot history per job), and the summary line.

// observe lists the table's snapshots and checks them against every listing before (no id reused,
// the latest never moves back) and the jobs' pins against the earliest snapshot (and, with no runner
// alive, that finished jobs have none).
func (p *pauseTable) observe(step string) {
	t := p.t
	t.Helper()
	out := runToEnd(t, []string{"snapshots", "--warehouse", p.wh, "--table", soakDB + "." + p.ts.name, "--output", "jsonl"})
	list, err := parseSnapshots(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range p.hist.add(step, list) {
		p.st.reused++
		t.Errorf("table %s: %s", p.ts.name, pr)
	}
	for _, j := range p.jobs {
		if pr := pinProblem(p.path, j.name, j.done && len(p.live) == 0, earliest(list)); pr != "" {
			p.st.stalePins++
			p.remember(step, list)
			t.Errorf("table %s after %s: %s\nthe last observations:\n%s", p.ts.name, step, pr, strings.Join(p.trace, "\n"))
			return
		}
	}
	p.remember(step, list)
}

// snapshotFiles is the range of snapshot files in the table's snapshot directory ("a..b", with gaps).
func (p *pauseTable) snapshotFiles() string {
	ents, _ := os.ReadDir(filepath.Join(p.path, "snapshot"))
	var ids []int64
	for _, e := range ents {
		var id int64
		if _, err := fmt.Sscanf(e.Name(), "snapshot-%d", &id); err == nil {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	if len(ids) == 0 {
		return "none"
	}
	gaps := ""
	if n := ids[len(ids)-1] - ids[0] + 1; n != int64(len(ids)) {
		gaps = fmt.Sprintf(" (%d missing)", n-int64(len(ids)))
	}
	return fmt.Sprintf("%d..%d%s", ids[0], ids[len(ids)-1], gaps)
}

// hint is the content of a snapshot hint file (EARLIEST, LATEST), "-" when absent.
func (p *pauseTable) hint(name string) string {
	b, err := os.ReadFile(filepath.Join(p.path, "snapshot", name))
	if err != nil {
		return "-"
	}
	return strings.TrimSpace(string(b))
}

// remember keeps a line about this observation: the newest snapshots and the current job's pin.
func (p *pauseTable) remember(step string, list []snapRec) {
	var b strings.Builder
	fmt.Fprintf(&b, "after %s: listed %d..%d, files %s, EARLIEST %s", step, earliest(list), p.hist.maxID, p.snapshotFiles(), p.hint("EARLIEST"))
	if len(p.jobs) > 0 {
		j := p.jobs[len(p.jobs)-1]
		if next, ok, _ := consumerPin(p.path, j.name); ok {
			fmt.Fprintf(&b, ", pin %d", next)
		} else {
			b.WriteString(", no pin")
		}
		a, pub := storeProgress(j.store)
		fmt.Fprintf(&b, ", windows assigned %d published %d", a, pub)
	}
	for _, s := range list[max(len(list)-4, 0):] {
		fmt.Fprintf(&b, " | %d %s", s.ID, s)
	}
	p.trace = append(p.trace, b.String())
	if len(p.trace) > 16 {
		p.trace = p.trace[1:]
	}
}

// status is `lakeload status --output json` of j (zero before the job exists).
func (p *pauseTable) status(j *pauseJob) jobStatus {
	c, err := startChild([]string{"status", "--warehouse", p.wh, "--table", soakDB + "." + p.ts.name, "--job", j.name, "--output", "json"})
	if err != nil {
		p.t.Fatal(err)
	}
	<-c.exited
	var st jobStatus
	if c.exitCode() != 0 {
		if fileExists(filepath.Join(j.store, "job.json")) {
			p.t.Fatalf("status of job %s: exit %d\n%s", j.name, c.exitCode(), c.output(10))
		}
		return st
	}
	if err := json.Unmarshal(c.stdout.Bytes(), &st); err != nil {
		p.t.Fatalf("status --output json of job %s: %v", j.name, err)
	}
	return st
}

// pauseResult is one table's verification.
type pauseResult struct {
	name       string
	rows       int64 // input rows
	foreign    int64 // rows of the other writer
	expected   int
	jobs       int
	windows    int64
	snapshots  int // snapshots ever seen
	java, py   diff
	problems   []string
	took, test time.Duration
}

// verify reads the table with Java Paimon and pypaimon and compares both with the model, checks
// every job's windows against the snapshot history (one APPEND snapshot of the job's commit user
// per window) and Java's listing against the history.
func (p *pauseTable) verify(java, py *oracle.Client) pauseResult {
	t := p.t
	t.Helper()
	c0 := time.Now()
	want, err := p.exp.canonicalLines()
	if err != nil {
		t.Fatal(err)
	}
	r := pauseResult{name: p.ts.name, rows: p.inputRows, foreign: p.foreignRowsWritten, expected: len(want), jobs: len(p.jobs),
		snapshots: len(p.hist.byID), took: p.took}
	r.java = compareLines(want, java.Read(p.path, oracle.ReadOpts{}))
	r.py = compareLines(want, py.Read(p.path, oracle.ReadOpts{}))
	jobUsers := map[string]bool{}
	for _, j := range p.jobs {
		r.windows += j.windows
		jobUsers[j.user] = true
		r.problems = append(r.problems, p.hist.windowProblems(j.user, j.windows)...)
	}
	others := 0
	for user, n := range p.hist.usersOf() {
		if !jobUsers[user] {
			others++
			if n != 1 {
				r.problems = append(r.problems, fmt.Sprintf("commit user %s (not a job's) has %d APPEND snapshots; each write commits one", user, n))
			}
		}
	}
	if others != p.writes {
		r.problems = append(r.problems, fmt.Sprintf("%d commit users besides the jobs', want one per write (%d)", others, p.writes))
	}
	for _, s := range java.Snapshots(p.path) {
		id, _ := s["id"].(int64)
		h, ok := p.hist.byID[id]
		if !ok || h.User != s["commitUser"] || h.Kind != s["commitKind"] || h.Identifier != s["commitIdentifier"] {
			r.problems = append(r.problems, fmt.Sprintf("Java lists snapshot %d as %v/%v/%v, the history has %v", id, s["commitKind"], s["commitUser"], s["commitIdentifier"], h))
		}
	}
	sort.Strings(r.problems)
	r.test = time.Since(c0)
	t.Logf("table %-6s jobs %d, rows %d + %d written by another writer -> %d expected | pauses %d [%s] | java %v | py %v | %d windows, %d snapshots seen | load %v, check %v",
		r.name, r.jobs, r.rows, r.foreign, r.expected, p.pauses, counts(p.outcomes), r.java, r.py, r.windows, r.snapshots, r.took.Round(time.Millisecond), r.test.Round(time.Millisecond))
	for _, d := range []struct {
		who string
		d   diff
	}{{"java", r.java}, {"pypaimon", r.py}} {
		if !d.d.ok() {
			t.Errorf("table %s read by %s: %v; samples:\n%s", r.name, d.who, d.d, strings.Join(d.d.samples, "\n"))
		}
	}
	for _, pr := range r.problems {
		t.Errorf("table %s snapshots: %s", r.name, pr)
	}
	return r
}

// pauseStats counts what the pause soak did, over all tables.
type pauseStats struct {
	byTable    map[string]int // pauses per table
	byPoint    map[string]int // pauses per hook point ("random": a SIGSTOP of the harness)
	byRole     map[string]int // A (the round's runner), B (a takeover), again (a resumed runner stopped again)
	outcomes   map[string]int // what a paused runner did next: exit-0, exit-6, killed, stopped-again
	world      map[string]int // takeover-end/kill/pause, write, expire, nothing
	rounds     int
	runs       int // lakeload processes
	notReached int // aimed runners that hung (no progress for aimHangGuard): stopped there, and the soak fails
	reused     int // snapshot ids reused / latest moved back
	vanished   int // runners that failed on a file an expiry removed while they were stopped (exit 1)
	stalePins  int
	childTime  time.Duration // running time of the load runners (their stops left out)
	committed  int           // their "window committed" lines
}

func newPauseStats() *pauseStats {
	return &pauseStats{byTable: map[string]int{}, byPoint: map[string]int{}, byRole: map[string]int{},
		outcomes: map[string]int{}, world: map[string]int{}}
}

func (s *pauseStats) pause(table, kind, role string, again bool) {
	s.byTable[table]++
	s.byPoint[kind]++
	if again {
		role = "again"
	}
	s.byRole[role]++
}

func (s *pauseStats) total() int {
	n := 0
	for _, v := range s.byTable {
		n += v
	}
	return n
}

// randomDelay is a random moment within about one window of work, start-up included.
func (s *pauseStats) randomDelay(rng *rand.Rand) time.Duration {
	perWindow := time.Second
	if s.committed > 0 {
		perWindow = s.childTime / time.Duration(s.committed)
	}
	return time.Duration(rng.Int64N(int64(100*time.Millisecond + perWindow)))
}

// summary is the one-line result `make soak` prints.
func (s *pauseStats) summary(pm pauseMode, results []pauseResult, took time.Duration) string {
	var rows, foreign int64
	var lost, dup, wrong, problems, snaps int
	var windows int64
	for _, r := range results {
		rows, foreign, windows, snaps = rows+r.rows, foreign+r.foreign, windows+r.windows, snaps+r.snapshots
		for _, d := range []diff{r.java, r.py} {
			lost, dup, wrong = lost+d.lost, dup+d.dup, wrong+d.wrong
		}
		problems += len(r.problems)
	}
	return fmt.Sprintf("SOAK mode=%s tables=%d rows=%d foreign-rows=%d pauses=%d tables[%s] points[%s] roles[%s] outcomes[%s] world[%s] rounds=%d runs=%d lost=%d dup=%d wrong=%d (java+pypaimon) windows=%d snapshots=%d snapshot-problems=%d reused-ids=%d stale-pins=%d vanished-reads=%d time=%v",
		pm.name, len(results), rows, foreign, s.total(), counts(s.byTable), counts(s.byPoint), counts(s.byRole), counts(s.outcomes),
		counts(s.world), s.rounds, s.runs, lost, dup, wrong, windows, snaps, problems, s.reused, s.stalePins, s.vanished, took.Round(time.Second))
}

// counts renders a map as sorted key=value pairs.
func counts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%d", k, m[k])
	}
	return strings.Join(parts, " ")
}
