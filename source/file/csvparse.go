package file

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/lakeload/lakeload/source"
)

// csvRecord is one parsed CSV record.
type csvRecord struct {
	fields []string
	quoted []bool // whether each field was quoted (a quoted empty field is "", not null)
	line   int64  // 1-based line where the record starts
}

// csvParser reads RFC 4180 records (delimiter ',', '"' quotes with "" escapes, CRLF or LF line
// ends; another delimiter and quote character per source.CSVDialect). Unlike encoding/csv it reports whether each field was quoted, and it never skips lines.
// A record whose fields take more than max bytes (their text plus source.ValueCost per field) is an
// errCSVTooLarge: the parser stops storing it there, and skips its rest (without storing it) when
// read is called again.
type csvParser struct {
	r     *bufio.Reader
	delim byte         // between fields
	quote byte         // around quoted fields
	line  int64        // 1-based line of the next byte
	buf   bytes.Buffer // the text of the record's fields read so far
	ends  []int        // where each field's text ends in buf
	max   int64        // the record budget
	used  int64        // budget used by the record being read
	// resume is where the record cut short by the budget stopped (csvDone: none); skip says its
	// rest is being consumed without storing it.
	resume csvState
	skip   bool
	// plain marks the bytes that are field content as they are, outside quotes (plain[0]) and
	// inside (plain[1]): every byte but the delimiter, the quote, '\r' and '\n'.
	plain [2][256]bool
}

// csvState is a position inside a record.
type csvState int

const (
	csvDone       csvState = iota // between records
	csvFieldStart                 // before a field's first byte
	csvUnquoted                   // inside an unquoted field
	csvQuoted                     // inside a quoted field
)

// newCSVParser reads a file from its first byte, skipping a UTF-8 byte order mark.
func newCSVParser(r io.Reader, maxRecord int64, d source.CSVDialect) *csvParser {
	p := newCSVParserAt(r, maxRecord, 1, d)
	if b, err := p.r.Peek(3); err == nil && bytes.Equal(b, []byte{0xEF, 0xBB, 0xBF}) {
		_, _ = p.r.Discard(3) // UTF-8 byte order mark
	}
	return p
}

// newCSVParserAt reads records from a record boundary inside a file, on 1-based line line.
func newCSVParserAt(r io.Reader, maxRecord int64, line int64, d source.CSVDialect) *csvParser {
	p := &csvParser{r: bufio.NewReaderSize(r, 1<<16), line: line, max: maxRecord, delim: d.Delim(), quote: d.QuoteChar()}
	for i := range 256 {
		c := byte(i)
		p.plain[0][i] = c != p.delim && c != p.quote && c != '\r' && c != '\n'
		p.plain[1][i] = c != p.quote && c != '\n'
	}
	return p
}

// putRun adds the field content that follows in the read buffer, up to its first byte that is
// not plain for the state at (csvUnquoted or csvQuoted), in one step. It adds nothing when the run
// would pass the budget: the caller's byte-by-byte path then stops at the exact byte.
func (p *csvParser) putRun(at csvState) {
	plain := &p.plain[0]
	if at == csvQuoted {
		plain = &p.plain[1]
	}
	b, _ := p.r.Peek(p.r.Buffered())
	k := 0
	for k < len(b) && plain[b[k]] {
		k++
	}
	if k == 0 {
		return
	}
	if !p.skip {
		if p.used+int64(k) > p.max {
			return
		}
		p.used += int64(k)
		p.buf.Write(b[:k])
	}
	_, _ = p.r.Discard(k)
}

// errCSV is a syntax error at a line.
type errCSV struct {
	line int64
	msg  string
}

func (e *errCSV) Error() string { return fmt.Sprintf("line %d: malformed CSV: %s", e.line, e.msg) }

// errCSVTooLarge is a record over the parser's budget; the record holds the fields read until then.
type errCSVTooLarge struct{ max int64 }

func (e *errCSVTooLarge) Error() string {
	return fmt.Sprintf("a record of at most %d bytes (its text plus %d per field)", e.max, source.ValueCost)
}

