package local

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/lakeload/lakeload/fileio"
)

// WriteIfAbsent creates path with data only if nothing exists there, atomically across threads and
// processes: the bytes go to an fsynced temp file which is then hard-linked to path (link(2) fails
// with EEXIST if path exists). On file systems without hard links it falls back to
// renameat2(RENAME_NOREPLACE); if neither is available it fails rather than risk a double publish.
// The loser gets an error wrapping fileio.ErrExist that names path.
func (*FS) WriteIfAbsent(ctx context.Context, path string, data []byte) error {
	p, err := osPath(ctx, path)
	if err != nil {
		return err
	}
	f, err := createTemp(p)
	if err != nil {
		return err
	}
	tmp := f.Name()
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		_ = os.Remove(tmp)
		return fmt.Errorf("fileio/local: write-if-absent %s: %w", p, err)
	}
	if err := finishTemp(f, nil); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("fileio/local: write-if-absent %s: %w", p, err)
	}
	if err := publishNoReplace(tmp, p); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	return syncDir(filepath.Dir(p))
}

// publishNoReplace makes tmp visible as final unless final exists; tmp is gone afterwards on success.
func publishNoReplace(tmp, final string) error {
	err := os.Link(tmp, final)
	if err == nil {
		if err := os.Remove(tmp); err != nil {
			return fmt.Errorf("fileio/local: write-if-absent %s: published, but removing temp: %w", final, err)
		}
		return nil
	}
	if errors.Is(err, fs.ErrExist) {
		return existErr(final)
	}
	if !linkUnsupported(err) {
		return fmt.Errorf("fileio/local: write-if-absent: %w", err)
	}
	rerr := renameNoReplace(tmp, final)
	if rerr == nil {
		return nil
	}
	if errors.Is(rerr, fs.ErrExist) {
		return existErr(final)
	}
	return fmt.Errorf("fileio/local: write-if-absent %s: no atomic no-replace publish on this file system (link: %v; renameat2: %w)", final, err, rerr)
}

func existErr(final string) error {
	return fmt.Errorf("fileio/local: %w", &fs.PathError{Op: "write-if-absent", Path: final, Err: fileio.ErrExist})
}
