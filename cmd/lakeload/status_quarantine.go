package main

import (
	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/job/task"
)

// addQuarantine adds a published window's quarantined rows and the quarantine files of its
// committed attempt (only that attempt's entries belong to the table's load).
func (r *jobStatus) addQuarantine(store *checkpoint.Store, ws checkpoint.WindowState) {
	if ws.Published == nil || ws.Published.Quarantined == 0 {
		return
	}
	r.RowsQuarantined += ws.Published.Quarantined
	if at, ok := ws.Attempt(ws.Published.Attempt); ok {
		for _, res := range at.Results {
			if res.Quarantined > 0 {
				r.QuarantineFiles = append(r.QuarantineFiles, task.QuarantinePath(store, ws.Window, ws.Published.Attempt, res.TaskID))
			}
		}
	}
}
