package table

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
)

// ErrSnapshotExists is returned (wrapped) by CommitSnapshot when another writer created the same snapshot id first.
var ErrSnapshotExists = errors.New("paimon: snapshot already exists")

const (
	snapshotPrefix = "snapshot-"
	latestHint     = "LATEST"
	earliestHint   = "EARLIEST"
)

// Snapshots reads and creates the snapshot files of one table (Java SnapshotManager).
type Snapshots struct {
	fs    fileio.FileIO
	dir   string
	owner SnapshotOwner // nil: the snapshot files are the whole truth (filesystem catalog)
}

// NewSnapshots returns the snapshot manager of the table at tablePath.
func NewSnapshots(fs fileio.FileIO, tablePath string) *Snapshots {
	return &Snapshots{fs: fs, dir: fileio.Join(tablePath, "snapshot")}
}

// Path returns the path of snapshot-id.
func (m *Snapshots) Path(id int64) string {
	return fileio.Join(m.dir, snapshotPrefix+strconv.FormatInt(id, 10))
}

// Get reads snapshot id. A missing snapshot returns an error wrapping fileio.ErrNotExist.
func (m *Snapshots) Get(ctx context.Context, id int64) (*spec.Snapshot, error) {
	b, err := m.fs.ReadFile(ctx, m.Path(id))
	if err != nil {
		return nil, fmt.Errorf("read snapshot %d: %w", id, err)
	}
	s, err := spec.ParseSnapshot(b)
	if err != nil {
		return nil, fmt.Errorf("snapshot file %s: %w", m.Path(id), err)
	}
	if s.ID != id {
		return nil, fmt.Errorf("snapshot file %s holds id %d: %w", m.Path(id), s.ID, spec.ErrCorrupt)
	}
	if err := CheckSnapshotNames(s, fmt.Sprintf("snapshot %d", id)); err != nil {
		return nil, fmt.Errorf("snapshot file %s: %w", m.Path(id), err)
	}
	return s, nil
}

// IDs lists the ids of all snapshot files, ascending. Temporary files (starting with ".") are ignored.
func (m *Snapshots) IDs(ctx context.Context) ([]int64, error) {
	return listVersioned(ctx, m.fs, m.dir, snapshotPrefix)
}

