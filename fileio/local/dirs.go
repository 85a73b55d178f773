package local

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// mkdirAll creates dir and its missing parents, fsyncing each parent after a child directory
// entry was added so the new path is durable. It tolerates concurrent creators.
func mkdirAll(dir string) error {
	st, err := os.Stat(dir)
	if err == nil {
		if !st.IsDir() {
			return fmt.Errorf("fileio/local: mkdir %s: %w", dir, errNotDir)
		}
		return nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("fileio/local: mkdir: %w", err)
	}
	parent := filepath.Dir(dir)
	if parent != dir {
		if err := mkdirAll(parent); err != nil {
			return err
		}
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		if errors.Is(err, fs.ErrExist) {
			if st, serr := os.Stat(dir); serr == nil && st.IsDir() {
				return nil // created concurrently
			}
		}
		return fmt.Errorf("fileio/local: mkdir: %w", err)
	}
	return syncDir(parent)
}

var errNotDir = errors.New("not a directory")

// syncDir fsyncs a directory so that entries added, renamed or removed in it are durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("fileio/local: sync dir: %w", err)
	}
	serr := d.Sync()
	cerr := d.Close()
	if serr != nil {
		return fmt.Errorf("fileio/local: sync dir %s: %w", dir, serr)
	}
	if cerr != nil {
		return fmt.Errorf("fileio/local: sync dir %s: %w", dir, cerr)
	}
	return nil
}
