package maintain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

const consumerPrefix = "consumer-"

// Consumer is one consumer file, <table>/consumer/consumer-<ID> = {"nextSnapshot": N}: its reader
// still needs snapshot NextSnapshot and later (Java Consumer).
type Consumer struct {
	ID           string
	NextSnapshot int64
	ModTime      time.Time
}

// Consumers lists the table's consumer files, ascending by ID. A file that is not a consumer
// record is an error wrapping spec.ErrCorrupt that names it.
func Consumers(ctx context.Context, t *table.Table) ([]Consumer, error) {
	dir := fileio.Join(t.Path, "consumer")
	infos, err := t.FS.List(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("list consumers %s: %w", dir, err)
	}
	var out []Consumer
	for _, fi := range infos {
		if fi.IsDir || !strings.HasPrefix(fi.Name, consumerPrefix) {
			continue
		}
		b, err := t.FS.ReadFile(ctx, fi.Path)
		if errors.Is(err, fileio.ErrNotExist) {
			continue // deleted meanwhile
		}
		if err != nil {
			return nil, fmt.Errorf("read consumer %s: %w", fi.Path, err)
		}
		var c struct {
			NextSnapshot *int64 `json:"nextSnapshot"`
		}
		if err := json.Unmarshal(b, &c); err != nil || c.NextSnapshot == nil {
			return nil, fmt.Errorf("consumer file %s is not {\"nextSnapshot\": N}: %w (delete it if its reader is gone)", fi.Path, spec.ErrCorrupt)
		}
		out = append(out, Consumer{ID: strings.TrimPrefix(fi.Name, consumerPrefix), NextSnapshot: *c.NextSnapshot, ModTime: fi.ModTime})
	}
	return out, nil
}

// consumerPath is the file of consumer id.
func consumerPath(t *table.Table, id string) string {
	return fileio.Join(t.Path, "consumer", consumerPrefix+id)
}

// expiredConsumer reports whether c was last modified before now-exp (Java ConsumerManager.expire);
// exp 0 means consumers never expire.
func expiredConsumer(c Consumer, now time.Time, exp time.Duration) bool {
	return exp > 0 && c.ModTime.Before(now.Add(-exp))
}
