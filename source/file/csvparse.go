package file

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// csvRecord is one parsed CSV record.
type csvRecord struct {
	fields []string
	quoted []bool // whether each field was quoted (a quoted empty field is "", not null)
	line   int64  // 1-based line where the record starts
}

// csvParser reads RFC 4180 records (delimiter ',', '"' quotes with "" escapes, CRLF or LF line
// ends). Unlike encoding/csv it reports whether each field was quoted, and it never skips lines.
type csvParser struct {
	r    *bufio.Reader
	line int64 // 1-based line of the next byte
	buf  bytes.Buffer
}

func newCSVParser(r io.Reader) *csvParser {
	p := &csvParser{r: bufio.NewReaderSize(r, 1<<16), line: 1}
	if b, err := p.r.Peek(3); err == nil && bytes.Equal(b, []byte{0xEF, 0xBB, 0xBF}) {
		_, _ = p.r.Discard(3) // UTF-8 byte order mark
	}
	return p
}

// errCSV is a syntax error at a line.
type errCSV struct {
	line int64
	msg  string
}

func (e *errCSV) Error() string { return fmt.Sprintf("line %d: malformed CSV: %s", e.line, e.msg) }

// read returns the next record, or io.EOF when the input is exhausted.
func (p *csvParser) read(rec *csvRecord) error {
	rec.fields, rec.quoted = rec.fields[:0], rec.quoted[:0]
	rec.line = p.line
	if _, err := p.r.Peek(1); err != nil {
		return err // io.EOF when the input is exhausted; a read error must not pass for a record end
	}
	for {
		p.buf.Reset()
		quoted := false
		c, err := p.r.ReadByte()
		if err == nil && c == '"' {
			quoted = true
			if err := p.readQuoted(); err != nil {
				return err
			}
			c, err = p.r.ReadByte()
		} else {
			for err == nil && c != ',' && c != '\n' {
				if c == '"' {
					return &errCSV{p.line, "a quote inside an unquoted field: quote the whole field and double inner quotes"}
				}
				if c == '\r' {
					if next, _ := p.r.Peek(1); len(next) == 1 && next[0] == '\n' {
						c, err = p.r.ReadByte()
						break
					}
				}
				p.buf.WriteByte(c)
				c, err = p.r.ReadByte()
			}
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		rec.fields = append(rec.fields, p.buf.String())
		rec.quoted = append(rec.quoted, quoted)
		switch {
		case err != nil: // EOF ends the last record
			return nil
		case c == ',':
			continue
		case c == '\n':
			p.line++
			return nil
		case c == '\r':
			if next, _ := p.r.Peek(1); len(next) == 1 && next[0] == '\n' {
				_, _ = p.r.ReadByte()
				p.line++
				return nil
			}
		}
		return &errCSV{p.line, fmt.Sprintf("unexpected %q after a closing quote: a quoted field must be followed by ',' or a line end", c)}
	}
}

// readQuoted reads a quoted field's content after its opening quote, through the closing quote.
func (p *csvParser) readQuoted() error {
	start := p.line
	for {
		c, err := p.r.ReadByte()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return &errCSV{start, "a quoted field is not closed before the end of the file"}
			}
			return err
		}
		switch c {
		case '"':
			if next, _ := p.r.Peek(1); len(next) == 1 && next[0] == '"' {
				_, _ = p.r.ReadByte()
				p.buf.WriteByte('"')
				continue
			}
			return nil
		case '\n':
			p.line++
		}
		p.buf.WriteByte(c)
	}
}
