package table

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
)

// OptDataFileExternalPaths is Java's data-file.external-paths: comma-separated root directories
// that data files may be written to instead of the table directory. A data file's external path
// (DataFileMeta.externalPath) is accepted only below one of them.
const OptDataFileExternalPaths = spec.OptDataFileExternalPaths

// Table directories whose files metadata names by file name.
const (
	DirManifest   = "manifest"   // manifest lists, manifests and index manifests
	DirIndex      = "index"      // index files (HASH, deletion vectors)
	DirStatistics = "statistics" // statistics files
)

// PathError is a file name or external path in table metadata that names no file of the table: a
// name that is not a single path element, or an external path outside every data-file.external-paths
// root. It wraps spec.ErrCorrupt. Nothing is read, written or deleted at such a path.
type PathError struct {
	Where  string // the metadata that holds the name: "snapshot 7 (baseManifestList)", "manifest manifest-…-0", …
	Name   string // the name or external path as stored
	Reason string // why it is refused
}

func (e *PathError) Error() string {
	return fmt.Sprintf("%s names %q, which %s: %v (the table's metadata was edited or damaged; lakeload touches no file "+
		"outside the table: restore that metadata file from a backup, or ask whoever writes the table)", e.Where, e.Name, e.Reason, spec.ErrCorrupt)
}

// Unwrap returns spec.ErrCorrupt.
func (e *PathError) Unwrap() error { return spec.ErrCorrupt }

// resolve is the one place where a file name read from table metadata becomes a path. name must be
// a single path element: not empty, ".", "..", and without "/", "\" or NUL. The file is dir/name, or
// external when that is set (not ""): then external must lie below one of roots (the table's
// data-file.external-paths), by the text of the path alone, and end in "/"+name. Anything else is a
// *PathError naming where.
func resolve(dir, name string, external *string, roots []string, where string) (string, error) {
	if why := badElement(name); why != "" {
		return "", &PathError{Where: where, Name: name, Reason: why}
	}
	if external == nil || *external == "" {
		return fileio.Join(dir, name), nil
	}
	ext := *external
	for _, r := range roots {
		rest, ok := strings.CutPrefix(ext, r+"/")
		if !ok {
			continue
		}
		clean := true
		for _, e := range strings.Split(rest, "/") {
			if badElement(e) != "" {
				clean = false
			}
		}
		if !clean {
			continue
		}
		if !strings.HasSuffix(rest, "/"+name) && rest != name {
			return "", &PathError{Where: where, Name: ext, Reason: "is an external path that does not end in its file name " + strconv.Quote(name)}
		}
		return ext, nil
	}
	if len(roots) == 0 {
		return "", &PathError{Where: where, Name: ext, Reason: "is an external path, but the table sets no " + OptDataFileExternalPaths}
	}
	return "", &PathError{Where: where, Name: ext, Reason: "is an external path not below a root of " + OptDataFileExternalPaths + " (" + strings.Join(roots, ",") + ")"}
}

// badElement says why name is not a single path element, or "" when it is one.
func badElement(name string) string {
	switch {
	case name == "":
		return "is empty"
	case name == "." || name == "..":
		return "is not a file name"
	case strings.ContainsAny(name, "/\\\x00"):
		return "is not a single file name (it holds a path separator)"
	}
	return ""
}

// ExternalRoots returns the roots of data-file.external-paths, trailing slashes trimmed (none when unset).
func (t *Table) ExternalRoots() []string {
	var out []string
	for _, r := range t.Options.DataFileExternalPaths() {
		if r = strings.TrimRight(r, "/"); r != "" {
			out = append(out, r)
		}
	}
	return out
}

// Roots are the directories the table's files may live in: its own and its external roots. Every
// delete of a table file is refused outside them (Delete).
func (t *Table) Roots() []string { return append([]string{t.Path}, t.ExternalRoots()...) }

