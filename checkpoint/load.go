package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/lakeload/lakeload/fileio"
)

// Load reads every record of the store and returns the checked State. An unreachable store is an
// error (never an empty state); a torn, corrupt, misplaced or unknown file is an error wrapping
// ErrCorrupt naming its path. Hidden staging files (".name…tmp") of interrupted writes are ignored.
func (s *Store) Load(ctx context.Context) (State, error) {
	checked := make(map[resultKey]bool)
	rs, err := s.readRecords(ctx, checked)
	if err != nil {
		return State{}, err
	}
	return buildState(rs, checked)
}

// ReadRecords reads every record without the cross-record checks of BuildState.
func (s *Store) ReadRecords(ctx context.Context) (Records, error) {
	return s.readRecords(ctx, nil)
}

// readRecords is ReadRecords; it adds to checked (if not nil) the results whose digest was checked
// when they were first decoded.
func (s *Store) readRecords(ctx context.Context, checked map[resultKey]bool) (Records, error) {
	var rs Records
	var err error
	if rs.Job, err = readOptional[JobRecord](ctx, s, fileio.Join(s.root, jobFile), kindJob); err != nil {
		return rs, err
	}
	if rs.Plan, err = readOptional[PlanRecord](ctx, s, fileio.Join(s.root, planFile), kindPlan); err != nil {
		return rs, err
	}
	if rs.Done, err = readOptional[DoneRecord](ctx, s, fileio.Join(s.root, doneFile), kindDone); err != nil {
		return rs, err
	}
	if err := s.readRevisions(ctx, &rs); err != nil {
		return rs, err
	}
	if err := s.readGenerations(ctx, &rs); err != nil {
		return rs, err
	}
	dir := fileio.Join(s.root, windowsDir)
	err = s.readNumbered(ctx, dir, true, 1, math.MaxInt64, "a window directory", func(w int64, _ fileio.FileInfo) error {
		return s.readWindow(ctx, w, &rs, checked)
	})
	return rs, err
}

func (s *Store) readWindow(ctx context.Context, w int64, rs *Records, checked map[resultKey]bool) error {
	entries, err := s.listVisible(ctx, s.windowDir(w))
	if err != nil {
		return err
	}
	for _, e := range entries {
		var err error
		switch {
		case e.Name == assignedFile && !e.IsDir:
			err = readInto(ctx, s, e, kindAssigned, &rs.Assigned, func(a Assigned) bool { return a.Window == w })
		case e.Name == committedFile && !e.IsDir:
			err = readInto(ctx, s, e, kindCommitted, &rs.Committed, func(c Committed) bool { return c.Window == w })
		case e.Name == publishedFile && !e.IsDir:
			err = readInto(ctx, s, e, kindPublished, &rs.Published, func(p Published) bool { return p.Window == w })
		case e.Name == voidedFile && !e.IsDir:
			err = readInto(ctx, s, e, kindVoided, &rs.Voided, func(v Voided) bool { return v.Window == w })
		case strings.HasPrefix(e.Name, attemptPrefix) && e.IsDir:
			a, ok := parseCanonical(strings.TrimPrefix(e.Name, attemptPrefix))
			if !ok || a > 1<<30 {
				return corruptf(e.Path, "unexpected directory in window %d", w)
			}
			err = s.readAttempt(ctx, w, int(a), rs, checked)
		default:
			return corruptf(e.Path, "unexpected entry in window %d", w)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) readAttempt(ctx context.Context, w int64, a int, rs *Records, checked map[resultKey]bool) error {
	entries, err := s.listVisible(ctx, s.attemptDir(w, a))
	if err != nil {
		return err
	}
	for _, e := range entries {
		var err error
		switch {
		case e.IsDir:
			return corruptf(e.Path, "unexpected directory in attempt %d of window %d", a, w)
		case e.Name == beginFile:
			err = readInto(ctx, s, e, kindAttempt, &rs.Starts, func(b AttemptStart) bool { return b.Window == w && b.Attempt == a })
		case strings.HasSuffix(e.Name, resultSuffix):
			task := strings.TrimSuffix(e.Name, resultSuffix)
			err = readResult(ctx, s, e, rs, checked, func(r TaskResult) bool {
				return r.Window == w && r.Attempt == a && r.TaskID == task
			})
		default:
			return corruptf(e.Path, "unexpected file in attempt %d of window %d", a, w)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// readOptional reads one record; a missing file is nil, no error.
func readOptional[T any](ctx context.Context, s *Store, path, kind string) (*T, error) {
	b, err := s.fs.ReadFile(ctx, path)
	if errors.Is(err, fileio.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("checkpoint: read %s: %w", path, err)
	}
	v := new(T)
	if err := decodeRecord(path, kind, b, v); err != nil {
		return nil, err
	}
	return v, nil
}

// readInto reads the record e lists (from the Store's cache when e is unchanged since it was read),
// checks that its identity matches the path, and appends it.
func readInto[T any](ctx context.Context, s *Store, e fileio.FileInfo, kind string, dst *[]T, belongs func(T) bool) error {
	v, _, err := readCached(ctx, s, e, kind, belongs)
	if err != nil {
		return err
	}
	*dst = append(*dst, v)
	return nil
}

// readResult is readInto for a task result; it also notes in checked (if not nil) a result whose
// digest was checked when it was first decoded (Load's BuildState then does not hash it again).
func readResult(ctx context.Context, s *Store, e fileio.FileInfo, rs *Records, checked map[resultKey]bool, belongs func(TaskResult) bool) error {
	v, ok, err := readCached(ctx, s, e, kindResult, belongs)
	if err != nil {
		return err
	}
	if ok && checked != nil {
		checked[keyOf(v)] = true
	}
	rs.Results = append(rs.Results, v)
	return nil
}

// readCached returns the record e lists, decoded now or earlier (record_cache.go). checked reports
// a task result whose digest matched its content when it was decoded.
func readCached[T any](ctx context.Context, s *Store, e fileio.FileInfo, kind string, belongs func(T) bool) (v T, checked bool, err error) {
	if c, ok := s.cache.get(e); ok {
		if v, ok := c.v.(T); ok {
			return v, c.checked, nil
		}
	}
	path := e.Path
	readAt := time.Now()
	p, err := readOptional[T](ctx, s, path, kind)
	if err != nil {
		return v, false, err
	}
	if p == nil {
		return v, false, fmt.Errorf("checkpoint: %s vanished while loading: %w", path, fileio.ErrNotExist)
	}
	if !belongs(*p) {
		return v, false, corruptf(path, "record names another window, attempt, task or plan revision than its path")
	}
	if r, ok := any(*p).(TaskResult); ok {
		d, err := ResultDigest(r)
		checked = err == nil && d == r.Digest
	}
	s.cache.put(e, readAt, *p, checked)
	return *p, checked, nil
}
