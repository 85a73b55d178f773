package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"
)

// JobRecord identifies a job for its whole life (job.json). Its result-changing fields must equal
// those of every later run of the same job (see Compatible).
type JobRecord struct {
	JobID      string `json:"jobId"`
	CommitUser string `json:"commitUser"` // stable Paimon commit user of every window
	TablePath  string `json:"tablePath"`
	// TableUUID is the identity of the table the job loads (the job's table identity: Paimon's filesystem
	// catalog stores no uuid); empty in jobs created before lakeload recorded it, which are not checked.
	TableUUID        string            `json:"tableUuid,omitempty"`
	InputFingerprint string            `json:"inputFingerprint"`
	Options          map[string]string `json:"options,omitempty"` // result-changing options: op/id column, mapping
	LakeloadVersion  string            `json:"lakeloadVersion"`
	Created          time.Time         `json:"created"`
}

// PlanRecord is the split list, fixed before any window is assigned (plan.json). A split is named
// by its index in Splits for the life of the job.
type PlanRecord struct {
	Splits []Opaque `json:"splits"` // the job's input splits (opaque.go)
}

// Assigned fixes a window's content before its tasks run (windows/<w>/assigned): protocol I4.
type Assigned struct {
	Window       int64 `json:"window"`       // ≥ 1, also the Paimon commit identifier
	Splits       []int `json:"splits"`       // plan indexes, strictly ascending
	SequenceBase int64 `json:"sequenceBase"` // first sequence number of the window's rows
	SnapshotSeen int64 `json:"snapshotSeen"` // latest table snapshot id at assignment (0: none); lookups start after it
	// SeenList is the delta manifest list of snapshot SnapshotSeen, its identity: a lookup that finds
	// another snapshot at that id knows the table was rolled back below it (the job's snapshot lookup, FloorSince).
	SeenList string    `json:"seenList,omitempty"`
	Attempt  int       `json:"attempt"` // the first attempt, begun by this record
	Created  time.Time `json:"created"`
}

// AttemptStart begins a later attempt of a window (windows/<w>/attempt-<a>/begin), written before
// its tasks run. Being write-once, it also fences two drivers starting the same attempt.
type AttemptStart struct {
	Window  int64     `json:"window"`
	Attempt int       `json:"attempt"`
	Reason  string    `json:"reason,omitempty"`
	Created time.Time `json:"created"`
}

// TaskResult is one task's durable output (windows/<w>/attempt-<a>/<task>.res): the commit
// messages of the data files it wrote and the input it covered. Digest is computed by the store.
type TaskResult struct {
	Window   int64    `json:"window"`
	Attempt  int      `json:"attempt"`
	TaskID   string   `json:"taskId"`
	Messages []Opaque `json:"messages"`      // the job's commit messages (opaque.go)
	Splits   []int    `json:"splits"`        // plan indexes covered, strictly ascending
	IDs      IDList   `json:"ids,omitempty"` // row-id mode: the ids written (compact, see IDList)
	Rows     int64    `json:"rows"`
	// Quarantined counts input rows the task left out (--bad-rows=quarantine); they are listed in
	// the attempt's quarantine file beside the store (job.QuarantinePath).
	Quarantined int64  `json:"quarantined,omitempty"`
	Digest      string `json:"digest"` // hex SHA-256 of the fields above (ResultDigest)
}

// Committed records a verified commit of a window (windows/<w>/committed). SnapshotID 0 means the
// window's attempt wrote no files, so nothing was committed to the table (an empty window).
type Committed struct {
	Window     int64     `json:"window"`
	SnapshotID int64     `json:"snapshotId"`
	Attempt    int       `json:"attempt"`
	Time       time.Time `json:"time"`
	// MergedAway (overwrite jobs into tables hiding level 0, SnapshotID 0): the staged files were
	// merged into no rows and the replaced partitions held nothing, so no snapshot was made although
	// the attempt holds files.
	MergedAway bool `json:"mergedAway,omitempty"`
}

// Published marks the coverage of the committed attempt as done (windows/<w>/published).
type Published struct {
	Window  int64  `json:"window"`
	Attempt int    `json:"attempt"`
	Splits  []int  `json:"splits"`
	IDs     IDList `json:"ids,omitempty"` // row-id mode: the ids of the committed attempt
	Rows    int64  `json:"rows"`
	// Quarantined is the committed attempt's count of rows left out (--bad-rows=quarantine).
	Quarantined int64     `json:"quarantined,omitempty"`
	Digest      string    `json:"digest"` // CoverageDigest of the attempt
	Time        time.Time `json:"time"`
}

// Voided takes a window out of the job after its marker snapshot vanished from the table (rolled back
// by hand) and the user asked to recompute it (windows/<w>/voided): its splits return to the
// remaining pool and are assigned to a new window.
type Voided struct {
	Window  int64     `json:"window"`
	Reason  string    `json:"reason"`
	Created time.Time `json:"created"`
}

// DoneRecord marks the job finished (done).
type DoneRecord struct {
	JobID   string    `json:"jobId"`
	Windows int64     `json:"windows"` // the highest window number
	Time    time.Time `json:"time"`
	// Aborted marks a job ended by `lakeload job abort` before all input was published: its
	// committed windows stay in the table, the rest is never loaded by this job.
	Aborted bool `json:"aborted,omitempty"`
	// Generation is the generation this record ends (0 for records written before generations
	// existed, which end generation 1); see Generation.
	Generation int `json:"generation,omitempty"`
}

