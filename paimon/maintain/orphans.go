package maintain

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/table"
)

// OrphanResult reports a CleanOrphans run.
type OrphanResult struct {
	Files  []Deleted // orphan files deleted (or that would be, in a dry run), by path
	Bytes  int64     // their total size
	DryRun bool
	// Skipped are the entries of the directories cleaned that are symbolic links or special files:
	// never followed, never deleted.
	Skipped []string
}

// CleanOrphans deletes the files of t that nothing references and that were last modified before
// olderThan (Java LocalOrphanFilesClean): files in manifest/, index/, statistics/ and the bucket
// directories that no snapshot, tag or changelog names, and leftovers (such as temporary files) in
// snapshot/ and changelog/ that are not snapshot, changelog or hint files. protected names files
// that are in flight (a load's stored but uncommitted results); they are never deleted. Names are
// compared by file name, as Java does. A snapshot whose metadata cannot be read stops the run with
// an error unless the snapshot itself was expired meanwhile. With dryRun nothing is deleted.
func CleanOrphans(ctx context.Context, t *table.Table, olderThan time.Time, dryRun bool, protected map[string]bool) (OrphanResult, error) {
	return CleanOrphansWith(ctx, t, OrphanOptions{OlderThan: olderThan, DryRun: dryRun, Protected: protected})
}

// OrphanOptions are the arguments of CleanOrphansWith.
type OrphanOptions struct {
	OlderThan time.Time       // only files last modified before are deleted
	DryRun    bool            // report, delete nothing
	Protected map[string]bool // names of in-flight files, never deleted
	// Progress, if set, is called as the run goes (see Progress).
	Progress func(Progress)
}

// CleanOrphansWith is CleanOrphans with its progress reported to o.Progress.
func CleanOrphansWith(ctx context.Context, t *table.Table, o OrphanOptions) (OrphanResult, error) {
	res := OrphanResult{DryRun: o.DryRun}
	rep := &reporter{fn: o.Progress, deleted: func() (int, int64) { return len(res.Files), res.Bytes }}
	candidates, skipped, err := orphanCandidates(ctx, t, o.OlderThan, rep)
	res.Skipped = skipped
	if err != nil {
		return res, err
	}
	if len(candidates) == 0 {
		return res, nil
	}
	used, err := usedFiles(ctx, t, rep)
	if err != nil {
		return res, fmt.Errorf("clean orphans of %s: %w (nothing was deleted)", t.Path, err)
	}
	rep.step(StepDelete, len(candidates))
	for _, c := range candidates {
		name := c.Path[strings.LastIndex(c.Path, "/")+1:]
		if c.Kind == KindOrphan && (used[name] || o.Protected[name]) {
			rep.item()
			continue
		}
		if err := deleteFile(ctx, t, o.DryRun, Deleted{Path: c.Path, Kind: KindOrphan}, &[]Deleted{}); err != nil {
			return res, err
		}
		c.Kind = KindOrphan
		res.Files = append(res.Files, c)
		res.Bytes += c.Size
		rep.item()
	}
	return res, nil
}

// leftover marks candidates of snapshot/ and changelog/: not metadata any snapshot can name.
const leftover = "leftover"

