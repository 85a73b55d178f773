package task

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/source"
)

// QuarantineSubdir is the directory, inside the checkpoint store's root, holding quarantine files.
// checkpoint.Store.Load reads named records only, so it ignores this directory.
const QuarantineSubdir = "quarantine"

// QuarantinePath is the file listing the rows task left out in attempt a of window w: one JSON
// object (source.Rejected) per line. Each attempt has files of its own, so a recomputed attempt
// never duplicates entries; only the committed attempt's files (Published.Attempt) count.
func QuarantinePath(store *checkpoint.Store, w int64, a int, task string) string {
	return fileio.Join(store.Root(), QuarantineSubdir,
		"window-"+strconv.FormatInt(w, 10)+"-attempt-"+strconv.Itoa(a)+"-"+task+".jsonl")
}

// IsQuarantineFile reports whether name is a quarantine file's name (QuarantinePath).
func IsQuarantineFile(name string) bool {
	return strings.HasPrefix(name, "window-") && strings.HasSuffix(name, ".jsonl")
}

// QuarantineDir is the directory of a store's quarantine files.
func QuarantineDir(store *checkpoint.Store) string {
	return fileio.Join(store.Root(), QuarantineSubdir)
}

// WriteQuarantine creates the quarantine file of one task's attempt before its result is stored, so
// a stored result's Quarantined count always has its file. A task writes the same rows on every run
// of the same attempt, so an existing file with the same content is accepted.
func WriteQuarantine(ctx context.Context, store *checkpoint.Store, w int64, a int, task string, rows []source.Rejected) error {
	if len(rows) == 0 {
		return nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, r := range rows {
		if err := enc.Encode(r); err != nil {
			return fmt.Errorf("quarantine of window %d: row %d of %s: %w", w, r.Row, r.File, err)
		}
	}
	path := QuarantinePath(store, w, a, task)
	err := store.FS().WriteIfAbsent(ctx, path, buf.Bytes())
	if errors.Is(err, fileio.ErrExist) {
		old, rerr := store.FS().ReadFile(ctx, path)
		if rerr == nil && bytes.Equal(old, buf.Bytes()) {
			return nil
		}
		return fmt.Errorf("quarantine file %s exists with other content: another runner ran this attempt; stop it and run the load again", path)
	}
	if err != nil {
		return fmt.Errorf("write quarantine file %s: %w", path, err)
	}
	return nil
}
