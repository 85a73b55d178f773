package file

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/source"
)

// cutSampleBytes is how much of a text file is scanned before deciding whether to cut it: a file
// whose rows, estimated from the bytes per row of this sample, fit in one split is not scanned further.
const cutSampleBytes = 1 << 20

// cutChunkBytes is how much the scan reads at once (a variable: tests make chunk ends fall everywhere).
var cutChunkBytes = 1 << 20

// CutText returns the splits of one planned text file f (a whole-file split from PlanWith):
// newline-aligned byte ranges of about every rows each (source.Split.ByteStart), with exact first row
// numbers, row counts and first line numbers found by one scan over the file's bytes (no field is
// parsed: CSV quotes are tracked from the start of the file, so a cut is never inside a quoted
// field). The cuts depend only on the file's bytes and every, so planning the same file again gives
// the same splits.
//
// The file stays one whole-file split (as every text file was before) when it is compressed (see
// compression.go), not a regular local file, empty, or holds at most every rows — estimated from the
// first cutSampleBytes when the file is longer. In a CSV file the scan stops cutting at the first
// quote the RFC 4180 grammar does not allow (the reader reports it): the rest of the file is then
// the last split, whose row count is unknown (-1).
func CutText(ctx context.Context, fs fileio.FileIO, f source.Split, every int64) ([]source.Split, error) {
	return CutTextWith(ctx, fs, f, every, source.CSVDialect{})
}

// CutTextWith is CutText for CSV files written in dialect d: quotes and delimiters are tracked with
// d's characters, exactly as the reader parses them, and without a header row (d.NoHeader) the first
// record is row 0.
func CutTextWith(ctx context.Context, fs fileio.FileIO, f source.Split, every int64, d source.CSVDialect) ([]source.Split, error) {
	if err := d.Check(); err != nil {
		return nil, fmt.Errorf("split %s: %w", f.Path, err)
	}
	if f.Format != source.FormatCSV && f.Format != source.FormatJSONL {
		return nil, fmt.Errorf("split %s: CutText cuts csv and jsonl files, not %q", f.Path, f.Format)
	}
	whole := []source.Split{f}
	// Every row takes at least one byte: a file of at most every bytes holds at most every rows.
	if f.Size <= every || f.IsRange() || f.RowStart != 0 || f.RowCount >= 0 || every <= 0 || !isRegularOrRemote(f.Path) {
		return whole, nil
	}
	fh, err := fs.Open(ctx, f.Path)
	if err != nil {
		return nil, fmt.Errorf("input file %s: %w", f.Path, err)
	}
	defer fh.Close()
	br := bufio.NewReaderSize(fh, 1<<16)
	if head, _ := br.Peek(magicLen); compressionOf(head) != "" {
		return whole, nil
	}
	var sc cutScanner = &jsonlCutScanner{every: every}
	if f.Format == source.FormatCSV {
		sc = &csvCutScanner{every: every, delim: d.Delim(), quote: d.QuoteChar(), hdr: 1}
		if d.NoHeader {
			sc = &csvCutScanner{every: every, delim: d.Delim(), quote: d.QuoteChar()}
		}
	}
	buf := make([]byte, cutChunkBytes)
	var off int64
	sampled := false
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		n, rerr := io.ReadFull(br, buf)
		if n > 0 {
			sc.scan(buf[:n], off)
			off += int64(n)
		}
		if errors.Is(rerr, io.EOF) || errors.Is(rerr, io.ErrUnexpectedEOF) {
			break
		}
		if rerr != nil {
			return nil, fmt.Errorf("input file %s: %w", f.Path, rerr)
		}
		if sc.stopped() {
			break
		}
		if !sampled && off >= cutSampleBytes && off < f.Size {
			// The sample: estimate the file's rows from its bytes per row.
			sampled = true
			if rows := sc.rows(); rows > 0 && float64(rows)*float64(f.Size)/float64(off) <= float64(every) {
				return whole, nil
			}
		}
	}
	if off != f.Size && !sc.stopped() {
		return nil, fmt.Errorf("input file %s: read %d bytes but the file has %d: the file changed while it was planned", f.Path, off, f.Size)
	}
	cuts, total := sc.finish()
	if len(cuts) <= 1 {
		return whole, nil // at most every rows (or a CSV file cut nowhere): one split, as before
	}
	out := make([]source.Split, 0, len(cuts))
	for i, c := range cuts {
		s := f
		s.RowStart, s.ByteStart, s.FirstLine = c.row, c.off, c.line
		if i+1 < len(cuts) {
			s.ByteEnd, s.RowCount = cuts[i+1].off, cuts[i+1].row-c.row
		} else {
			s.ByteEnd, s.RowCount = f.Size, -1
			if total >= 0 {
				s.RowCount = total - c.row
			}
		}
		out = append(out, s)
	}
	return out, nil
}

