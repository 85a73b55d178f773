package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/internal/oracle"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/paimon/catalog"
)

// TestZombieDriver: a `lakeload load` child process is stopped with SIGSTOP inside window 2 (its
// `assigned` record written, its write task running); a second `lakeload load --takeover` finishes
// the job; then the first is resumed with SIGCONT and runs on as a zombie until it finishes or
// fails. The aggregation (sum) table shows any double commit: afterwards every window has exactly
// one APPEND snapshot of the job's user, the table equals the model of the input, and the zombie
// left no snapshot pin behind.
func TestZombieDriver(t *testing.T) {
	wh, in := loadtest.TempDir(t), loadtest.TempDir(t)
	fx := loadtest.AggSum(31, 3, 200)
	big := loadtest.AggSum(32, 1, 30000).Files[0].Rows // window 2: long enough to stop the driver inside it
	fx.Files = []loadtest.File{{Name: "in-00.parquet", Rows: fx.Files[0].Rows}, {Name: "in-01.parquet", Rows: big},
		{Name: "in-02.parquet", Rows: fx.Files[1].Rows}, {Name: "in-03.parquet", Rows: fx.Files[2].Rows}}
	glob := fx.WriteInputs(t, in)
	tb := fx.Create(t, wh)
	args := cmdArgs([]string{"load"}, tbl(wh, loadtest.Database+"."+fx.Name, "--from", glob, "--job", "z",
		"--commit-rows", "200", "--parallelism", "2", "--log-format", "json"))
	store := job.StorePath(catalog.New(local.New(), wh), fx.Ident(), "z")

	zombie := exec.Command(os.Args[0], args...)
	zombie.Env = append(os.Environ(), mainEnv+"=1")
	var zout, zerr bytes.Buffer
	zombie.Stdout, zombie.Stderr = &zout, &zerr
	if err := zombie.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- zombie.Wait() }()
	defer func() {
		_ = zombie.Process.Signal(syscall.SIGCONT)
		_ = zombie.Process.Kill()
	}()
	assigned := filepath.Join(store, "windows", "2", "assigned")
	for deadline := time.Now().Add(hangGuard); ; time.Sleep(200 * time.Microsecond) {
		if _, err := os.Stat(assigned); err == nil {
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("the first driver ended before window 2 was assigned: %v\n%s", err, zerr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("window 2 never assigned\n%s", zerr.String())
		}
	}
	if err := zombie.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	st, err := checkpoint.NewStore(local.New(), store).Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ws, _ := st.Window(2)
	at, _ := ws.Attempt(1)
	t.Logf("first driver (pid %d) stopped in window 2 with %d of its results stored, committed=%v", zombie.Process.Pid, len(at.Results), ws.Committed != nil)
	if ws.Committed != nil {
		t.Fatalf("window 2 committed before the stop; the zombie would not be inside it")
	}

	// Without --takeover the live (stopped) holder refuses the second driver.
	fails(t, exitBusy, []string{fmt.Sprintf("lease held by another runner: %s pid %d", thisHost(t), zombie.Process.Pid)}, args...)
	out := ok(t, append(args, "--takeover")...)
	if !strings.HasPrefix(out, "job z finished: ") {
		t.Fatalf("takeover printed %q", out)
	}

	if err := zombie.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		}
		msg := zerr.String()
		if i := strings.LastIndex(msg, "lakeload: "); i >= 0 {
			msg = msg[i:]
		}
		t.Logf("the zombie exited with %d: %s", code, strings.TrimSpace(msg))
	case <-time.After(hangGuard):
		t.Fatalf("the zombie did not end within %s of SIGCONT (a hang)", hangGuard)
	}

	st, err = checkpoint.NewStore(local.New(), store).Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, done := st.Done(); !done {
		t.Fatal("job not done")
	}
	jr, _ := st.Job()
	for _, ws := range st.Windows() {
		if n := len(loadtest.WindowCommits(t, tb, jr.CommitUser, ws.Window)); n != 1 || ws.Published == nil {
			t.Errorf("window %d: %d APPEND snapshots of the job's user, published %v", ws.Window, n, ws.Published != nil)
		}
	}
	if all := loadtest.SnapshotsOf(t, tb, jr.CommitUser); len(all) != len(st.Windows()) {
		t.Errorf("the job's user made %d snapshots for %d windows", len(all), len(st.Windows()))
	}
	if d := loadtest.Diff(fx.Expected(t), loadtest.Lines(t, tb)); d != "" {
		t.Errorf("table differs from the model:%s", d)
	}
	if d := loadtest.Diff(fx.Expected(t), oracle.Java(t).Read(tb.Path, oracle.ReadOpts{})); d != "" {
		t.Errorf("Java Paimon reads the table differently from the model:%s", d)
	}
	if _, err := os.Stat(filepath.Join(tb.Path, "consumer", "consumer-lakeload-z")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("snapshot pin of the finished job exists (%v)", err)
	}
}

func thisHost(t *testing.T) string {
	t.Helper()
	h, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestLoadInterruptedBySIGINT: SIGINT (Ctrl-C) to a `lakeload load` child inside window 2 stops it
// with exit code 130 and a message saying how to resume; the same command then finishes the job and
// the table equals the model of the input.
func TestLoadInterruptedBySIGINT(t *testing.T) {
	wh, in := loadtest.TempDir(t), loadtest.TempDir(t)
	fx := loadtest.AggSum(33, 3, 200)
	big := loadtest.AggSum(34, 1, 30000).Files[0].Rows
	fx.Files = []loadtest.File{{Name: "in-00.parquet", Rows: fx.Files[0].Rows}, {Name: "in-01.parquet", Rows: big},
		{Name: "in-02.parquet", Rows: fx.Files[1].Rows}}
	glob := fx.WriteInputs(t, in)
	tb := fx.Create(t, wh)
	args := cmdArgs([]string{"load"}, tbl(wh, loadtest.Database+"."+fx.Name, "--from", glob, "--job", "c",
		"--commit-rows", "200", "--parallelism", "2"))
	store := job.StorePath(catalog.New(local.New(), wh), fx.Ident(), "c")

	child := exec.Command(os.Args[0], args...)
	child.Env = append(os.Environ(), mainEnv+"=1")
	var cerr bytes.Buffer
	child.Stderr = &cerr
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- child.Wait() }()
	defer func() { _ = child.Process.Kill() }()
	assigned := filepath.Join(store, "windows", "2", "assigned")
	for deadline := time.Now().Add(hangGuard); ; time.Sleep(200 * time.Microsecond) {
		if _, err := os.Stat(assigned); err == nil {
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("the load ended before window 2 was assigned: %v\n%s", err, cerr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("window 2 never assigned\n%s", cerr.String())
		}
	}
	if err := child.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	var err error
	select {
	case err = <-exited:
	case <-time.After(hangGuard):
		t.Fatalf("the load did not stop within %s of SIGINT (a hang)", hangGuard)
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted ||
		!strings.Contains(cerr.String(), "interrupted; run the same command again to resume job c") {
		t.Fatalf("interrupted load: %v\n%s", err, cerr.String())
	}
	st, err := checkpoint.NewStore(local.New(), store).Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if ws, _ := st.Window(2); ws.Published != nil {
		t.Fatalf("window 2 published although interrupted inside it: %+v", ws.Published)
	}
	if out := ok(t, args...); !strings.HasPrefix(out, "job c finished: ") {
		t.Fatalf("rerun printed %q", out)
	}
	if d := loadtest.Diff(fx.Expected(t), loadtest.Lines(t, tb)); d != "" {
		t.Errorf("table differs from the model:%s", d)
	}
}