// read returns the next record, or io.EOF when the input is exhausted.
func (p *csvParser) read(rec *csvRecord) error {
	if p.resume != csvDone { // the rest of a record over the budget
		from := p.resume
		p.resume, p.skip = csvDone, true
		var rest csvRecord
		err := p.fields(&rest, from)
		p.skip = false
		if err != nil {
			return err
		}
	}
	rec.fields, rec.quoted = rec.fields[:0], rec.quoted[:0]
	rec.line = p.line
	p.used = 0
	if _, err := p.r.Peek(1); err != nil {
		return err // io.EOF when the input is exhausted; a read error must not pass for a record end
	}
	return p.fields(rec, csvFieldStart)
}

// charge counts n bytes of the record against the budget.
func (p *csvParser) charge(n int64, at csvState) error {
	if p.skip {
		return nil
	}
	if p.used += n; p.used > p.max {
		p.resume = at
		return &errCSVTooLarge{p.max}
	}
	return nil
}

// put adds a byte to the field being read.
func (p *csvParser) put(c byte, at csvState) error {
	if p.skip {
		return nil
	}
	if err := p.charge(1, at); err != nil {
		return err
	}
	p.buf.WriteByte(c)
	return nil
}

// fields reads the fields of a record through its end, starting at state at. The fields' text is
// collected in p.buf and made one string, which the record's fields are substrings of (also when
// the record ends in an error: the fields read until then).
func (p *csvParser) fields(rec *csvRecord, at csvState) error {
	p.buf.Reset()
	p.ends = p.ends[:0]
	err := p.scanFields(rec, at)
	if n := len(p.ends); n > 0 && !p.skip {
		all := string(p.buf.Bytes()[:p.ends[n-1]])
		start := 0
		for _, end := range p.ends {
			rec.fields = append(rec.fields, all[start:end])
			start = end
		}
	}
	return err
}

// scanFields reads the fields of a record for fields: the end of each field's text in p.buf is
// appended to p.ends, whether it was quoted to rec.quoted.
func (p *csvParser) scanFields(rec *csvRecord, at csvState) error {
	for {
		if at == csvFieldStart {
			if err := p.charge(source.ValueCost, csvFieldStart); err != nil {
				return err
			}
		}
		quoted := at == csvQuoted
		var c byte
		var err error
		if at != csvQuoted {
			c, err = p.r.ReadByte()
			quoted = at == csvFieldStart && err == nil && c == p.quote
		}
		at = csvFieldStart
		if quoted {
			if err := p.readQuoted(); err != nil {
				return err
			}
			c, err = p.r.ReadByte()
		} else {
			for err == nil && c != p.delim && c != '\n' {
				if c == p.quote {
					return &errCSV{p.line, "a quote inside an unquoted field: quote the whole field and double inner quotes"}
				}
				if c == '\r' {
					if next, _ := p.r.Peek(1); len(next) == 1 && next[0] == '\n' {
						c, err = p.r.ReadByte()
						break
					}
				}
				if err := p.put(c, csvUnquoted); err != nil {
					return err
				}
				p.putRun(csvUnquoted)
				c, err = p.r.ReadByte()
			}
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		if !p.skip {
			p.ends = append(p.ends, p.buf.Len())
			rec.quoted = append(rec.quoted, quoted)
		}
		switch {
		case err != nil: // EOF ends the last record
			return nil
		case c == p.delim:
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
		return &errCSV{p.line, fmt.Sprintf("unexpected %q after a closing quote: a quoted field must be followed by %q or a line end", c, p.delim)}
	}
}

// readQuoted reads a quoted field's content after its opening quote, through the closing quote.
func (p *csvParser) readQuoted() error {
	start := p.line
	for {
		p.putRun(csvQuoted)
		c, err := p.r.ReadByte()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return &errCSV{start, "a quoted field is not closed before the end of the file"}
			}
			return err
		}
		if c == p.quote {
			if next, _ := p.r.Peek(1); len(next) == 1 && next[0] == p.quote {
				_, _ = p.r.ReadByte()
				if err := p.put(p.quote, csvQuoted); err != nil {
					return err
				}
				continue
			}
			return nil
		}
		if c == '\n' {
			p.line++
		}
		if err := p.put(c, csvQuoted); err != nil {
			return err
		}
	}
}
