package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/lakeload/lakeload/fileio"
)

// ErrNoJob is wrapped by Remove's error when there is nothing at the store's root, and by the
// errors of commands asked about a job that has no job record (job.Abort, the CLI's status).
var ErrNoJob = errors.New("checkpoint: no job store")

// NoJobError returns an error with the given message that matches ErrNoJob (errors.Is) without
// repeating its text: for messages that already say there is no such job.
func NoJobError(format string, args ...any) error { return noJobError(fmt.Sprintf(format, args...)) }

type noJobError string

func (e noJobError) Error() string        { return string(e) }
func (e noJobError) Is(target error) bool { return target == ErrNoJob }

// ErrNotJobStore is wrapped by Remove's refusal of a directory that is not the store of the job it
// was asked to remove: its job.json names another job or table, or it has none and holds more than
// a lease (what a run leaves before it writes job.json).
var ErrNotJobStore = errors.New("checkpoint: not the store of this job")

// Owned names directories of the store root whose files belong to the store although its records
// do not name them (the job's quarantine files): directory name → whether a file name in it does.
type Owned map[string]func(name string) bool

// Removal reports a Remove.
type Removal struct {
	Deleted int      // files deleted
	Left    []string // entries left in place: names the store's layout does not hold, links, special files
}

// CheckRemovable returns nil when the store at s's root is the store of job jobID of the table at
// tablePath: its job.json names both (a job.json without a table path, from an older lakeload, is
// matched by the job alone), or it has no job.json and holds only lease records and staging files
// (a run stopped before it created the job). Otherwise it returns an error wrapping ErrNotJobStore,
// ErrNoJob (nothing there, or an empty directory) or ErrCorrupt (job.json unreadable), naming the
// root; nothing is deleted.
func (s *Store) CheckRemovable(ctx context.Context, jobID, tablePath string) error {
	advice := "nothing was deleted; check --checkpoint and --job, and if the directory really is to go, delete it by hand"
	j, err := readOptional[JobRecord](ctx, s, fileio.Join(s.root, jobFile), kindJob)
	if err != nil {
		return fmt.Errorf("%w (%s)", err, advice)
	}
	if j != nil {
		if j.JobID != jobID || (j.TablePath != "" && j.TablePath != tablePath) {
			return fmt.Errorf("%w: %s is the checkpoint store of job %s of the table at %s, not %s of the table at %s; %s",
				ErrNotJobStore, s.root, j.JobID, j.TablePath, jobID, tablePath, advice)
		}
		return nil
	}
	entries, err := s.fs.List(ctx, s.root)
	if err != nil {
		return fmt.Errorf("checkpoint: list %s: %w", s.root, err)
	}
	if len(entries) == 0 { // missing or empty: nothing to remove, and an empty directory stays
		return fmt.Errorf("%w: nothing at %s", ErrNoJob, s.root)
	}
	for _, e := range entries {
		switch {
		case staging(e):
		case e.Name == leaseDir && e.RealDir():
			leases, err := s.fs.List(ctx, e.Path)
			if err != nil {
				return fmt.Errorf("checkpoint: list %s: %w", e.Path, err)
			}
			for _, l := range leases {
				if _, ok := parseLeaseName(l.Name); !(ok && l.Regular()) && !staging(l) {
					return fmt.Errorf("%w: %s has no job.json, and its lease directory holds %s, which no store holds; %s",
						ErrNotJobStore, s.root, l.Path, advice)
				}
			}
		default:
			return fmt.Errorf("%w: %s has no job.json naming job %s, and it holds %s, which a store holds only after its job.json; %s",
				ErrNotJobStore, s.root, jobID, e.Path, advice)
		}
	}
	return nil
}

