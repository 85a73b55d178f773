package checkpoint

import (
	"context"
	"fmt"

	"github.com/lakeload/lakeload/fileio"
)

// listVisible lists dir without the hidden staging files of interrupted writes.
func (s *Store) listVisible(ctx context.Context, dir string) ([]fileio.FileInfo, error) {
	entries, err := s.fs.List(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: list %s: %w", dir, err)
	}
	visible := entries[:0:0]
	for _, e := range entries {
		if !hidden(e.Name) {
			visible = append(visible, e)
		}
	}
	return visible, nil
}

// readNumbered calls read, in listing order, for every visible entry of dir, each of which must be
// named by a canonical number n with lo ≤ n ≤ hi and be a directory exactly when isDir; any other
// entry is corrupt, reported as not being what (e.g. "a window directory").
func (s *Store) readNumbered(ctx context.Context, dir string, isDir bool, lo, hi int64, what string, read func(n int64, e fileio.FileInfo) error) error {
	entries, err := s.listVisible(ctx, dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		n, ok := parseCanonical(e.Name)
		if !ok || e.IsDir != isDir || n < lo || n > hi {
			return corruptf(e.Path, "unexpected entry in %s (not %s)", dir, what)
		}
		if err := read(n, e); err != nil {
			return err
		}
	}
	return nil
}
