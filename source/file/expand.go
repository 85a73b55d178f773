package file

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/lakeload/lakeload/fileio"
)

// Recursive inputs: a directory (every file under it) and a glob with a "**" element (any number of
// directories, zero included). Both are walked through the FileIO's List, on local disks and object
// stores alike, with the same rules:
//
//   - Hidden names are skipped: a file or directory whose name starts with "." or "_" (_SUCCESS,
//     _temporary/, .crc files, .staging/) is neither loaded nor descended into, as pyarrow.dataset
//     (ignore_prefixes [".", "_"]) and Spark's file index do. A pattern element that itself starts
//     with "." or "_" names such entries on purpose and matches them (data/_staging/**).
//   - A symbolic link to a directory met during the walk is refused, naming it: following it could
//     loop or leave the directory, and skipping it would leave its files out silently. A link to a
//     file is followed like any input file (and must be regular, checkRegular).
//   - The result is sorted by path (byte order), like every plan.

// hasDoubleStar reports whether a pattern holds "**" (which must be a whole element, splitPattern).
func hasDoubleStar(pattern string) bool { return strings.Contains(pattern, "**") }

// hidden reports whether a file or directory name is skipped while walking.
func hidden(name string) bool { return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") }

// splitPattern splits a "**" pattern into its root (the elements before the first one holding a
// metacharacter, with the scheme and bucket of an object-store path) and the elements to match.
func splitPattern(pattern string) (root string, elems []string, err error) {
	var prefix string
	rest := pattern
	if isRemote(pattern) {
		i := strings.Index(pattern, "://")
		bucket, key, _ := strings.Cut(pattern[i+3:], "/")
		if bucket == "" || hasMeta(bucket) {
			return "", nil, fmt.Errorf("input glob %q: name a bucket without wildcards (s3://bucket/prefix/**/*.parquet)", pattern)
		}
		prefix, rest = pattern[:i+3]+bucket, key
	} else if strings.HasPrefix(rest, "/") {
		prefix = "/"
	}
	var all []string
	for _, e := range strings.Split(rest, "/") {
		if e == "" || e == "." {
			continue
		}
		if strings.Contains(e, "**") && e != "**" {
			return "", nil, fmt.Errorf("input glob %q: element %q: ** must be a whole path element (data/**/*.parquet)", pattern, e)
		}
		if _, err := path.Match(e, ""); err != nil {
			return "", nil, fmt.Errorf("input glob %q: element %q: %w", pattern, e, err)
		}
		all = append(all, e)
	}
	first := len(all)
	for k, e := range all {
		if hasMeta(e) {
			first = k
			break
		}
	}
	root = prefix
	for _, e := range all[:first] {
		root = fileio.Join(root, e)
	}
	if root == "" {
		root = "."
	}
	return root, all[first:], nil
}

// matchElems reports whether the path elements names match the pattern elements pat, where "**"
// matches any number of elements (none included) that are not hidden, and a wildcard element
// matches a hidden name only when the element itself starts with the same character.
func matchElems(pat, names []string) bool {
	if len(pat) == 0 {
		return len(names) == 0
	}
	if pat[0] == "**" {
		for k := 0; k <= len(names); k++ {
			if matchElems(pat[1:], names[k:]) {
				return true
			}
			if k < len(names) && hidden(names[k]) {
				return false
			}
		}
		return false
	}
	return len(names) > 0 && matchElem(pat[0], names[0]) && matchElems(pat[1:], names[1:])
}

func matchElem(pat, name string) bool {
	if hidden(name) && pat[0] != name[0] {
		return false
	}
	ok, _ := path.Match(pat, name)
	return ok
}

// mayDescend reports whether a directory reached by the elements names could hold a match of pat.
func mayDescend(pat, names []string) bool {
	if len(names) == 0 {
		return true
	}
	if len(pat) == 0 {
		return false
	}
	if pat[0] == "**" {
		return mayDescend(pat[1:], names) || !hidden(names[0]) && mayDescend(pat, names[1:])
	}
	return matchElem(pat[0], names[0]) && mayDescend(pat[1:], names[1:])
}

// walk lists every file under root whose path elements below root match pat (a directory input is
// pat = ["**", "*"]). Local roots are made absolute first. A listed symbolic link to a directory is
// an error; the walk never follows one.
func walk(ctx context.Context, fsys fileio.FileIO, input, root string, pat []string) ([]string, error) {
	if !isRemote(root) {
		abs, err := filepath.Abs(root)
		if err != nil {
			return nil, fmt.Errorf("input %s: %w", input, err)
		}
		root = filepath.ToSlash(abs)
	}
	var out []string
	var visit func(dir string, names []string) error
	visit = func(dir string, names []string) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		children, err := fsys.List(ctx, dir)
		if err != nil {
			return fmt.Errorf("input %s: list %s: %w", input, dir, err)
		}
		for _, c := range children {
			sub := append(names[:len(names):len(names)], c.Name)
			p := fileio.Join(dir, c.Name)
			if c.IsDir {
				if !mayDescend(pat, sub) {
					continue
				}
				if c.Type&fs.ModeSymlink != 0 {
					return fmt.Errorf("input %s: %s is a symbolic link to a directory: lakeload does not follow links while walking a directory "+
						"(one can loop or lead outside it, and skipping it would leave its files out): replace the link by the directory, or name its target in --from",
						input, p)
				}
				if err := visit(p, sub); err != nil {
					return err
				}
				continue
			}
			if matchElems(pat, sub) {
				out = append(out, p)
			}
		}
		return nil
	}
	if err := visit(root, nil); err != nil {
		return nil, err
	}
	return out, nil
}

// expandInput returns the files an input names: the matches of a glob (path/filepath.Glob locally,
// globRemote on an object store; matched directories are left out), every file under a directory
// named without wildcards, or the matches of a "**" glob (walk). recursive says the input was walked.
func expandInput(ctx context.Context, fsys fileio.FileIO, input string) (matches []string, recursive bool, err error) {
	if hasDoubleStar(input) {
		root, pat, err := splitPattern(input)
		if err != nil {
			return nil, true, err
		}
		m, err := walk(ctx, fsys, input, root, pat)
		return m, true, err
	}
	if !strings.ContainsAny(input, "*?[") {
		if info, err := fsys.Stat(ctx, localOrRemote(input)); err == nil && info.IsDir {
			root := strings.TrimRight(input, "/")
			if root == "" || strings.HasSuffix(root, ":/") {
				root = input
			}
			m, err := walk(ctx, fsys, input, root, []string{"**", "*"})
			return m, true, err
		}
	}
	if isRemote(input) {
		m, err := globRemote(ctx, fsys, input)
		return m, false, err
	}
	m, err := filepath.Glob(input)
	if err != nil {
		return nil, false, fmt.Errorf("input glob %q: %w", input, err)
	}
	return m, false, nil
}

// localOrRemote returns an object-store path as given and a local one absolute (as FileIO wants).
func localOrRemote(p string) string {
	if isRemote(p) {
		return p
	}
	if abs, err := filepath.Abs(p); err == nil {
		return filepath.ToSlash(abs)
	}
	return p
}
