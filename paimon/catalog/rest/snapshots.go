package rest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

var timeZero = time.Unix(0, 0)

// owner is the table.SnapshotOwner of a table loaded from the catalog.
type owner struct {
	c    *Catalog
	id   catalog.Identifier
	uuid string // the table id the server gave; commits name it
}

var _ table.SnapshotOwner = (*owner)(nil)

func (o *owner) String() string { return fmt.Sprintf("%s, table %s", o.c, o.id) }

// LatestSnapshot reads GET …/tables/{t}/snapshot; the server's "no snapshot" (404, resource SNAPSHOT) is nil.
func (o *owner) LatestSnapshot(ctx context.Context) (*spec.Snapshot, error) {
	var r struct {
		Snapshot *struct {
			Snapshot json.RawMessage `json:"snapshot"`
		} `json:"snapshot"`
	}
	err := o.c.call(ctx, http.MethodGet, o.c.tablePath(o.id)+"/snapshot", nil, nil, &r)
	var he *Error
	if errors.As(err, &he) && he.Status == http.StatusNotFound && he.ResourceType == "SNAPSHOT" {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if r.Snapshot == nil || len(r.Snapshot.Snapshot) == 0 || string(r.Snapshot.Snapshot) == "null" {
		return nil, nil
	}
	s, err := spec.ParseSnapshot(r.Snapshot.Snapshot)
	if err != nil {
		return nil, fmt.Errorf("REST catalog: latest snapshot of %s: %w", o.id, err)
	}
	return s, nil
}

// CommitSnapshot sends POST …/tables/{t}/commit {tableId, snapshot, statistics} once. {"success":false}
// means another snapshot holds the id (table.ErrSnapshotExists); a transport error, a timeout or a 5xx
// leave the outcome unknown and are returned as they are, for the caller's lookup.
func (o *owner) CommitSnapshot(ctx context.Context, s *spec.Snapshot) error {
	b, err := s.JSON()
	if err != nil {
		return err
	}
	body := map[string]any{"tableId": o.uuid, "snapshot": json.RawMessage(b), "statistics": []any{}}
	var r struct {
		Success *bool `json:"success"`
	}
	if err := o.c.call(ctx, http.MethodPost, o.c.tablePath(o.id)+"/commit", nil, body, &r); err != nil {
		var he *Error
		if errors.As(err, &he) && he.Status >= 400 && he.Status < 500 && he.Status != http.StatusRequestTimeout && he.Status != http.StatusTooManyRequests {
			// Refused before acting (bad request, unknown table, auth): certainly not created.
			return fmt.Errorf("%w: %w", table.ErrCommitRefused, err)
		}
		return err
	}
	if r.Success == nil {
		return fmt.Errorf("REST catalog: commit of snapshot %d to %s: the answer has no \"success\" (outcome unknown)", s.ID, o.id)
	}
	if !*r.Success {
		return fmt.Errorf("REST catalog refused snapshot %d of %s: %w", s.ID, o.id, table.ErrSnapshotExists)
	}
	return nil
}
