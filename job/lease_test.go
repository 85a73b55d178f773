package job

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/internal/loadtest"
)

// TestLeaseRefusesSecondRunnerAndTakeover: while a run is paused in window 2 (holding the lease) —
// at each step from assignment to publication, inside the commit included — a second run of the job
// is refused with an error naming the holder (host and pid) and writes nothing; a run with Takeover
// finishes the job; the first run, released afterwards, is a zombie that must neither commit a
// window again nor leave a snapshot pin behind (the aggregation table shows double commits).
func TestLeaseRefusesSecondRunnerAndTakeover(t *testing.T) {
	fx := loadtest.AggSum(5, matrixFiles, matrixRows)
	glob := fx.WriteInputs(t, loadtest.TempDir(t))
	for _, point := range []string{PointAssigned, PointResultStored, PointBeforeCommit, PointInsideCommit, PointAfterCommit,
		PointBeforePublish} {
		t.Run(point, func(t *testing.T) {
			e := newLoadEnv(t, fx, glob)
			ctx := context.Background()
			paused, release := make(chan struct{}), make(chan struct{})
			var once sync.Once
			zombie := e.config(matrixCommitRows)
			// One task per window: with two, the task not paused could still store its result
			// while the store is compared below (a race of the test, not of the lease).
			zombie.Parallelism = 1
			zombie.Hook = func(p string, w int64) error {
				if p == point && w == 2 {
					once.Do(func() {
						close(paused)
						<-release
					})
				}
				return nil
			}
			zombieErr := make(chan error, 1)
			go func() { _, err := Run(ctx, zombie); zombieErr <- err }()
			<-paused

			before := e.storeFiles(t)
			_, err := Run(ctx, e.config(matrixCommitRows))
			host, _ := os.Hostname()
			if !errors.Is(err, checkpoint.ErrLeaseHeld) || !strings.Contains(err.Error(), host) ||
				!strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
				t.Fatalf("second run: %v; want ErrLeaseHeld naming %s pid %d", err, host, os.Getpid())
			}
			if after := e.storeFiles(t); strings.Join(after, "\n") != strings.Join(before, "\n") {
				t.Fatalf("the refused run changed the store:\nbefore %v\nafter  %v", before, after)
			}

			takeover := e.config(matrixCommitRows)
			takeover.Takeover = true
			if _, err := e.run(ctx, takeover); err != nil {
				t.Fatalf("takeover: %v", err)
			}
			if p := e.checkFinished(t); p != "" {
				t.Fatalf("after takeover: %s", p)
			}
			close(release)
			err = <-zombieErr
			t.Logf("the zombie run ended with: %v", err)
			if p := e.checkFinished(t); p != "" {
				t.Fatalf("after the zombie resumed: %s", p)
			}
			if ok, _ := fileio.Exists(ctx, e.tbl.FS, e.tbl.Path+"/consumer/consumer-"+consumerID(zombie.Name)); ok {
				t.Errorf("the zombie left the job's consumer pin behind after the job finished")
			}
		})
	}
}

// storeFiles lists every file of the store except the lease directory.
func (e *loadEnv) storeFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	var walk func(dir string)
	walk = func(dir string) {
		infos, err := e.store.FS().List(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, fi := range infos {
			switch {
			case fi.Name == "lease":
			case fi.IsDir:
				walk(fi.Path)
			default:
				out = append(out, fi.Path)
			}
		}
	}
	walk(e.store.Root())
	return out
}

// TestLeaseHolders: a holder on this host whose process is gone is displaced; a live holder (another
// process) or a holder on another host refuses the run with an error naming it, unless Takeover.
func TestLeaseHolders(t *testing.T) {
	host, _ := os.Hostname()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	fx := loadtest.Append(6, 4, 30)
	glob := fx.WriteInputs(t, loadtest.TempDir(t))
	for _, c := range []struct {
		name   string
		owner  checkpoint.LeaseOwner
		refuse string // "" = the run displaces the holder
	}{
		{"dead process on this host", checkpoint.LeaseOwner{Host: host, PID: dead.Process.Pid, Token: "ghost"}, ""},
		{"live process on this host", checkpoint.LeaseOwner{Host: host, PID: os.Getppid(), Token: "parent"},
			fmt.Sprintf("%s pid %d", host, os.Getppid())},
		{"process on another host", checkpoint.LeaseOwner{Host: "elsewhere.example", PID: 4242, Token: "remote"},
			"elsewhere.example pid 4242"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newLoadEnv(t, fx, glob)
			ctx := context.Background()
			if _, err := e.store.AcquireLease(ctx, checkpoint.LeaseOptions{Owner: c.owner}); err != nil {
				t.Fatal(err)
			}
			_, err := Run(ctx, e.config(50))
			if c.refuse == "" {
				if err != nil {
					t.Fatalf("run with a dead holder: %v", err)
				}
			} else {
				if !errors.Is(err, checkpoint.ErrLeaseHeld) || !strings.Contains(err.Error(), c.refuse) {
					t.Fatalf("run: %v; want ErrLeaseHeld naming %q", err, c.refuse)
				}
				if files := e.storeFiles(t); len(files) != 0 {
					t.Fatalf("the refused run wrote %v", files)
				}
				cfg := e.config(50)
				cfg.Takeover = true
				if _, err := Run(ctx, cfg); err != nil {
					t.Fatalf("takeover: %v", err)
				}
			}
			if p := e.checkFinished(t); p != "" {
				t.Fatal(p)
			}
			l, ok, err := e.store.CurrentLease(ctx)
			if err != nil || !ok || !l.Released || l.Owner.PID != os.Getpid() {
				t.Errorf("lease after the run: %+v ok=%v err=%v; want released by pid %d", l, ok, err, os.Getpid())
			}
		})
	}
}
