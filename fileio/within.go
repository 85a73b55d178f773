package fileio

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// ErrOutside is wrapped by the errors of DeleteWithin and DeleteAllWithin when they refuse a path:
// one outside every allowed root, or one reached through a symbolic link below the root.
var ErrOutside = errors.New("fileio: refusing to delete outside the allowed directory")

// LinkChecker is implemented by backends with symbolic links (fileio/local). LinkBelow returns the
// first path strictly below root, up to and including path's parent directory, that is a symbolic
// link or not a directory, or "" when there is none (a missing directory is none: nothing below it
// can be deleted). path lies below root (Within).
type LinkChecker interface {
	LinkBelow(ctx context.Context, root, path string) (string, error)
}

// Within returns the root of roots that path lies strictly below, by the text of the paths alone:
// path is root, "/", and one or more elements none of which is empty, "." or "..". A root's trailing
// slashes are ignored; an empty root admits nothing. ok is false when no root admits path.
func Within(path string, roots ...string) (root string, ok bool) {
	for _, r := range roots {
		r = strings.TrimRight(r, "/")
		if r == "" {
			continue
		}
		rest, found := strings.CutPrefix(path, r+"/")
		if !found || rest == "" {
			continue
		}
		clean := true
		for _, e := range strings.Split(rest, "/") {
			if e == "" || e == "." || e == ".." {
				clean = false
				break
			}
		}
		if clean {
			return r, true
		}
	}
	return "", false
}

// DeleteWithin deletes path (FileIO.Delete) only if it lies strictly below one of roots (Within) and,
// on a backend with symbolic links, no directory between that root and path is a link. Otherwise it
// deletes nothing and returns an error wrapping ErrOutside. It is the guard every delete of table and
// checkpoint files goes through, independent of how the path was computed.
func DeleteWithin(ctx context.Context, f FileIO, path string, roots ...string) error {
	if err := checkWithin(ctx, f, path, roots); err != nil {
		return err
	}
	return f.Delete(ctx, path)
}

// DeleteAllWithin is DeleteWithin for a directory tree (FileIO.DeleteAll).
func DeleteAllWithin(ctx context.Context, f FileIO, path string, roots ...string) error {
	if err := checkWithin(ctx, f, path, roots); err != nil {
		return err
	}
	return f.DeleteAll(ctx, path)
}

func checkWithin(ctx context.Context, f FileIO, path string, roots []string) error {
	root, ok := Within(path, roots...)
	if !ok {
		return fmt.Errorf("%w: %s is not below %s", ErrOutside, path, strings.Join(roots, " or "))
	}
	lc, ok := f.(LinkChecker)
	if !ok {
		return nil
	}
	link, err := lc.LinkBelow(ctx, root, path)
	if err != nil {
		return fmt.Errorf("check %s before deleting it: %w", path, err)
	}
	if link != "" {
		return fmt.Errorf("%w: %s is reached through %s, a symbolic link or not a directory", ErrOutside, path, link)
	}
	return nil
}
