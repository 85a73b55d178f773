package table

import (
	"context"
	"errors"
	"fmt"

	"github.com/lakeload/lakeload/paimon/spec"
)

// ErrCommitRefused is returned (wrapped) by an owner's CommitSnapshot when the service refused the request
// before acting on it (a 4xx answer: unknown table, bad request, no permission): the snapshot was certainly
// not created, and sending it again would be refused again.
var ErrCommitRefused = errors.New("paimon: the catalog refused the commit")

// SnapshotOwner is a catalog service that owns a table's snapshots (the Paimon REST catalog's commit and
// snapshot endpoints): it creates each snapshot file itself and is the authority on the latest snapshot.
// Readers of such a table ask it for the latest snapshot; older snapshots, manifests and data files are
// read from the table's files as usual. lakeload never writes snapshot-N or LATEST of an owned table: a
// snapshot file written beside the owner is invisible to the owner's readers and breaks its next commit.
type SnapshotOwner interface {
	// LatestSnapshot returns the owner's latest snapshot, nil when the table has none.
	LatestSnapshot(ctx context.Context) (*spec.Snapshot, error)
	// CommitSnapshot asks the owner to create s, built on snapshot s.ID-1. nil: s was created. An error
	// wrapping ErrSnapshotExists: the owner refused it because another snapshot holds the id (nothing
	// was created; re-plan). An error wrapping ErrCommitRefused: refused for another reason, not created,
	// not worth retrying. Any other error: the outcome is unknown (the request may have been carried
	// out); the caller must look the commit up before trying again, never resend blindly.
	CommitSnapshot(ctx context.Context, s *spec.Snapshot) error
	// String names the owner in messages, e.g. "REST catalog http://host:8080/ (warehouse w)".
	String() string
}

// commitThroughOwner creates s through the table's owner once the owner's latest snapshot is s's base
// s.ID-1. Like the file commit's base check, this keeps a writer that paused between planning and
// committing from recreating an id that was taken and expired meanwhile (Java's REST server only checks
// that snapshot-N is absent, so it would accept it and move the table back). The check cannot be undone
// afterwards (only the owner may delete a snapshot), so the window left is the request itself.
func (m *Snapshots) commitThroughOwner(ctx context.Context, s *spec.Snapshot) error {
	latest, err := m.owner.LatestSnapshot(ctx)
	if err != nil {
		return fmt.Errorf("create snapshot %d: latest snapshot of %s: %w", s.ID, m.owner, err)
	}
	var latestID int64
	if latest != nil {
		latestID = latest.ID
	}
	if latestID != s.ID-1 {
		return fmt.Errorf("snapshot %d: %s has latest snapshot %d, not its base %d: %w", s.ID, m.owner, latestID, s.ID-1, ErrSnapshotExists)
	}
	if err := m.owner.CommitSnapshot(ctx, s); err != nil {
		return fmt.Errorf("create snapshot %d through %s: %w", s.ID, m.owner, err)
	}
	return nil
}