// Compatible returns an error naming the first result-changing field in which run differs from j:
// the same job must not resume against another table, input or options (scenarios 15, 18). A table
// at the job's path with another identity is refused by CheckTable.
func (j JobRecord) Compatible(run JobRecord) error {
	diff := func(field, old, new string) error {
		return changedError(fmt.Sprintf("job %s was created with %s %q, this run has %q: use the original settings or start a new job (another --job name)",
			j.JobID, field, old, new))
	}
	switch {
	case j.JobID != run.JobID:
		return diff("job id", j.JobID, run.JobID)
	case j.TablePath != run.TablePath:
		return diff("table path", j.TablePath, run.TablePath)
	}
	if err := j.CheckTable(run.TableUUID); err != nil {
		return err
	}
	if j.InputFingerprint != run.InputFingerprint {
		return diff("input fingerprint", j.InputFingerprint, run.InputFingerprint)
	}
	keys := map[string]bool{}
	for k := range j.Options {
		keys[k] = true
	}
	for k := range run.Options {
		keys[k] = true
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if j.Options[k] != run.Options[k] {
			return diff("option "+k, j.Options[k], run.Options[k])
		}
	}
	return nil
}

// CheckTable returns an error wrapping ErrTableReplaced, saying what to do, when the table at the
// job's path now has the identity tableUUID and the job recorded another: the table was dropped and
// created again since the job was created. A job recording no identity (created by a lakeload that
// did not record it) is not checked.
func (j JobRecord) CheckTable(tableUUID string) error {
	if j.TableUUID == "" || j.TableUUID == tableUUID {
		return nil
	}
	return fmt.Errorf("%w: job %s was created for the table at %s with table uuid %q, the table there now has %q, "+
		"and the job's windows went to the old table. To load the input into the new table, run "+
		"'lakeload job forget --job %s' and load it again as a new job, or use another --job name",
		ErrTableReplaced, j.JobID, j.TablePath, j.TableUUID, tableUUID, j.JobID)
}

// ResultDigest returns the hex SHA-256 of r's content (every field but Digest).
// The ids (row-id mode) enter as their sorted front-coded bytes, independent of their compression; a
// result without ids hashes as its JSON alone.
func ResultDigest(r TaskResult) (string, error) {
	ids := r.IDs
	r.Digest, r.IDs = "", nil
	b, err := json.Marshal(r)
	if err != nil {
		return "", fmt.Errorf("checkpoint: digest of task %s: %w", r.TaskID, err)
	}
	h := sha256.New()
	h.Write(b)
	if len(ids) > 0 {
		h.Write([]byte("\nids:"))
		h.Write(ids.frontCoded())
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// CoverageDigest returns a hex SHA-256 over the digests of an attempt's results in task order; it
// names the attempt's content in snapshot properties and in Published.
func CoverageDigest(results []TaskResult) string {
	h := sha256.New()
	for _, r := range results {
		h.Write([]byte(r.TaskID))
		h.Write([]byte{0})
		h.Write([]byte(r.Digest))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// validation — each returns a plain message; callers wrap it with the path.

func (j *JobRecord) validate() error {
	if j.JobID == "" || j.CommitUser == "" {
		return fmt.Errorf("job id and commit user must be set")
	}
	return nil
}

func (a *Assigned) validate() error {
	if a.Window < 1 || a.Attempt < 1 {
		return fmt.Errorf("window %d attempt %d: both must be ≥ 1", a.Window, a.Attempt)
	}
	return ascending(a.Splits)
}

func (a *AttemptStart) validate() error {
	if a.Window < 1 || a.Attempt < 1 {
		return fmt.Errorf("window %d attempt %d: both must be ≥ 1", a.Window, a.Attempt)
	}
	return nil
}

func (r *TaskResult) validate() error {
	if r.Window < 1 || r.Attempt < 1 {
		return fmt.Errorf("window %d attempt %d: both must be ≥ 1", r.Window, r.Attempt)
	}
	if err := validTaskID(r.TaskID); err != nil {
		return err
	}
	return ascending(r.Splits)
}

func (c *Committed) validate() error {
	if c.Window < 1 || c.Attempt < 1 || c.SnapshotID < 0 {
		return fmt.Errorf("window %d attempt %d snapshot %d out of range", c.Window, c.Attempt, c.SnapshotID)
	}
	if c.MergedAway && c.SnapshotID != 0 {
		return fmt.Errorf("window %d: mergedAway is set with snapshot %d; it means no snapshot was made", c.Window, c.SnapshotID)
	}
	return nil
}

func (p *Published) validate() error {
	if p.Window < 1 || p.Attempt < 1 {
		return fmt.Errorf("window %d attempt %d: both must be ≥ 1", p.Window, p.Attempt)
	}
	return ascending(p.Splits)
}

func (v *Voided) validate() error {
	if v.Window < 1 {
		return fmt.Errorf("window %d must be ≥ 1", v.Window)
	}
	return nil
}

func ascending(s []int) error {
	for i, x := range s {
		if x < 0 || (i > 0 && x <= s[i-1]) {
			return fmt.Errorf("split indexes must be ≥ 0 and strictly ascending: %v", s)
		}
	}
	return nil
}

// validTaskID accepts [A-Za-z0-9._-]{1,128} not starting with '.', so a task id is a safe file name.
func validTaskID(id string) error {
	if id == "" || len(id) > 128 || id[0] == '.' {
		return fmt.Errorf("bad task id %q", id)
	}
	for _, c := range id {
		ok := c == '.' || c == '_' || c == '-' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		if !ok {
			return fmt.Errorf("bad task id %q: only letters, digits, '.', '_' and '-'", id)
		}
	}
	return nil
}
