package killsoak

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lakeload/lakeload/internal/oracle"
	"github.com/lakeload/lakeload/internal/resttest"
	"github.com/lakeload/lakeload/job"
)

// restKinds are the kills of the REST soak, in the order each table's aimed kills cycle through
// them: inside the commit request first (held by the proxy: dropped, acted on late, acted on with
// the answer lost), then the protocol's points around the commit (LAKELOAD_PAUSE_AT, and
// LAKELOAD_CRASH_AT at inside-commit, where the child kills itself).
var restKinds = []string{
	holdAnswer, holdDropped, job.PointInsideCommit, holdLate, crashInsideCommit,
	job.PointAfterCommit, job.PointRecoveryAction, job.PointBeforePublish, job.PointAfterPublish,
}

// crashInsideCommit is LAKELOAD_CRASH_AT=inside-commit:W: the child SIGKILLs itself right before its
// commit request.
const crashInsideCommit = "crash-inside-commit"

// restMode sizes the REST soak: in `go test` the append table and the partitioned deduplicate table
// (4 files of 12,500 rows, 8 windows each), every kill kind at least once; with LAKELOAD_SOAK=long
// (`make soak`, `make soak-rest`) the long mode's sizes over all three tables, 36 kills.
func restMode() mode {
	if currentMode().name == "long" {
		m := longMode
		m.name = "rest-long"
		m.aimed, m.random = []int{9, 9, 9}, []int{3, 3, 3}
		return m
	}
	return mode{name: "rest-short", files: 4, rowsPerFile: 12_500, rowGroup: 3_125, commitRows: 6_250,
		parallelism: 2, aimed: []int{5, 0, 4}, random: []int{1, 0, 1}, keys: 2_000}
}

// TestKillSoakREST is the kill -9 soak with the tables in a Paimon REST catalog (Java Paimon's
// RESTCatalogServer, started for the test): every load runs with --catalog rest through a proxy
// that can hold a commit request, so kills land inside the request (before the server saw it, after
// it acted, or with the server acting only after the client died), at the points around the commit,
// and at random moments. After each table's round: Java's RESTCatalog client and pypaimon's REST
// client read exactly the expected rows, every window is one APPEND snapshot of the job's user (in
// the files the server wrote), the server's latest snapshot is the newest file, and one more run
// says the job finished.
func TestKillSoakREST(t *testing.T) {
	if testing.Short() {
		t.Skip("the REST kill -9 soak takes about 40 s; run without -short")
	}
	java := oracle.Java(t)
	srv := resttest.Start(t)
	proxy := newCommitProxy(t, srv.URI)
	m := restMode()
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("LAKELOAD_SOAK_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("LAKELOAD_SOAK_SEED=%q: %v", s, err)
		}
		seed = v
	}
	t.Logf("mode %s, kill-timing seed %d", m.name, seed)
	rng := rand.New(rand.NewPCG(seed, 0x7e57))
	root := t.TempDir()
	pl := place{wh: srv.Dir, oracleWH: srv.Dir,
		catalog: []string{"--catalog", "rest", "--catalog-uri", proxy.URI(), "--catalog-token", srv.Token, "--catalog-warehouse", srv.Warehouse}}
	st := &killStats{aimed: map[string]int{}, missed: map[string]int{}}
	queue := slices.Clone(restKinds) // the aimed kills' cycle, across tables
	t0 := time.Now()
	var results []tableResult
	for i, ts := range soakTables(m) {
		if m.aimed[i]+m.random[i] == 0 {
			continue
		}
		pl.storeDir = jobStore(srv.Dir, soakDB, ts.name, soakJob)
		r := soakRun{tableResult: tableResult{name: ts.name}}
		in := filepath.Join(root, "in", ts.name)
		want, rows := generate(t, m, i, ts, in)
		r.rows, r.expected, r.wantLines = rows, len(want), want
		createTable(t, pl, ts)
		load := loadArgs(m, pl, ts, filepath.Join(in, "*.parquet"))
		restLoadUnderKills(t, m, &r, load, pl.storeDir, m.aimed[i], m.random[i], &queue, proxy, st, rng)
		results = append(results, verifyRESTTable(t, r, srv, java))
	}
	t.Log(summarizeREST(m, results, st, proxy, time.Since(t0)))
	for _, k := range restKinds {
		if st.aimed[k] == 0 {
			t.Errorf("no kill landed at %s (missed: %v); the schedule must cover every kind", k, st.missed)
		}
	}
	if m.name == "rest-long" && st.kills() < 30 {
		t.Errorf("long REST soak: %d kills, want ≥ 30", st.kills())
	}
}

