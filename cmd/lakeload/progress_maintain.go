package main

import (
	"fmt"
	"time"

	"github.com/lakeload/lakeload/paimon/maintain"
)

// maintainLive is the live state of `lakeload expire` and `lakeload clean-orphans`: the last
// maintain.Progress.
type maintainLive struct {
	command string // "expire" or "clean-orphans"
	dryRun  bool
	v       liveValue[maintain.Progress]
}

// stepUnits names what each step counts.
var stepUnits = map[string]string{
	maintain.StepConsumers: "consumers", maintain.StepDataFiles: "snapshots", maintain.StepChangelogs: "snapshots",
	maintain.StepMetadata: "snapshots", maintain.StepSnapshots: "snapshots", maintain.StepList: "directories",
	maintain.StepReferences: "snapshots and tags", maintain.StepDelete: "candidates",
}

func (m *maintainLive) report(p maintain.Progress) { m.v.set(p) }

func (m *maintainLive) line(time.Duration) string {
	p := m.v.get()
	if p.Step == "" {
		return m.command + ": starting…"
	}
	step := fmt.Sprintf("%s %d %s", p.Step, p.Done, stepUnits[p.Step])
	if p.Total > 0 {
		step = fmt.Sprintf("%s %s %d/%d %s", p.Step, bar(int64(p.Done), int64(p.Total)), p.Done, p.Total, stepUnits[p.Step])
	}
	verb := "deleted"
	if m.dryRun {
		verb = "to delete"
	}
	size := ""
	if p.Bytes > 0 {
		size = " (" + humanBytes(p.Bytes) + ")"
	}
	return fmt.Sprintf("%s: %s  %s files examined  %s %s%s", m.command, step, human(int64(p.Examined)), human(int64(p.Deleted)), verb, size)
}

func (m *maintainLive) attrs(time.Duration) []any {
	p := m.v.get()
	return []any{"command", m.command, "step", p.Step, "step_done", p.Done, "step_total", p.Total,
		"files_examined", p.Examined, "files_deleted", p.Deleted, "bytes_deleted", p.Bytes, "dry_run", m.dryRun}
}