// isRegularOrRemote tells whether a path may be read twice with the same bytes: an object, a
// regular file, or a local path the OS cannot stat (left to the FileIO).
func isRegularOrRemote(path string) bool {
	if isRemote(path) {
		return true
	}
	st, err := os.Stat(strings.TrimPrefix(path, "file://"))
	return err != nil || st.Mode().IsRegular()
}

// textCut is a record boundary: the offset where row row starts, on line line (1-based).
type textCut struct{ off, row, line int64 }

// cutScanner finds record boundaries in a text file fed to it in order, chunk by chunk.
type cutScanner interface {
	// scan consumes the next chunk, which starts at file offset base.
	scan(chunk []byte, base int64)
	// rows is the number of data rows ended so far.
	rows() int64
	// stopped tells that no more cuts will be made (a CSV syntax error): the rest need not be read.
	stopped() bool
	// finish returns the cuts (the first is where the data rows start; none when the file has no
	// data row) and the file's data rows, or -1 when unknown (stopped).
	finish() ([]textCut, int64)
}

// jsonlCutScanner cuts JSON Lines files: every line is a row (the reader rejects empty ones), and
// the bytes after the last line end, if any, are the last row.
type jsonlCutScanner struct {
	every    int64
	n        int64 // lines ended so far
	cuts     []textCut
	lastRow  int64 // row of the last cut
	tail     bool  // bytes follow the last line end
	consumed int64
}

func (s *jsonlCutScanner) scan(chunk []byte, base int64) {
	if s.cuts == nil {
		s.cuts = []textCut{{0, 0, 1}}
	}
	for p := 0; p < len(chunk); {
		i := bytes.IndexByte(chunk[p:], '\n')
		if i < 0 {
			break
		}
		p += i + 1
		s.n++
		if s.n-s.lastRow >= s.every {
			s.cuts = append(s.cuts, textCut{base + int64(p), s.n, s.n + 1})
			s.lastRow = s.n
		}
	}
	s.tail = chunk[len(chunk)-1] != '\n'
	s.consumed = base + int64(len(chunk))
}

func (s *jsonlCutScanner) rows() int64   { return s.n }
func (s *jsonlCutScanner) stopped() bool { return false }

func (s *jsonlCutScanner) finish() ([]textCut, int64) {
	total := s.n
	if s.tail {
		total++
	}
	cuts := s.cuts
	if n := len(cuts); n > 1 && cuts[n-1].row == total {
		cuts = cuts[:n-1] // the file ends at the last cut: no empty split
	}
	if total == 0 {
		return nil, 0
	}
	return cuts, total
}

// csvState of the cut scanner: where the byte scanned last leaves the RFC 4180 grammar that
// csvParser implements.
type csvCutState int

const (
	cutOut          csvCutState = iota // outside quotes: at a record or field start, or in an unquoted field
	cutQuoted                          // inside a quoted field
	cutQuote                           // a quote inside a quoted field, at a chunk end: closing or doubled
	cutAfterClose                      // after a closing quote: ',' or a line end must follow
	cutAfterCloseCR                    // after a closing quote and '\r': '\n' must follow
	cutBad                             // a quote the grammar does not allow: no more cuts
)

// csvCutScanner cuts CSV files at record ends, tracking quotes from the start of the file the way
// csvParser reads them; the first record is the header.
type csvCutScanner struct {
	every   int64
	delim   byte  // the field delimiter
	quote   byte  // the quote character
	hdr     int64 // header records: 1, or 0 for a file without a header
	state   csvCutState
	prev    byte  // the byte before the chunk (outside quotes: '\n' at a record start)
	lines   int64 // line ends consumed so far
	records int64 // records ended so far, the header included
	recEnd  int64 // offset after the last record end
	size    int64 // bytes consumed
	cuts    []textCut
	lastRow int64
	started bool
}

