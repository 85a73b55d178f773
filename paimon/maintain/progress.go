package maintain

// Steps of a maintenance run, reported in Progress.Step, in the order they run. The items a step
// counts (Progress.Done, Progress.Total) are given for each.
const (
	StepConsumers  = "consumers"      // Expire: consumers checked for expiry
	StepDataFiles  = "data files"     // Expire: snapshots whose deltas were read and whose dropped data files were deleted
	StepChangelogs = "changelogs"     // Expire: expired snapshots whose changelog files were deleted
	StepMetadata   = "metadata"       // Expire: expired snapshots whose unused metadata files were deleted
	StepSnapshots  = "snapshot files" // Expire: expired snapshot files deleted
	StepList       = "list"           // CleanOrphans: directories listed (total not known in advance)
	StepReferences = "references"     // CleanOrphans: snapshots, tags and changelogs whose references were read
	StepDelete     = "delete"         // CleanOrphans: candidate files checked against the references
)

// Progress reports a running Expire or CleanOrphans (ExpireOptions.Progress, OrphanOptions.Progress):
// at the start of each step, after each item of a step and after each file deleted. It is called on
// the run's goroutine and must return quickly.
type Progress struct {
	Step  string // one of the Step* constants
	Done  int    // items of the step done so far
	Total int    // items of the step; 0 when not known in advance
	// Examined counts the files looked at so far in the run: for Expire the data file entries of
	// the manifests read, for CleanOrphans the files listed.
	Examined int
	Deleted  int   // files deleted so far (in a dry run: that would be)
	Bytes    int64 // their size where known (CleanOrphans; Expire does not stat files)
}

// reporter accumulates a Progress and reports it to fn (nil: reports nothing).
type reporter struct {
	fn      func(Progress)
	p       Progress
	deleted func() (int, int64) // files deleted so far and their bytes
}

func (r *reporter) report() {
	if r == nil || r.fn == nil {
		return
	}
	r.p.Deleted, r.p.Bytes = r.deleted()
	r.fn(r.p)
}

// step starts a step of total items (0: unknown).
func (r *reporter) step(name string, total int) {
	if r == nil {
		return
	}
	r.p.Step, r.p.Done, r.p.Total = name, 0, total
	r.report()
}

// item reports one more item of the step done.
func (r *reporter) item() {
	if r == nil {
		return
	}
	r.p.Done++
	r.report()
}

// examined counts n more files looked at (reported with the next report).
func (r *reporter) examined(n int) {
	if r != nil {
		r.p.Examined += n
	}
}

// grow adds n items to the step's total (items found while the step runs).
func (r *reporter) grow(n int) {
	if r != nil {
		r.p.Total += n
	}
}
