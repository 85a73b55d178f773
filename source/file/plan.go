package file

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/source"
)

// FormatOf returns the input format implied by a file name's extension: .parquet/.parq → parquet,
// .orc → orc, .csv → csv, .jsonl/.ndjson/.json → jsonl, the text formats also after a compression extension (.csv.gz, .jsonl.zst:
// .gz, .gzip, .zst, .zstd, .bz2, .lz4); "" when unknown. Whether a file is compressed is told by
// its bytes when it is read, not by its name (compression.go).
func FormatOf(path string) string {
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".gz", ".gzip", ".zst", ".zstd", ".bz2", ".lz4":
		if f := FormatOf(strings.TrimSuffix(path, filepath.Ext(path))); f != source.FormatParquet && f != source.FormatORC {
			return f
		}
		return ""
	}
	switch ext {
	case ".parquet", ".parq":
		return source.FormatParquet
	case ".csv":
		return source.FormatCSV
	case ".jsonl", ".ndjson", ".json":
		return source.FormatJSONL
	case ".orc":
		return source.FormatORC
	}
	return ""
}

// Plan expands glob into one whole-file split per matching regular file, sorted by path. A local
// glob uses path/filepath.Glob; an object-store glob (s3://bucket/in/*.parquet) is listed through
// fs (path.Match per element, see globRemote) and its matches keep the location as given. A
// directory named without wildcards stands for every file under it, and a "**" element for any
// number of directories; both are walked through fs, skipping hidden names (expand.go). format
// is "parquet", "orc", "csv", "jsonl", or "" to choose by extension. Local paths become absolute.
// Each split records the file's size and modification time (read through fs) and, for Parquet and
// ORC, RowCount = the footer's row count (an ORC file is read whole for it); text splits have
// RowCount -1. It fails when nothing matches, naming the glob. Plan applies the default Limits.
func Plan(ctx context.Context, fs fileio.FileIO, glob, format string) ([]source.Split, error) {
	return PlanWith(ctx, fs, glob, format, source.Limits{})
}

// PlanWith is Plan with limits: a local match that is not a regular file (a device, FIFO or
// socket) is refused unless lim.AllowNonRegular, and a Parquet footer longer than
// lim.FooterBytes() or declaring more than lim.Columns() columns is refused before it is decoded.
func PlanWith(ctx context.Context, fs fileio.FileIO, glob, format string, lim source.Limits) ([]source.Split, error) {
	switch format {
	case "", source.FormatParquet, source.FormatCSV, source.FormatJSONL, source.FormatORC:
	default:
		return nil, fmt.Errorf("unknown input format %q: use parquet, orc, csv or jsonl", format)
	}
	matches, recursive, err := expandInput(ctx, fs, glob)
	if err != nil {
		return nil, err
	}
	var splits []source.Split
	for _, m := range matches {
		abs := m
		if !isRemote(m) {
			if abs, err = filepath.Abs(m); err != nil {
				return nil, fmt.Errorf("input file %s: %w", m, err)
			}
			abs = filepath.ToSlash(abs)
		}
		info, err := fs.Stat(ctx, abs)
		if err != nil {
			return nil, fmt.Errorf("input file %s: %w", abs, err)
		}
		if info.IsDir {
			continue
		}
		if err := checkRegular(abs, lim); err != nil {
			return nil, err
		}
		f := format
		if f == "" {
			if f = FormatOf(abs); f == "" {
				return nil, fmt.Errorf("input file %s: cannot tell its format from its extension (.parquet, .csv, .jsonl, .orc, optionally compressed: .csv.gz): "+
					"pass --format (parquet, csv, jsonl or orc) if every file of --from %s has that format, or narrow --from to the files to load", abs, glob)
			}
		}
		s := source.Split{Path: abs, Format: f, Size: info.Size, ModTimeUnixNano: info.ModTime.UnixNano(), RowCount: -1}
		switch f {
		case source.FormatParquet:
			if s.RowCount, err = parquetRows(ctx, fs, abs, lim); err != nil {
				return nil, err
			}
		case source.FormatORC:
			if s.RowCount, err = orcRows(ctx, fs, abs, lim); err != nil {
				return nil, err
			}
		}
		splits = append(splits, s)
	}
	if len(splits) == 0 {
		if recursive {
			return nil, fmt.Errorf("input %q matches no files: the directories it walks hold no files it names (names starting with '.' or '_' are skipped)", glob)
		}
		syntax := "path/filepath.Glob syntax, ** for any directories"
		if isRemote(glob) {
			syntax = "path.Match syntax per path element, ** for any directories"
		}
		return nil, fmt.Errorf("input glob %q matches no files: check the pattern (%s)", glob, syntax)
	}
	sort.Slice(splits, func(i, j int) bool { return splits[i].Path < splits[j].Path })
	return splits, nil
}

func parquetRows(ctx context.Context, fs fileio.FileIO, path string, lim source.Limits) (int64, error) {
	f, err := fs.Open(ctx, path)
	if err != nil {
		return 0, fmt.Errorf("input file %s: %w", path, err)
	}
	defer f.Close()
	return footerRows(path, f, lim)
}