// Remove deletes the store of job jobID of the table at tablePath after CheckRemovable: only the
// files the store's layout names (records, lease versions, staging files of interrupted writes) and
// those owned names, job.json last, then the directories it emptied. It never follows a symbolic
// link and deletes only regular files, each through fileio.DeleteWithin the root. Anything else is
// left in place and reported in Left (the root stays then).
func (s *Store) Remove(ctx context.Context, jobID, tablePath string, owned Owned) (Removal, error) {
	var r Removal
	if err := s.CheckRemovable(ctx, jobID, tablePath); err != nil {
		return r, err
	}
	job := fileio.Join(s.root, jobFile)
	empty, err := s.removeDir(ctx, "", owned, job, &r)
	if err != nil {
		return r, err
	}
	if ok, err := fileio.Exists(ctx, s.fs, job); err != nil {
		return r, fmt.Errorf("checkpoint: %w", err)
	} else if ok {
		if err := fileio.DeleteWithin(ctx, s.fs, job, s.root); err != nil {
			return r, fmt.Errorf("checkpoint: delete %s: %w", job, err)
		}
		r.Deleted++
	}
	if empty {
		if i := strings.LastIndex(s.root, "/"); i > 0 {
			if err := fileio.DeleteWithin(ctx, s.fs, s.root, s.root[:i]); err != nil {
				return r, fmt.Errorf("checkpoint: delete the emptied store directory %s: %w", s.root, err)
			}
		}
	}
	return r, nil
}

// removeDir deletes what the layout names in directory rel of the store (job.json, skip, excepted)
// and the subdirectories it empties; empty reports whether nothing but skip is left.
func (s *Store) removeDir(ctx context.Context, rel string, owned Owned, skip string, r *Removal) (empty bool, err error) {
	dir := fileio.Join(s.root, rel)
	entries, err := s.fs.List(ctx, dir)
	if err != nil {
		return false, fmt.Errorf("checkpoint: list %s: %w", dir, err)
	}
	empty = true
	for _, e := range entries {
		sub := e.Name
		if rel != "" {
			sub = rel + "/" + e.Name
		}
		switch {
		case e.Path == skip:
		case e.RealDir() && layoutDir(rel, e.Name, owned):
			emptied, err := s.removeDir(ctx, sub, owned, skip, r)
			if err != nil {
				return false, err
			}
			if !emptied {
				empty = false
				continue
			}
			if err := fileio.DeleteWithin(ctx, s.fs, e.Path, s.root); err != nil {
				return false, fmt.Errorf("checkpoint: delete %s: %w", e.Path, err)
			}
		case e.Regular() && (staging(e) || layoutFile(rel, e.Name) || (owned[rel] != nil && owned[rel](e.Name))):
			if err := fileio.DeleteWithin(ctx, s.fs, e.Path, s.root); err != nil {
				return false, fmt.Errorf("checkpoint: delete %s: %w", e.Path, err)
			}
			r.Deleted++
		default:
			r.Left = append(r.Left, e.Path)
			empty = false
		}
	}
	return empty, nil
}

// staging reports whether e is a staging file of an interrupted write (".name.uuid.tmp").
func staging(e fileio.FileInfo) bool {
	return e.Regular() && hidden(e.Name) && strings.HasSuffix(e.Name, ".tmp")
}

// layoutDir reports whether name is a directory of the store's layout inside directory rel.
func layoutDir(rel, name string, owned Owned) bool {
	parts := strings.Split(rel, "/")
	switch {
	case rel == "":
		return name == leaseDir || name == windowsDir || name == revisionDir || name == generationsDir || owned[name] != nil
	case rel == windowsDir, rel == generationsDir:
		_, ok := parseCanonical(name)
		return ok
	case len(parts) == 2 && parts[0] == windowsDir:
		a, ok := strings.CutPrefix(name, attemptPrefix)
		_, canon := parseCanonical(a)
		return ok && canon
	}
	return false
}

// layoutFile reports whether name is a record file of the store's layout inside directory rel.
func layoutFile(rel, name string) bool {
	parts := strings.Split(rel, "/")
	switch {
	case rel == "":
		return name == jobFile || name == planFile || name == doneFile
	case rel == leaseDir:
		_, ok := parseLeaseName(name)
		return ok
	case rel == revisionDir:
		_, ok := parseCanonical(name)
		return ok
	case len(parts) == 2 && parts[0] == windowsDir:
		return name == assignedFile || name == committedFile || name == publishedFile || name == voidedFile
	case len(parts) == 3 && parts[0] == windowsDir:
		return name == beginFile || (strings.HasSuffix(name, resultSuffix) && len(name) > len(resultSuffix))
	case len(parts) == 2 && parts[0] == generationsDir:
		return name == startFile || name == doneFile
	}
	return false
}