// orphanCandidates lists the files that may be orphans, sorted by path: regular files of the
// metadata and data directories (Kind KindOrphan), and leftovers in snapshot/ and changelog/ (Kind
// leftover). Symbolic links and special files are never candidates, and a directory that is a link
// is not followed: they are returned as skipped, sorted.
func orphanCandidates(ctx context.Context, t *table.Table, olderThan time.Time, rep *reporter) (out []Deleted, skipped []string, err error) {
	rep.step(StepList, 0)
	// list is the one filter: what it returns is a regular file or a real directory.
	list := func(dir string) ([]fileio.FileInfo, error) {
		infos, err := t.FS.List(ctx, dir)
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", dir, err)
		}
		kept := infos[:0]
		files := 0
		for _, fi := range infos {
			if fi.Regular() || fi.RealDir() {
				kept = append(kept, fi)
			} else {
				skipped = append(skipped, fi.Path)
			}
			if !fi.IsDir {
				files++
			}
		}
		rep.examined(files)
		rep.item()
		return kept, nil
	}
	top, err := list(t.Path)
	if err != nil {
		return nil, nil, err
	}
	realDir := map[string]bool{}
	for _, fi := range top {
		realDir[fi.Name] = fi.IsDir
	}
	add := func(name, kind string, keep func(name string) bool) error {
		if !realDir[name] {
			return nil // missing, or not a real directory (skipped above)
		}
		infos, err := list(fileio.Join(t.Path, name))
		if err != nil {
			return err
		}
		for _, fi := range infos {
			if !fi.IsDir && fi.ModTime.Before(olderThan) && !keep(fi.Name) {
				out = append(out, Deleted{Path: fi.Path, Kind: kind, Size: fi.Size})
			}
		}
		return nil
	}
	none := func(string) bool { return false }
	for _, d := range []string{"manifest", "index", "statistics"} {
		if err := add(d, KindOrphan, none); err != nil {
			return nil, nil, err
		}
	}
	dirs, err := bucketDirs(top, list, len(t.Schema.PartitionKeys))
	if err != nil {
		return nil, nil, err
	}
	for _, d := range dirs {
		infos, err := list(d)
		if err != nil {
			return nil, nil, err
		}
		for _, fi := range infos {
			if !fi.IsDir && fi.ModTime.Before(olderThan) {
				out = append(out, Deleted{Path: fi.Path, Kind: KindOrphan, Size: fi.Size})
			}
		}
	}
	hint := func(n string) bool { return n == "EARLIEST" || n == "LATEST" }
	if err := add("snapshot", leftover, func(n string) bool { return strings.HasPrefix(n, "snapshot-") || hint(n) }); err != nil {
		return nil, nil, err
	}
	if err := add("changelog", leftover, func(n string) bool { return strings.HasPrefix(n, "changelog-") || hint(n) }); err != nil {
		return nil, nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	sort.Strings(skipped)
	return out, skipped, nil
}

// bucketDirs returns the bucket directories below the entries of a directory: level partition
// levels of "k=v" directories, then "bucket-*" directories (Java OrphanFilesClean.listFileDirs).
// infos and list come from orphanCandidates' list, which drops links and special files, so only
// real directories are entered.
func bucketDirs(infos []fileio.FileInfo, list func(string) ([]fileio.FileInfo, error), level int) ([]string, error) {
	var out []string
	for _, fi := range infos {
		switch {
		case !fi.IsDir:
		case level == 0 && strings.HasPrefix(fi.Name, "bucket-"):
			out = append(out, fi.Path)
		case level > 0 && strings.Contains(fi.Name, "="):
			children, err := list(fi.Path)
			if err != nil {
				return nil, err
			}
			sub, err := bucketDirs(children, list, level-1)
			if err != nil {
				return nil, err
			}
			out = append(out, sub...)
		}
	}
	return out, nil
}

// usedFiles names every file a snapshot, tag or changelog of t references: manifest lists,
// manifests, data files and their extra files (ADD and DELETE entries), index manifests, index
// files and statistics. Reads are strict, except for a snapshot that disappears while it is read.
func usedFiles(ctx context.Context, t *table.Table, rep *reporter) (map[string]bool, error) {
	u := &usage{t: t, used: map[string]bool{}, manifests: map[string]bool{}}
	snaps := t.Snapshots()
	ids, err := snaps.IDs(ctx)
	if err != nil {
		return nil, err
	}
	// Snapshots first, then tags and changelogs (never the other way round: a tag made of a snapshot
	// that expires meanwhile is then still seen), so the step's total grows as they are listed.
	rep.step(StepReferences, len(ids))
	for _, id := range ids {
		s, err := snaps.Get(ctx, id)
		if errors.Is(err, fileio.ErrNotExist) {
			rep.item()
			continue // expired meanwhile
		}
		if err != nil {
			return nil, err
		}
		if err := u.add(ctx, s); err != nil {
			if gone, _ := snapshotGone(ctx, t, id); gone {
				rep.item()
				continue
			}
			return nil, fmt.Errorf("snapshot %d: %w", id, err)
		}
		rep.item()
	}
	tags, err := taggedSnapshots(ctx, t)
	if err != nil {
		return nil, err
	}
	rep.grow(len(tags))
	for _, s := range tags {
		if err := u.add(ctx, s); err != nil {
			return nil, fmt.Errorf("tag of snapshot %d: %w", s.ID, err)
		}
		rep.item()
	}
	changelogs, err := changelogSnapshots(ctx, t)
	if err != nil {
		return nil, err
	}
	rep.grow(len(changelogs))
	for _, s := range changelogs {
		if err := u.add(ctx, s); err != nil {
			return nil, fmt.Errorf("changelog %d: %w", s.ID, err)
		}
		rep.item()
	}
	return u.used, nil
}

func snapshotGone(ctx context.Context, t *table.Table, id int64) (bool, error) {
	exists, err := fileio.Exists(ctx, t.FS, t.Snapshots().Path(id))
	return err == nil && !exists, err
}
