package local

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/lakeload/lakeload/fileio"
)

var _ fileio.LinkChecker = (*FS)(nil)

// LinkBelow returns the first directory strictly below root, down to path's parent, that is a
// symbolic link or not a directory (lstat), or "" when there is none. A missing directory ends the
// walk with "": nothing below it exists to be deleted. The root itself may be a link (a warehouse
// may be reached through one). It is fileio.DeleteWithin's check that a delete stays below root.
func (*FS) LinkBelow(ctx context.Context, root, path string) (string, error) {
	r, err := osPath(ctx, root)
	if err != nil {
		return "", err
	}
	p, err := osPath(ctx, path)
	if err != nil {
		return "", err
	}
	rest, ok := strings.CutPrefix(p, r+string(filepath.Separator))
	if !ok {
		return p, nil // not below root after cleaning: refuse
	}
	dir := r
	elems := strings.Split(rest, string(filepath.Separator))
	for _, e := range elems[:len(elems)-1] {
		dir = filepath.Join(dir, e)
		st, err := os.Lstat(dir)
		if errors.Is(err, fs.ErrNotExist) {
			return "", nil
		}
		if err != nil {
			return "", fmt.Errorf("fileio/local: lstat: %w", err)
		}
		if !st.IsDir() { // a symbolic link (to a directory or not) or a file
			return dir, nil
		}
	}
	return "", nil
}