// restLoadUnderKills runs load again and again, killing each child (aimed kills first, taken from
// queue, then random ones), until the kills are spent or the job finishes; then resumes
// it to its end and checks that one more run says the job already finished.
func restLoadUnderKills(t *testing.T, m mode, r *soakRun, load []string, store string, aimed, random int, queue *[]string, p *commitProxy, st *killStats, rng *rand.Rand) {
	t.Helper()
	windows := max(r.rows/m.commitRows, 1)
	slots := aimed + random
	t0 := time.Now()
	done := false
	for slot := 0; !done && slot < slots; slot++ {
		want := slotWindow(slot, slots, windows)
		assigned, _ := storeProgress(store)
		kind := "random"
		if slot < aimed {
			kind = nextKind(queue, reachable(store))
		}
		var env []string
		spec := ""
		switch kind {
		case crashInsideCommit:
			spec = pauseSpec(job.PointInsideCommit, want, assigned, windows)
			env = append(env, "LAKELOAD_CRASH_AT="+spec)
		case job.PointInsideCommit, job.PointAfterCommit, job.PointRecoveryAction, job.PointBeforePublish, job.PointAfterPublish:
			spec = pauseSpec(kind, want, assigned, windows)
			env = append(env, "LAKELOAD_PAUSE_AT="+spec)
		}
		c, err := startChild(load, env...)
		if err != nil {
			t.Fatal(err)
		}
		st.runs++
		r.runs++
		killed := ""
		var held *heldCommit
		var delay time.Duration
		switch kind {
		case holdAnswer, holdDropped, holdLate:
			waitPublished(c, store, want-1)
			p.arm(kind)
			select {
			case held = <-p.held:
				killed = held.mode
			case <-stalled(c, store): // a hang guard only
				killed = "fallback"
			case <-c.exited:
			}
		case "random":
			waitPublished(c, store, want-1)
			delay = st.randomDelay(rng)
			select {
			case <-time.After(delay):
				killed = "random"
			case <-c.exited:
			}
		case crashInsideCommit:
			select {
			case <-c.exited:
				if c.killedBySignal() {
					killed = kind
				}
			case <-stalled(c, store): // a hang guard only
				killed = "fallback"
			}
		default:
			select {
			case <-c.paused:
				killed = kind
			case <-stalled(c, store): // a hang guard only
				killed = "fallback"
			case <-c.exited:
			}
		}
		if killed != "" && killed != crashInsideCommit {
			if err := c.kill(); err != nil {
				t.Fatalf("kill: %v", err)
			}
		} else {
			<-c.exited
		}
		if held != nil {
			close(held.release) // the child is dead: now the proxy drops, forwards or drops the answer
			<-held.done
		}
		p.settle()
		st.childTime += time.Since(c.started)
		st.committed += c.windowsCommitted()
		switch {
		case killed != "" && c.killedBySignal():
			r.kills++
			t.Logf("table %s kill %d: %s (window ≥ %d, %s) after %v; last log line: %s", r.name, slot+1, killed, want, spec,
				time.Since(c.started).Round(time.Millisecond), c.lastLine())
			switch killed {
			case "random":
				st.random++
			case "fallback":
				st.fallback++
				t.Errorf("table %s: the run aimed at %s made no progress for %v (a hang); killed\n%s", r.name, kind, aimHangGuard, c.output(30))
				*queue = append([]string{kind}, *queue...) // try the kind again in the next slot
			default:
				st.aimed[killed]++
			}
		case c.exitCode() == 0:
			done = true
			st.missed[kind]++
			t.Logf("table %s: job finished before kill %d (%s)", r.name, slot+1, kind)
		default:
			t.Fatalf("table %s: lakeload load exited %d (kill kind %s)\n%s", r.name, c.exitCode(), kind, c.output(30))
		}
	}
	finishLoad(t, r, load, store, done, st, t0)
}

