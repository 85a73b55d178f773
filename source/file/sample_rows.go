package file

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/source"
)

// SampleRows estimates the rows of a whole-file text split (one that planning did not cut: a
// compressed or small file) from its first sample bytes of text: the lines counted there, scaled by
// the file's size over the bytes of the file read for them (compressed bytes for a compressed file).
// When the text is shorter than sample it is read whole and the count is its number of lines. A
// quoted newline in CSV counts as a line: it is an estimate, for progress and dry runs, never a
// row count (sequence numbers use the split's span).
func SampleRows(ctx context.Context, fs fileio.FileIO, s source.Split, sample int) (int64, error) {
	if s.Format != source.FormatCSV && s.Format != source.FormatJSONL {
		return 0, fmt.Errorf("split %s: SampleRows samples csv and jsonl files, not %q", s.Path, s.Format)
	}
	if s.IsRange() || s.RowCount >= 0 || sample <= 0 {
		return 0, fmt.Errorf("split %s: not a whole text file of unknown row count", s.Path)
	}
	fh, err := fs.Open(ctx, s.Path)
	if err != nil {
		return 0, fmt.Errorf("input file %s: %w", s.Path, err)
	}
	defer fh.Close()
	cr := &countingReader{r: fh}
	br := bufio.NewReaderSize(cr, 1<<16)
	r, _, closeText, err := decompressed(s.Path, br)
	if err != nil {
		return 0, err
	}
	defer closeText()
	// Read sample bytes of text, then on to the point where the decompressor takes more of the file:
	// a block codec (LZ4, zstd) takes a whole block before it gives its text, so the file bytes taken
	// match the text read only at a block's end. Stop at most at maxSampleFactor × sample.
	chunk := make([]byte, 64<<10)
	consumed := func() int64 { return cr.n - int64(br.Buffered()) }
	var text, lines, atText, atLines, atRead int64
	last := byte('\n')
	for text < int64(sample)*maxSampleFactor {
		before := consumed()
		n, rerr := r.Read(chunk)
		if text >= int64(sample) && consumed() != before {
			break // (atText, atLines, atRead) is the sample up to the block boundary
		}
		text += int64(n)
		lines += int64(bytes.Count(chunk[:n], []byte{'\n'}))
		if n > 0 {
			last = chunk[n-1]
		}
		atText, atLines, atRead = text, lines, consumed()
		if errors.Is(rerr, io.EOF) {
			if last != '\n' {
				lines++ // a last line without its newline
			}
			return max(lines, 1), nil // the whole text
		}
		if rerr != nil {
			return 0, fmt.Errorf("input file %s: %w", s.Path, rerr)
		}
	}
	if atRead <= 0 || atLines == 0 || atText == 0 {
		return 1, nil
	}
	return max(int64(float64(atLines)*float64(s.Size)/float64(atRead)), 1), nil
}

// maxSampleFactor bounds how far past its sample SampleRows reads to reach a block boundary.
const maxSampleFactor = 16

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
