package commit_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// The cross-process race re-executes this test binary; TestCommitRaceChild does one commit in a child.
const raceChildEnv = "LAKELOAD_COMMIT_RACE_CHILD" // "<table dir>|<writer index>"

func raceUser(i int) string { return "racer-" + strconv.Itoa(i) }

// raceRows is writer i's rows: i+1 rows, ids unique across writers.
func raceRows(i int) [][]any { return appendRows(int64(i)*1000, i+3, raceUser(i)) }

// commitRacer writes and commits writer i's rows, once the start channel closes.
func commitRacer(ctx context.Context, tbl *table.Table, i int, start <-chan struct{}) (commit.Result, error) {
	msgs := writeRows(noFatal{}, tbl, raceRows(i))
	<-start
	return commit.Commit(ctx, tbl, msgs, commit.Options{User: raceUser(i), Identifier: commit.BatchIdentifier})
}

// noFatal is a testing.TB for goroutines: it panics instead of calling FailNow off the test goroutine.
type noFatal struct{ testing.TB }

func (noFatal) Helper()                   {}
func (noFatal) Fatal(args ...any)         { panic(fmt.Sprint(args...)) }
func (noFatal) Fatalf(f string, a ...any) { panic(fmt.Sprintf(f, a...)) }

// checkRace verifies that each of n racers landed exactly once, in contiguous snapshots, with exact
// counts, and that the table reads back every row.
func checkRace(t *testing.T, tbl *table.Table, n int) {
	t.Helper()
	snaps := snapshotsOf(t, tbl)
	if len(snaps) != n {
		t.Fatalf("%d snapshots for %d racing commits", len(snaps), n)
	}
	seen := map[string]int64{}
	for _, s := range snaps {
		if prev, dup := seen[s.CommitUser]; dup {
			t.Errorf("user %s committed twice: snapshots %d and %d", s.CommitUser, prev, s.ID)
		}
		seen[s.CommitUser] = s.ID
		if s.CommitKind != spec.CommitKindAppend || s.CommitIdentifier != commit.BatchIdentifier {
			t.Errorf("snapshot %d: kind %s identifier %d", s.ID, s.CommitKind, s.CommitIdentifier)
		}
	}
	var want [][]any
	for i := range n {
		if _, ok := seen[raceUser(i)]; !ok {
			t.Errorf("commit of %s is missing", raceUser(i))
		}
		want = append(want, raceRows(i)...)
	}
	if got := *snaps[n-1].TotalRecordCount; got != int64(len(want)) {
		t.Errorf("totalRecordCount %d, want %d", got, len(want))
	}
	checkCounts(t, tbl, snaps)
	checkRows(t, tbl, 0, want)
}

func TestConcurrentCommitsGoroutines(t *testing.T) {
	const n = 6
	tbl := createTable(t, t.TempDir(), appendCols, nil, nil, nil)
	ctx := context.Background()
	start := make(chan struct{})
	results := make([]commit.Result, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			defer func() {
				if r := recover(); r != nil {
					errs[i] = fmt.Errorf("panic: %v", r)
				}
			}()
			// Each racer opens its own handle, as separate writers would.
			results[i], errs[i] = commitRacer(ctx, openTable(noFatal{}, tbl.Path), i, start)
		})
	}
	close(start)
	wg.Wait()
	retries := 0
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("racer %d: %v", i, errs[i])
		}
		if results[i].AlreadyCommitted {
			t.Errorf("racer %d reported AlreadyCommitted", i)
		}
		retries += results[i].Retries
	}
	t.Logf("%d snapshot races lost in total", retries)
	checkRace(t, tbl, n)
	// Every racer's reported snapshot holds its commit.
	for i := range n {
		s, err := tbl.Snapshots().Get(ctx, results[i].SnapshotID)
		if err != nil || s.CommitUser != raceUser(i) {
			t.Errorf("racer %d: reported snapshot %d holds %v (%v)", i, results[i].SnapshotID, s, err)
		}
	}
}

// TestCommitRaceChild is the child side of TestConcurrentCommitsProcesses; it is skipped in normal runs.
func TestCommitRaceChild(t *testing.T) {
	env := os.Getenv(raceChildEnv)
	if env == "" {
		t.Skip("helper process for TestConcurrentCommitsProcesses")
	}
	dir, idx, ok := strings.Cut(env, "|")
	i, err := strconv.Atoi(idx)
	if !ok || err != nil {
		t.Fatalf("bad %s=%q", raceChildEnv, env)
	}
	start := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin) // barrier: the parent closes stdin once every child runs
		close(start)
	}()
	res, err := commitRacer(context.Background(), openTable(t, dir), i, start)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("COMMITTED %d retries=%d\n", res.SnapshotID, res.Retries)
}

func TestConcurrentCommitsProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	const n = 3
	tbl := createTable(t, t.TempDir(), appendCols, nil, nil, nil)
	type child struct {
		cmd   *exec.Cmd
		stdin io.WriteCloser
		out   bytes.Buffer
	}
	children := make([]*child, n)
	for i := range children {
		c := &child{cmd: exec.Command(os.Args[0], "-test.run=^TestCommitRaceChild$", "-test.count=1", "-test.v")}
		c.cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s|%d", raceChildEnv, tbl.Path, i))
		c.cmd.Stdout, c.cmd.Stderr = &c.out, &c.out
		var err error
		if c.stdin, err = c.cmd.StdinPipe(); err != nil {
			t.Fatal(err)
		}
		if err := c.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		children[i] = c
	}
	for _, c := range children {
		_ = c.stdin.Close()
	}
	for i, c := range children {
		if err := c.cmd.Wait(); err != nil {
			t.Fatalf("child %d: %v\n%s", i, err, c.out.String())
		}
		_, line, ok := strings.Cut(c.out.String(), "COMMITTED ")
		if !ok {
			t.Fatalf("child %d did not commit:\n%s", i, c.out.String())
		}
		line, _, _ = strings.Cut(line, "\n")
		t.Logf("child %d: snapshot %s", i, line)
	}
	checkRace(t, tbl, n)
}
