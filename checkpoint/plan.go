package checkpoint

import "fmt"

// ActionKind says what a recovery action does.
type ActionKind int

// Recovery actions. The job runs a plan's actions in order; each concerns one window, windows
// ascend, and a Stop (if any) is last.
const (
	// Publish writes published from the coverage of Attempt, the attempt that committed (I5).
	Publish ActionKind = iota + 1
	// WriteCommittedThenPublish records the verified commit (SnapshotID, Attempt), then publishes.
	WriteCommittedThenPublish
	// Commit commits Attempt's stored results: look (user, w, APPEND) up after the window's
	// SnapshotSeen first, commit if absent, verify, write committed, publish. Empty: the attempt
	// wrote no files, so committed is written with snapshot id 0 and no snapshot is made.
	Commit
	// Recompute begins Attempt (a new number) over the same splits and base (I4), runs its tasks,
	// then goes through Commit before the next action. Old files are left to orphan cleanup.
	Recompute
	// Void writes voided for a rolled-back window the user asked to recompute; its splits go to a
	// new window. They are not in this plan's Remaining (computed before the void is written): the
	// job reloads the store after running a Void.
	Void
	// Stop ends recovery: Err names the window and what a person must do.
	Stop
)

var actionNames = map[ActionKind]string{Publish: "publish", WriteCommittedThenPublish: "write-committed-then-publish",
	Commit: "commit", Recompute: "recompute", Void: "void", Stop: "stop"}

// String names the kind.
func (k ActionKind) String() string {
	if s, ok := actionNames[k]; ok {
		return s
	}
	return fmt.Sprintf("ActionKind(%d)", int(k))
}

// Action is one step of a recovery plan.
type Action struct {
	Kind       ActionKind
	Window     int64
	Attempt    int   // attempt to publish or commit; for Recompute the new attempt
	SnapshotID int64 // the marker snapshot (Publish, WriteCommittedThenPublish)
	Empty      bool  // Commit of an attempt without files
	Reason     string
	Err        error // Stop only; wraps ErrStop (and ErrCorrupt for corruption)
}

// String renders the action for logs and test failures.
func (a Action) String() string {
	switch a.Kind {
	case Stop:
		return fmt.Sprintf("stop(w%d: %v)", a.Window, a.Err)
	case Publish, WriteCommittedThenPublish:
		return fmt.Sprintf("%s(w%d a%d s%d)", a.Kind, a.Window, a.Attempt, a.SnapshotID)
	case Commit:
		if a.Empty {
			return fmt.Sprintf("commit(w%d a%d empty)", a.Window, a.Attempt)
		}
	}
	return fmt.Sprintf("%s(w%d a%d)", a.Kind, a.Window, a.Attempt)
}

// RecoveryPlan is the ordered outcome of Decide.
type RecoveryPlan struct {
	Actions    []Action
	NextWindow int64 // the number of the next window to assign
	Remaining  []int // plan indexes not in any live window nor dropped (all − assigned − dropped), in input order
	JobDone    bool  // the done marker exists: nothing to do
}

// Stopped returns the error of the plan's Stop action, or nil.
func (p RecoveryPlan) Stopped() error {
	if n := len(p.Actions); n > 0 && p.Actions[n-1].Kind == Stop {
		return p.Actions[n-1].Err
	}
	return nil
}
