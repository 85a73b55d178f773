package killsoak

import (
	"os"
	"path/filepath"
	"strconv"

	"github.com/lakeload/lakeload/job"
)

// points are the named points of the load protocol, in the order aimed kills cycle through them:
// recovery-action right after task-written, whose kill always leaves a window to recover.
var points = []string{
	job.PointPlanned, job.PointAssigned, job.PointTaskWritten, job.PointRecoveryAction,
	job.PointResultStored, job.PointBeforeCommit, job.PointInsideCommit, job.PointAfterCommit,
	job.PointBeforePublish, job.PointAfterPublish,
}

// scheduler hands out the points of aimed kills, cycling through points across all tables. A point
// the next child cannot reach (planned once the job exists; recovery-action when nothing is left to
// recover) is deferred, not dropped.
type scheduler struct{ queue []string }

// next removes and returns the first reachable point of the queue, refilling it with a new cycle
// when nothing queued is reachable; "" when no point is reachable at all.
func (s *scheduler) next(reachable func(string) bool) string {
	for round := 0; round < 2; round++ {
		// planned happens once per job: take it whenever it still can.
		for _, pref := range []bool{true, false} {
			for i, p := range s.queue {
				if (!pref || p == job.PointPlanned) && reachable(p) {
					s.queue = append(s.queue[:i:i], s.queue[i+1:]...)
					return p
				}
			}
		}
		s.queue = append(s.queue, points...)
	}
	return ""
}

// jobStore is the default checkpoint store of a job (cmd/lakeload's jobStorePath).
func jobStore(warehouse, db, table, jobName string) string {
	return filepath.Join(warehouse, ".lakeload", "jobs", db, table, jobName)
}

// reachable tells which points the next run of the job can reach, judged from the store's file
// names only (the harness never decodes lakeload's records).
func reachable(store string) func(string) bool {
	return func(p string) bool {
		switch p {
		case job.PointPlanned:
			return !fileExists(filepath.Join(store, "job.json"))
		case job.PointRecoveryAction:
			return unfinishedWindow(store)
		}
		return true
	}
}

// unfinishedWindow reports whether some window is assigned but neither published nor voided.
func unfinishedWindow(store string) bool {
	ents, err := os.ReadDir(filepath.Join(store, "windows"))
	if err != nil {
		return false
	}
	for _, e := range ents {
		d := filepath.Join(store, "windows", e.Name())
		if fileExists(filepath.Join(d, "assigned")) && !fileExists(filepath.Join(d, "published")) &&
			!fileExists(filepath.Join(d, "voided")) {
			return true
		}
	}
	return false
}

// storeProgress returns the highest window assigned and the highest window published, from the
// store's directory names.
func storeProgress(store string) (assigned, published int64) {
	ents, _ := os.ReadDir(filepath.Join(store, "windows"))
	for _, e := range ents {
		w, err := strconv.ParseInt(e.Name(), 10, 64)
		if err != nil {
			continue
		}
		d := filepath.Join(store, "windows", e.Name())
		if fileExists(filepath.Join(d, "assigned")) {
			assigned = max(assigned, w)
		}
		if fileExists(filepath.Join(d, "published")) {
			published = max(published, w)
		}
	}
	return assigned, published
}

// slotWindow spreads n kills over a job of about windows windows: kill i (from 0) aims at window
// 1 + i·(windows−1)/(n−1), so kills land in the first, middle and last windows.
func slotWindow(i, n int, windows int64) int64 {
	if n <= 1 || windows <= 1 {
		return 1
	}
	return 1 + int64(i)*(windows-1)/int64(n-1)
}

// pauseSpec is the LAKELOAD_PAUSE_AT value for an aimed kill at point in window want (or later):
// planned and recovery-action take no window (they happen once per run, at its start); the other
// points name a window not assigned yet, so the next run is sure to pass it, unless that window
// would be past the job's estimated last one.
func pauseSpec(point string, want, assigned, windows int64) string {
	if point == job.PointPlanned || point == job.PointRecoveryAction {
		return point
	}
	w := max(want, assigned+1)
	if w > windows {
		return point
	}
	return point + ":" + strconv.FormatInt(w, 10)
}