// listVersioned returns the N of every file "<prefix>N" in dir, ascending (Java
// FileUtils.listVersionedFiles). Other names, temporary files included, are ignored.
func listVersioned(ctx context.Context, fs fileio.FileIO, dir, prefix string) ([]int64, error) {
	infos, err := fs.List(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	var ids []int64
	for _, fi := range infos {
		if fi.IsDir || !strings.HasPrefix(fi.Name, prefix) {
			continue
		}
		if id, err := strconv.ParseInt(strings.TrimPrefix(fi.Name, prefix), 10, 64); err == nil {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids, nil
}

func (m *Snapshots) readHint(ctx context.Context, name string) (int64, bool) {
	b, err := m.fs.ReadFile(ctx, fileio.Join(m.dir, name))
	if err != nil {
		return 0, false
	}
	id, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil || id <= 0 {
		return 0, false
	}
	return id, true
}

// LatestID returns the latest snapshot id, or ok=false when the table has no snapshot. The LATEST hint
// is trusted only when its snapshot exists, the next id does not, and it is not below the EARLIEST
// hint (a writer that woke up after its snapshot id had expired must not be able to move the table
// back by a stale hint); otherwise the directory is listed.
func (m *Snapshots) LatestID(ctx context.Context) (id int64, ok bool, err error) {
	if m.owner != nil {
		s, err := m.owner.LatestSnapshot(ctx)
		if err != nil || s == nil {
			return 0, false, err
		}
		return s.ID, true, nil
	}
	if h, ok := m.readHint(ctx, latestHint); ok {
		next, err := fileio.Exists(ctx, m.fs, m.Path(h+1))
		if err != nil {
			return 0, false, err
		}
		cur, err := fileio.Exists(ctx, m.fs, m.Path(h))
		if err != nil {
			return 0, false, err
		}
		if e, ok := m.readHint(ctx, earliestHint); !next && cur && (!ok || e <= h) {
			return h, true, nil
		}
	}
	ids, err := m.IDs(ctx)
	if err != nil || len(ids) == 0 {
		return 0, false, err
	}
	return ids[len(ids)-1], true, nil
}

// EarliestID returns the earliest snapshot id, or ok=false when the table has no snapshot.
func (m *Snapshots) EarliestID(ctx context.Context) (id int64, ok bool, err error) {
	if h, ok := m.readHint(ctx, earliestHint); ok {
		if exists, err := fileio.Exists(ctx, m.fs, m.Path(h)); err == nil && exists {
			return h, true, nil
		}
	}
	ids, err := m.IDs(ctx)
	if err != nil || len(ids) == 0 {
		return 0, false, err
	}
	return ids[0], true, nil
}

// Latest returns the latest snapshot or nil when the table has none.
func (m *Snapshots) Latest(ctx context.Context) (*spec.Snapshot, error) {
	if m.owner != nil {
		return m.owner.LatestSnapshot(ctx)
	}
	id, ok, err := m.LatestID(ctx)
	if err != nil || !ok {
		return nil, err
	}
	return m.Get(ctx, id)
}

// Commit atomically creates snapshot s.ID, built on snapshot s.ID-1 (the latest when it was planned).
// It returns an error wrapping ErrSnapshotExists when the id is taken, and also when the id had been
// taken and expired: a writer paused between planning and creating its snapshot may find the file
// gone because the snapshot that held the id (and its base) expired meanwhile; creating it would roll
// the table back to the base (snapshot ids reused, LATEST moved back). Snapshots expire oldest first,
// so a base that is gone after the create (or an EARLIEST hint above the id) means the id was reused:
// the file this call created is deleted again and the caller re-plans on the new latest snapshot.
// Any other error leaves the outcome unknown: the caller must look the commit up before retrying.
// On success the LATEST hint is rewritten (best effort: hints are advisory) unless a newer snapshot
// already exists; EARLIEST is written only with snapshot 1.
func (m *Snapshots) Commit(ctx context.Context, s *spec.Snapshot) error {
	if m.owner != nil {
		return m.commitThroughOwner(ctx, s)
	}
	b, err := s.JSON()
	if err != nil {
		return err
	}
	if reused, err := m.baseGone(ctx, s.ID); err != nil {
		return fmt.Errorf("create snapshot %d: %w", s.ID, err)
	} else if reused {
		return fmt.Errorf("snapshot %d: its base snapshot %d is gone (expired or rolled back since the commit was planned): %w",
			s.ID, s.ID-1, ErrSnapshotExists)
	}
	if err := m.fs.WriteIfAbsent(ctx, m.Path(s.ID), b); err != nil {
		if errors.Is(err, fileio.ErrExist) {
			return fmt.Errorf("snapshot %d: %w", s.ID, ErrSnapshotExists)
		}
		return fmt.Errorf("create snapshot %d: %w", s.ID, err)
	}
	if reused, err := m.baseGone(ctx, s.ID); err != nil {
		return fmt.Errorf("create snapshot %d (created; checking its base failed, outcome unknown): %w", s.ID, err)
	} else if reused {
		if err := fileio.DeleteWithin(ctx, m.fs, m.Path(s.ID), m.dir); err != nil {
			return fmt.Errorf("snapshot %d reused an expired id and could not be deleted again (delete %s by hand): %w", s.ID, m.Path(s.ID), err)
		}
		return fmt.Errorf("snapshot %d: the id had expired while the commit was paused (its base snapshot %d is gone); undone: %w",
			s.ID, s.ID-1, ErrSnapshotExists)
	}
	if newer, err := fileio.Exists(ctx, m.fs, m.Path(s.ID+1)); err == nil && !newer {
		_ = fileio.WriteFile(ctx, m.fs, fileio.Join(m.dir, latestHint), []byte(strconv.FormatInt(s.ID, 10)))
	}
	// EARLIEST is only certain for the first snapshot: a table written by Java has no EARLIEST until
	// its first expiration, and EARLIEST=N there would hide snapshots 1..N-1 from readers and expiry.
	if s.ID == 1 {
		if _, ok := m.readHint(ctx, earliestHint); !ok {
			_ = fileio.WriteFile(ctx, m.fs, fileio.Join(m.dir, earliestHint), []byte("1"))
		}
	}
	return nil
}

// baseGone reports whether snapshot id cannot be (or could not have been) built on the latest
// snapshot: its base id-1 does not exist, or the EARLIEST hint lies above id. For id 1 (no base) it
// reports whether a later snapshot exists.
func (m *Snapshots) baseGone(ctx context.Context, id int64) (bool, error) {
	if e, ok := m.readHint(ctx, earliestHint); ok && e > id {
		return true, nil
	}
	if id == 1 {
		return fileio.Exists(ctx, m.fs, m.Path(2))
	}
	exists, err := fileio.Exists(ctx, m.fs, m.Path(id-1))
	return !exists, err
}

// CommitQuery identifies a commit: Paimon's (commitUser, commitIdentifier, commitKind).
type CommitQuery struct {
	User       string
	Identifier int64
	Kind       spec.CommitKind
}

// FindCommit scans snapshots newer than afterID, newest first, for one matching q. It returns nil when
// none matches. Bounded by snapshot id, never by time.
func (m *Snapshots) FindCommit(ctx context.Context, q CommitQuery, afterID int64) (*spec.Snapshot, error) {
	all, err := m.FindCommits(ctx, q, afterID)
	if err != nil || len(all) == 0 {
		return nil, err
	}
	return all[len(all)-1], nil
}

// FindCommits returns every snapshot newer than afterID matching q, ascending by id. A snapshot that
// expires while the scan runs is skipped: a caller that must know the scan saw every snapshot reads
// EarliestID after it (a snapshot that expired then lies below the earliest).
func (m *Snapshots) FindCommits(ctx context.Context, q CommitQuery, afterID int64) ([]*spec.Snapshot, error) {
	all, err := m.CommitsOfUser(ctx, q.User, afterID)
	if err != nil {
		return nil, err
	}
	var out []*spec.Snapshot
	for _, s := range all {
		if s.CommitIdentifier == q.Identifier && (q.Kind == "" || s.CommitKind == q.Kind) {
			out = append(out, s)
		}
	}
	return out, nil
}

// CommitsOfUser returns every snapshot newer than afterID committed by user, ascending by id, with
// FindCommits' rule for snapshots that expire during the scan.
func (m *Snapshots) CommitsOfUser(ctx context.Context, user string, afterID int64) ([]*spec.Snapshot, error) {
	ids, err := m.idsAfter(ctx, afterID)
	if err != nil {
		return nil, err
	}
	var out []*spec.Snapshot
	for _, id := range ids {
		if id <= afterID {
			continue
		}
		s, err := m.Get(ctx, id)
		if err != nil {
			if errors.Is(err, fileio.ErrNotExist) {
				continue // expired while scanning
			}
			return nil, err
		}
		if s.CommitUser == user {
			out = append(out, s)
		}
	}
	return out, nil
}

// LatestOfUser returns the newest snapshot committed by user (Java SnapshotManager.latestSnapshotOfUser), or nil.
func (m *Snapshots) LatestOfUser(ctx context.Context, user string) (*spec.Snapshot, error) {
	ids, err := m.IDs(ctx)
	if err != nil {
		return nil, err
	}
	for i := len(ids) - 1; i >= 0; i-- {
		s, err := m.Get(ctx, ids[i])
		if err != nil {
			if errors.Is(err, fileio.ErrNotExist) {
				continue
			}
			return nil, err
		}
		if s.CommitUser == user {
			return s, nil
		}
	}
	return nil, nil
}
