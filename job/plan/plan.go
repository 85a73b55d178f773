package plan

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/format/parquet"
	"github.com/lakeload/lakeload/source"
	"github.com/lakeload/lakeload/source/file"
)

// Input lists the job's splits: every matching file, cut into splits of about splitRows rows
// (Parquet at row-group boundaries, text files at record boundaries) so that windows can end
// inside a large file. Each pattern of from is planned in turn (PlanFiles); lim applies to
// planning (non-regular inputs, Parquet footers) as file.PlanWith says.
func Input(ctx context.Context, fs fileio.FileIO, from []string, format string, splitRows int64, lim source.Limits) ([]source.Split, error) {
	files, err := PlanFiles(ctx, fs, from, format, lim)
	if err != nil {
		return nil, err
	}
	var out []source.Split
	for _, f := range files {
		cut, err := CutFile(ctx, fs, f, splitRows)
		if err != nil {
			return nil, err
		}
		out = append(out, cut...)
	}
	return out, nil
}

// PlanFiles lists the input files of the patterns from, one split per file (file.PlanWith of each
// pattern in turn, concatenated in that order). A file matched by more than one pattern is planned
// once, where it is first matched: it is loaded once, and a job's plan does not depend on how its
// patterns overlap. Every pattern must match at least one file.
func PlanFiles(ctx context.Context, fs fileio.FileIO, from []string, format string, lim source.Limits) ([]source.Split, error) {
	if len(from) == 1 {
		return file.PlanWith(ctx, fs, from[0], format, lim)
	}
	var out []source.Split
	seen := map[string]bool{}
	for _, p := range from {
		files, err := file.PlanWith(ctx, fs, p, format, lim)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			if !seen[f.Path] {
				seen[f.Path] = true
				out = append(out, f)
			}
		}
	}
	return out, nil
}

// CutFile returns the splits of one planned file: for Parquet runs of row groups of about splitRows
// rows; for CSV and JSON Lines byte ranges of about splitRows rows (file.CutText), or the whole
// file when it is compressed or small.
func CutFile(ctx context.Context, fs fileio.FileIO, f source.Split, splitRows int64) ([]source.Split, error) {
	if f.Format != source.FormatParquet {
		splits, err := file.CutText(ctx, fs, f, splitRows)
		if err != nil {
			return nil, &source.InputError{Err: err}
		}
		return splits, nil
	}
	groups, err := rowGroups(ctx, fs, f)
	if err != nil {
		return nil, err
	}
	var out []source.Split
	var start, n int64
	for _, g := range groups {
		n += g
		if n >= splitRows {
			s := f
			s.RowStart, s.RowCount = start, n
			out = append(out, s)
			start, n = start+n, 0
		}
	}
	if n > 0 || start == 0 {
		s := f
		s.RowStart, s.RowCount = start, n
		out = append(out, s)
	}
	return out, nil
}

func rowGroups(ctx context.Context, fs fileio.FileIO, s source.Split) ([]int64, error) {
	f, err := fs.Open(ctx, s.Path)
	if err != nil {
		return nil, fmt.Errorf("input file %s: %w", s.Path, err)
	}
	defer f.Close()
	rd, err := parquet.OpenReader(f, f.Size())
	if err != nil {
		return nil, &source.InputError{Err: fmt.Errorf("input file %s: %w", s.Path, err)}
	}
	md := rd.File().MetaData()
	out := make([]int64, md.NumRowGroups())
	for i := range out {
		out[i] = md.RowGroup(i).NumRows()
	}
	return out, nil
}

// Span is the number of sequence numbers reserved for a split: its rows when known (Parquet, and
// the byte ranges of a cut text file), else its byte size (an upper bound on its rows: every row
// takes at least one byte).
func Span(s source.Split) int64 {
	if s.RowCount >= 0 {
		return s.RowCount
	}
	return max(bytesOf(s), 1)
}

// EstimatedRows is the split's row count: exact for Parquet and cut text files, estimated for
// other text splits from their size (64 bytes a row).
func EstimatedRows(s source.Split) int64 {
	if s.RowCount >= 0 {
		return s.RowCount
	}
	return max(bytesOf(s)/64, 1)
}

// bytesOf is the size of the split's part of its file.
func bytesOf(s source.Split) int64 {
	if s.IsRange() {
		return s.ByteEnd - s.ByteStart
	}
	return s.Size
}

// Fingerprint identifies the input of a job: every split's path, size, modification time and range.
func Fingerprint(splits []source.Split) string {
	b, _ := json.Marshal(splits)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}

// CheckFingerprints verifies that the files of the given splits are unchanged since planning.
func CheckFingerprints(ctx context.Context, fs fileio.FileIO, plan []source.Split, idx []int) error {
	if fs == nil {
		return nil // a custom Source: its splits carry no file fingerprint
	}
	checked := map[string]bool{}
	for _, i := range idx {
		s := plan[i]
		if checked[s.Path] {
			continue
		}
		checked[s.Path] = true
		info, err := fs.Stat(ctx, s.Path)
		if errors.Is(err, fileio.ErrNotExist) {
			return &source.InputError{Err: fmt.Errorf("input file %s of this job is gone (%v): restore it, or forget the job and start a new one", s.Path, err)}
		}
		if err != nil {
			// Not a verdict on the file (an interrupted run, an I/O error): keep the cause visible.
			return fmt.Errorf("check input file %s: %w", s.Path, err)
		}
		if err := s.CheckFingerprint(info); err != nil {
			return &source.InputError{Err: err}
		}
	}
	return nil
}
