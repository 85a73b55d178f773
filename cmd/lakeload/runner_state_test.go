package main

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio/local"
)

// TestRunnerState: what status and jobs list say of an unfinished job, by its lease: none or released
// (interrupted), a live process on this host (running), a dead one (interrupted, gone), a holder on
// another host (both, with --takeover for the second).
func TestRunnerState(t *testing.T) {
	ctx := context.Background()
	host, _ := os.Hostname()
	cases := []struct {
		name    string
		owner   *checkpoint.LeaseOwner
		release bool
		want    []string
	}{
		{name: "no lease", want: []string{"interrupted: no runner holds it", "run the load command again"}},
		{name: "released", owner: &checkpoint.LeaseOwner{Host: host, PID: os.Getpid(), Token: "a"}, release: true,
			want: []string{"interrupted: no runner holds it"}},
		{name: "alive here", owner: &checkpoint.LeaseOwner{Host: host, PID: os.Getpid(), Token: "b"},
			want: []string{"running: pid", "on this host"}},
		{name: "gone here", owner: &checkpoint.LeaseOwner{Host: host, PID: deadPID(t), Token: "c"},
			want: []string{"interrupted: its runner", "is gone", "run the load command again to resume"}},
		{name: "other host", owner: &checkpoint.LeaseOwner{Host: "elsewhere.example", PID: 42, Token: "d"},
			want: []string{"running on elsewhere.example (pid 42", "or interrupted there", "--takeover"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			store := checkpoint.NewStore(local.New(), t.TempDir())
			if c.owner != nil {
				l, err := store.AcquireLease(ctx, checkpoint.LeaseOptions{Owner: *c.owner, TTL: time.Minute})
				if err != nil {
					t.Fatal(err)
				}
				if c.release {
					if err := l.Release(ctx); err != nil {
						t.Fatal(err)
					}
				}
			}
			got := runnerState(ctx, store)
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("state %q does not say %q", got, w)
				}
			}
		})
	}
}

// deadPID returns the pid of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	p, err := os.StartProcess("/bin/true", []string{"true"}, &os.ProcAttr{})
	if err != nil {
		t.Skipf("cannot start a process: %v", err)
	}
	if _, err := p.Wait(); err != nil {
		t.Fatal(err)
	}
	return p.Pid
}