func (s *csvCutScanner) rows() int64   { return max(s.records-s.hdr, 0) }
func (s *csvCutScanner) stopped() bool { return s.state == cutBad }

// endRecord notes a record that ends before offset end (after its line end), on line end s.lines.
func (s *csvCutScanner) endRecord(end int64) {
	s.records++
	s.recEnd = end
	row := s.records - s.hdr // data rows ended
	switch {
	case row == 0 && s.hdr == 1:
		s.cuts = []textCut{{end, 0, s.lines + 1}} // the header ended: row 0 starts here
		s.lastRow = 0
	case row-s.lastRow >= s.every:
		s.cuts = append(s.cuts, textCut{end, row, s.lines + 1})
		s.lastRow = row
	}
}

func (s *csvCutScanner) scan(chunk []byte, base int64) {
	p := 0
	if !s.started {
		s.started, s.prev = true, '\n'
		if bytes.HasPrefix(chunk, []byte{0xEF, 0xBB, 0xBF}) {
			p = 3 // the parser skips a UTF-8 byte order mark
		}
		if s.hdr == 0 {
			s.cuts = []textCut{{base + int64(p), 0, 1}} // no header: row 0 starts the file
		}
	}
	start := p
	nl, q := -1, -1 // cached positions of the next '\n' and '"' (outside quotes), -1: to find
	for p < len(chunk) && s.state != cutBad {
		switch s.state {
		case cutOut:
			if nl < p {
				if nl = bytes.IndexByte(chunk[p:], '\n'); nl >= 0 {
					nl += p
				} else {
					nl = len(chunk)
				}
			}
			if q < p {
				if q = bytes.IndexByte(chunk[p:], s.quote); q >= 0 {
					q += p
				} else {
					q = len(chunk)
				}
			}
			switch {
			case q < nl:
				prev := s.prev
				if q > start {
					prev = chunk[q-1]
				}
				if prev != s.delim && prev != '\n' {
					s.state = cutBad // a quote inside an unquoted field
					break
				}
				s.state, p = cutQuoted, q+1
			case nl < len(chunk):
				s.lines++
				p = nl + 1
				s.endRecord(base + int64(p))
			default:
				p = len(chunk)
			}
		case cutQuoted:
			i := bytes.IndexByte(chunk[p:], s.quote)
			if i < 0 {
				s.lines += int64(bytes.Count(chunk[p:], []byte{'\n'}))
				p = len(chunk)
				break
			}
			s.lines += int64(bytes.Count(chunk[p:p+i], []byte{'\n'}))
			p += i + 1
			if p == len(chunk) {
				s.state = cutQuote
				break
			}
			if chunk[p] == s.quote {
				p++ // a doubled quote
			} else {
				s.state = cutAfterClose
			}
		case cutQuote:
			if chunk[p] == s.quote {
				s.state, p = cutQuoted, p+1
			} else {
				s.state = cutAfterClose
			}
		case cutAfterClose:
			switch chunk[p] {
			case s.delim:
				s.state, p = cutOut, p+1
			case '\n':
				s.lines++
				s.state, p = cutOut, p+1
				s.endRecord(base + int64(p))
			case '\r':
				s.state, p = cutAfterCloseCR, p+1
			default:
				s.state = cutBad // text after a closing quote
			}
		case cutAfterCloseCR:
			if chunk[p] != '\n' {
				s.state = cutBad
				break
			}
			s.lines++
			s.state, p = cutOut, p+1
			s.endRecord(base + int64(p))
		}
	}
	if len(chunk) > start {
		s.prev = chunk[len(chunk)-1]
	}
	s.size = base + int64(len(chunk))
}

func (s *csvCutScanner) finish() ([]textCut, int64) {
	switch s.state {
	case cutBad, cutQuoted, cutAfterCloseCR: // the parser reports the error; its row is found by reading
		if len(s.cuts) == 0 {
			return nil, -1
		}
		return s.cuts, -1
	case cutOut, cutQuote, cutAfterClose:
		if s.size > s.recEnd {
			s.records++ // the last record has no line end
		}
	}
	total := max(s.records-s.hdr, 0)
	cuts := s.cuts
	if n := len(cuts); n > 1 && cuts[n-1].row == total {
		cuts = cuts[:n-1]
	}
	if total == 0 {
		return nil, 0
	}
	return cuts, total
}