// nextKind removes and returns the first kind of the queue the next run can reach (recovery-action
// needs a window left to recover), refilling the queue with a new cycle when none is.
func nextKind(queue *[]string, reach func(string) bool) string {
	for round := 0; round < 2; round++ {
		for i, k := range *queue {
			if reach(k) {
				*queue = append((*queue)[:i:i], (*queue)[i+1:]...)
				return k
			}
		}
		*queue = append(*queue, restKinds...)
	}
	return holdAnswer
}

// verifyRESTTable reads the table through the REST catalog with Java's RESTCatalog client and
// pypaimon's REST client, compares both with the expected rows, checks one APPEND snapshot per
// window in the snapshot files the server wrote, and that the server's latest is the newest of them.
func verifyRESTTable(t *testing.T, r soakRun, srv *resttest.Server, java *oracle.Client) tableResult {
	t.Helper()
	c0 := time.Now()
	name := soakDB + "." + r.name
	r.java = compareLines(r.wantLines, java.RESTRead(srv.Catalog(), name))
	r.py = compareLines(r.wantLines, oracle.PyRESTRead(t, srv.Catalog(), name))
	dir := filepath.Join(srv.Dir, soakDB+".db", r.name)
	snaps := java.Snapshots(dir)
	r.snaps = checkSnapshots(snaps)
	r.checkTime = time.Since(c0)
	r.wantLines = nil
	t.Logf("table %-6s rows %d -> %d expected | kills %d, runs %d | java REST %v | pypaimon REST %v | %d windows, %d APPEND of %d snapshots | load %v, check %v",
		r.name, r.rows, r.expected, r.kills, r.runs, r.java, r.py, r.snaps.windows, r.snaps.appends, r.snaps.total,
		r.loadTime.Round(time.Millisecond), r.checkTime.Round(time.Millisecond))
	checkReads(t, &r, "Java RESTCatalog", "pypaimon REST")
	if latest := serverLatest(t, srv, r.name); latest != int64(r.snaps.total) {
		t.Errorf("table %s: the server's latest snapshot is %d, the table directory holds %d snapshots", r.name, latest, r.snaps.total)
	}
	return r.tableResult
}

// serverLatest is the id of the server's latest snapshot of soak.<table> (GET …/snapshot), 0 for none.
func serverLatest(t *testing.T, srv *resttest.Server, table string) int64 {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, srv.URI+"v1/paimon/databases/"+soakDB+"/tables/"+table+"/snapshot", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+srv.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return 0
	}
	var body struct {
		Snapshot struct {
			Snapshot struct {
				ID int64 `json:"id"`
			} `json:"snapshot"`
		} `json:"snapshot"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatalf("server's latest snapshot of %s: %v", table, err)
	}
	return body.Snapshot.Snapshot.ID
}

// summarizeREST renders the one-line result of the REST soak.
func summarizeREST(m mode, results []tableResult, st *killStats, p *commitProxy, total time.Duration) string {
	var rows int64
	var lost, dup, wrong, windows int
	for _, r := range results {
		rows += r.rows
		for _, d := range []diff{r.java, r.py} {
			lost, dup, wrong = lost+d.lost, dup+d.dup, wrong+d.wrong
		}
		windows += r.snaps.windows
	}
	var kinds []string
	for _, k := range restKinds {
		kinds = append(kinds, fmt.Sprintf("%s=%d", k, st.aimed[k]))
	}
	kinds = append(kinds, fmt.Sprintf("random=%d", st.random))
	if st.fallback > 0 {
		kinds = append(kinds, fmt.Sprintf("aimed-not-reached=%d", st.fallback))
	}
	return fmt.Sprintf("SOAK mode=%s tables=%d rows=%d kills=%d [%s] missed=%v runs=%d commit-requests=%d (server received %d, %d after the sender died) lost=%d dup=%d wrong=%d (Java RESTCatalog + pypaimon REST) windows=%d time=%v",
		m.name, len(results), rows, st.kills(), strings.Join(kinds, " "), st.missed, st.runs, p.commits.Load(), p.forwarded.Load(), p.late.Load(),
		lost, dup, wrong, windows, total.Round(time.Second))
}
