package file

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/lakeload/lakeload/fileio"
)

// isRemote reports whether glob names an object-store location (s3://…) rather than a local path.
func isRemote(glob string) bool { return fileio.Scheme(glob) != "file" }

// globRemote expands an object-store glob such as s3://bucket/in/*/part-?.parquet through fs:
// it lists the prefix before the first element holding a glob metacharacter, then matches each
// further element with path.Match against the listed children, descending only into directories
// for all but the last element (as with filepath.Glob, a pattern never crosses a "/"). Matches keep
// the scheme and bucket as given. A glob without metacharacters names one object, if it exists. The
// bucket itself may not be a pattern.
func globRemote(ctx context.Context, fs fileio.FileIO, glob string) ([]string, error) {
	i := strings.Index(glob, "://")
	rest := glob[i+3:]
	bucket, key, _ := strings.Cut(rest, "/")
	if bucket == "" || hasMeta(bucket) {
		return nil, fmt.Errorf("input glob %q: name a bucket without wildcards (s3://bucket/prefix/*.parquet)", glob)
	}
	root := glob[:i+3] + bucket
	var elems []string
	for _, e := range strings.Split(key, "/") {
		if e != "" {
			elems = append(elems, e)
		}
	}
	for _, e := range elems {
		if _, err := path.Match(e, ""); err != nil {
			return nil, fmt.Errorf("input glob %q: element %q: %w", glob, e, err)
		}
	}
	first := len(elems)
	for k, e := range elems {
		if hasMeta(e) {
			first = k
			break
		}
	}
	base := fileio.Join(root, elems[:first]...)
	if first == len(elems) { // a plain object path, matching itself when it exists
		if ok, err := fileio.Exists(ctx, fs, base); err != nil || !ok {
			return nil, err
		}
		return []string{base}, nil
	}
	dirs := []string{base}
	for k := first; k < len(elems); k++ {
		last := k == len(elems)-1
		var next []string
		for _, dir := range dirs {
			children, err := fs.List(ctx, dir)
			if err != nil {
				return nil, fmt.Errorf("input glob %q: list %s: %w", glob, dir, err)
			}
			for _, c := range children {
				if ok, _ := path.Match(elems[k], c.Name); !ok || (!last && !c.IsDir) {
					continue
				}
				next = append(next, fileio.Join(dir, c.Name))
			}
		}
		dirs = next
	}
	return dirs, nil
}

// hasMeta reports whether a path element holds a path.Match metacharacter.
func hasMeta(e string) bool { return strings.ContainsAny(e, `*?[\`) }
