package checkpoint

import (
	"strconv"
	"strings"

	"github.com/lakeload/lakeload/fileio"
)

// Record names inside the store root.
const (
	jobFile       = "job.json"
	planFile      = "plan.json"
	doneFile      = "done"
	leaseDir      = "lease"
	windowsDir    = "windows"
	assignedFile  = "assigned"
	committedFile = "committed"
	publishedFile = "published"
	voidedFile    = "voided"
	beginFile     = "begin"
	attemptPrefix = "attempt-"
	resultSuffix  = ".res"
	leasePrefix   = "lease-"
	revisionDir   = "plan-rev"
)

// Record kinds written in envelope headers.
const (
	kindJob       = "job"
	kindPlan      = "plan"
	kindAssigned  = "assigned"
	kindAttempt   = "attempt"
	kindResult    = "result"
	kindCommitted = "committed"
	kindPublished = "published"
	kindVoided    = "voided"
	kindDone      = "done"
	kindLease     = "lease"
	kindRevision  = "plan-rev"
)

func (s *Store) windowDir(w int64) string {
	return fileio.Join(s.root, windowsDir, strconv.FormatInt(w, 10))
}

func (s *Store) attemptDir(w int64, a int) string {
	return fileio.Join(s.windowDir(w), attemptPrefix+strconv.Itoa(a))
}

// AssignedPath returns the path of window w's assigned record.
func (s *Store) AssignedPath(w int64) string { return fileio.Join(s.windowDir(w), assignedFile) }

// AttemptStartPath returns the path of the begin record of attempt a of window w.
func (s *Store) AttemptStartPath(w int64, a int) string {
	return fileio.Join(s.attemptDir(w, a), beginFile)
}

// ResultPath returns the path of task's result in attempt a of window w.
func (s *Store) ResultPath(w int64, a int, task string) string {
	return fileio.Join(s.attemptDir(w, a), task+resultSuffix)
}

// CommittedPath returns the path of window w's committed record.
func (s *Store) CommittedPath(w int64) string { return fileio.Join(s.windowDir(w), committedFile) }

// PublishedPath returns the path of window w's published record.
func (s *Store) PublishedPath(w int64) string { return fileio.Join(s.windowDir(w), publishedFile) }

// VoidedPath returns the path of window w's voided record.
func (s *Store) VoidedPath(w int64) string { return fileio.Join(s.windowDir(w), voidedFile) }

func (s *Store) leasePath(n int64) string {
	return fileio.Join(s.root, leaseDir, leaseName(n))
}

// leaseName zero-pads n so that names sort like numbers.
func leaseName(n int64) string {
	d := strconv.FormatInt(n, 10)
	return leasePrefix + strings.Repeat("0", 20-len(d)) + d
}

// parseCanonical parses a positive decimal without sign or leading zeros: one number, one name.
func parseCanonical(s string) (int64, bool) {
	if s == "" || s[0] == '0' || len(s) > 18 {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil && n > 0
}

// hidden reports whether a directory entry is a backend's staging file (".name.uuid.tmp").
func hidden(name string) bool { return strings.HasPrefix(name, ".") }
