package main

import (
	"context"
	"fmt"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/job"
)

// runnerState says whether an unfinished job is being run, judged by its lease: released or absent,
// nobody runs it; held by a process on this host, its pid tells; held on another host, only that
// host knows, so both are said with what to do in either case. The advice is part of the state so
// `status` and `jobs list` say the same.
func runnerState(ctx context.Context, store *checkpoint.Store) string {
	l, ok, err := store.CurrentLease(ctx)
	switch {
	case err != nil:
		return fmt.Sprintf("unknown: its lease cannot be read: %v", err)
	case !ok || l.Released:
		return "interrupted: no runner holds it; run the load command again to resume"
	}
	switch alive, known := job.HolderAlive(l.Owner); {
	case known && alive:
		return fmt.Sprintf("running: pid %d on this host", l.Owner.PID)
	case known:
		return fmt.Sprintf("interrupted: its runner, pid %d on this host, is gone; run the load command again to resume", l.Owner.PID)
	}
	return fmt.Sprintf("running on %s (pid %d, heartbeat %s), or interrupted there; if that runner is gone, run the load "+
		"command again with --takeover", l.Owner.Host, l.Owner.PID, l.Heartbeat.UTC().Format("2006-01-02T15:04:05Z"))
}