// Delete deletes a file of the table through the delete guard (fileio.DeleteWithin over Roots): a
// path outside the table, or below it through a symbolic link, is refused with fileio.ErrOutside.
// This check is independent of how the path was resolved. A missing file is not an error.
func (t *Table) Delete(ctx context.Context, path string) error {
	return fileio.DeleteWithin(ctx, t.FS, path, t.Roots()...)
}

// MetaFile returns the path of the file name in table directory dir (DirManifest, DirStatistics, …)
// that metadata where names, or a *PathError.
func (t *Table) MetaFile(dir, name, where string) (string, error) {
	return resolve(fileio.Join(t.Path, dir), name, nil, nil, where)
}

// IndexFile returns the path of index file name (its external path when set) that where names.
func (t *Table) IndexFile(name string, external *string, where string) (string, error) {
	return resolve(fileio.Join(t.Path, DirIndex), name, external, t.ExternalRoots(), where)
}

// ExtraFile returns the path of an extra file (e.g. a file index) of the data file at dataFile: name
// in the same directory.
func (t *Table) ExtraFile(dataFile, name, where string) (string, error) {
	return resolve(dataFile[:strings.LastIndex(dataFile, "/")+1], name, nil, nil, where)
}

// CheckEntry checks the names of manifest entry e of the manifest where: its data file name, its
// external path and its extra files. The partition directory is derived (escaped) from the
// partition values, never taken from the entry.
func (t *Table) CheckEntry(e manifest.ManifestEntry, where string) error {
	roots := t.ExternalRoots()
	w := where + " (entry for data file " + strconv.Quote(e.File.FileName) + ")"
	if _, err := resolve("", e.File.FileName, e.File.ExternalPath, roots, w); err != nil {
		return err
	}
	for _, x := range e.File.ExtraFiles {
		if _, err := resolve("", x, nil, nil, w+" extra file"); err != nil {
			return err
		}
	}
	return nil
}

// CheckIndexEntry checks the file name and external path of index manifest entry e of where.
func (t *Table) CheckIndexEntry(e manifest.IndexManifestEntry, where string) error {
	_, err := resolve("", e.FileName, e.ExternalPath, t.ExternalRoots(), where)
	return err
}

// CheckMessage checks the names of the files a commit message adds or removes (where: e.g. "task
// result …"), so that nothing outside the table enters a manifest.
func (t *Table) CheckMessage(m CommitMessage, where string) error {
	for _, fs := range [][]manifest.DataFileMeta{m.NewFiles, m.DeletedFiles} {
		for _, f := range fs {
			if err := t.CheckEntry(manifest.ManifestEntry{File: f}, where); err != nil {
				return err
			}
		}
	}
	for _, es := range [][]manifest.IndexManifestEntry{m.NewIndexFiles, m.DeletedIndexFiles} {
		for _, e := range es {
			if err := t.CheckIndexEntry(e, where+" (index file)"); err != nil {
				return err
			}
		}
	}
	return nil
}

// CheckSnapshotNames checks the metadata file names snapshot (or tag, or changelog) s names; where
// names the file it was read from ("snapshot 7"). An empty name names no file and is not checked
// (spec.ParseSnapshot requires the manifest lists of a snapshot file).
func CheckSnapshotNames(s *spec.Snapshot, where string) error {
	check := func(field, name string) error {
		_, err := resolve("", name, nil, nil, where+" ("+field+")")
		return err
	}
	for _, o := range []struct {
		field string
		name  *string
	}{{"baseManifestList", &s.BaseManifestList}, {"deltaManifestList", &s.DeltaManifestList},
		{"changelogManifestList", s.ChangelogManifestList}, {"indexManifest", s.IndexManifest}, {"statistics", s.Statistics}} {
		if o.name != nil && *o.name != "" {
			if err := check(o.field, *o.name); err != nil {
				return err
			}
		}
	}
	return nil
}
