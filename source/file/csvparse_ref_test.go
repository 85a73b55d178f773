package file

// refCSVParser is the byte-at-a-time CSV parser csvParser replaced, kept as the reference its
// results must equal (FuzzCSVParserMatchesReference).

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/source"
)

// refCSVParser reads RFC 4180 records (delimiter ',', '"' quotes with "" escapes, CRLF or LF line
// ends; another delimiter and quote character per source.CSVDialect). Unlike encoding/csv it reports whether each field was quoted, and it never skips lines.
// A record whose fields take more than max bytes (their text plus source.ValueCost per field) is an
// errCSVTooLarge: the parser stops storing it there, and skips its rest (without storing it) when
// read is called again.
type refCSVParser struct {
	r     *bufio.Reader
	delim byte  // between fields
	quote byte  // around quoted fields
	line  int64 // 1-based line of the next byte
	buf   bytes.Buffer
	max   int64 // the record budget
	used  int64 // budget used by the record being read
	// resume is where the record cut short by the budget stopped (csvDone: none); skip says its
	// rest is being consumed without storing it.
	resume csvState
	skip   bool
}

// newRefCSVParser reads a file from its first byte, skipping a UTF-8 byte order mark.
func newRefCSVParser(r io.Reader, maxRecord int64, d source.CSVDialect) *refCSVParser {
	p := newRefCSVParserAt(r, maxRecord, 1, d)
	if b, err := p.r.Peek(3); err == nil && bytes.Equal(b, []byte{0xEF, 0xBB, 0xBF}) {
		_, _ = p.r.Discard(3) // UTF-8 byte order mark
	}
	return p
}

// newRefCSVParserAt reads records from a record boundary inside a file, on 1-based line line.
func newRefCSVParserAt(r io.Reader, maxRecord int64, line int64, d source.CSVDialect) *refCSVParser {
	return &refCSVParser{r: bufio.NewReaderSize(r, 1<<16), line: line, max: maxRecord, delim: d.Delim(), quote: d.QuoteChar()}
}

// read returns the next record, or io.EOF when the input is exhausted.
func (p *refCSVParser) read(rec *csvRecord) error {
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
func (p *refCSVParser) charge(n int64, at csvState) error {
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
func (p *refCSVParser) put(c byte, at csvState) error {
	if p.skip {
		return nil
	}
	if err := p.charge(1, at); err != nil {
		return err
	}
	p.buf.WriteByte(c)
	return nil
}

// fields reads the fields of a record through its end, starting at state at.
func (p *refCSVParser) fields(rec *csvRecord, at csvState) error {
	for {
		if at == csvFieldStart {
			if err := p.charge(source.ValueCost, csvFieldStart); err != nil {
				return err
			}
		}
		p.buf.Reset()
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
				c, err = p.r.ReadByte()
			}
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		if !p.skip {
			rec.fields = append(rec.fields, p.buf.String())
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
func (p *refCSVParser) readQuoted() error {
	start := p.line
	for {
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

// csvRefSeeds are inputs at the edges of the CSV grammar, each read with every dialect and three budgets.
var csvRefSeeds = []string{"a,b,c\n1,\"x,y\",\n\"q\"\"uote\",\"multi\nline\",z\r\n", "a\r\rb,c\n\"x\"y\n", "\"open\n", "a\"b,c\n",
	"\xEF\xBB\xBFh1;h2\n1;2\n", "x,\"\",\\N\n\n,\n", strings.Repeat("abcdefgh,", 40) + "\n1\n", "1;2,3\t4\n'a\tb';\"c;d\"\n"}

// TestCSVParserMatchesReference: on the seeds, csvParser reads what the reference reads.
func TestCSVParserMatchesReference(t *testing.T) {
	for _, s := range csvRefSeeds {
		for d := range uint8(3) {
			for _, budget := range []int64{1 << 20, 40, 70} {
				checkCSVParser(t, []byte(s), d, budget)
			}
		}
	}
}

// FuzzCSVParserMatchesReference: csvParser reads the same records (fields, quoted flags, lines) and
// errors as the byte-at-a-time reference, for any dialect and record budget, also past a record over
// the budget.
func FuzzCSVParserMatchesReference(f *testing.F) {
	for _, s := range csvRefSeeds {
		f.Add([]byte(s), uint8(0), int64(1<<20))
		f.Add([]byte(s), uint8(1), int64(40))
		f.Add([]byte(s), uint8(2), int64(70))
	}
	f.Fuzz(checkCSVParser)
}

func checkCSVParser(t *testing.T, data []byte, dialect uint8, budget int64) {
	{
		dialects := []source.CSVDialect{{}, {Delimiter: ';'}, {Delimiter: '\t', Quote: '\''}}
		d := dialects[int(dialect)%len(dialects)]
		budget = source.ValueCost + max(0, budget%(1<<16))
		p, ref := newCSVParser(bytes.NewReader(data), budget, d), newRefCSVParser(bytes.NewReader(data), budget, d)
		for i := 0; i < 1000; i++ {
			var got, want csvRecord
			err, wantErr := p.read(&got), ref.read(&want)
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("record %d: error %v, reference %v", i, err, wantErr)
			}
			if !reflect.DeepEqual(got.fields, want.fields) || !reflect.DeepEqual(got.quoted, want.quoted) || got.line != want.line {
				t.Fatalf("record %d: %q %v line %d, reference %q %v line %d", i, got.fields, got.quoted, got.line, want.fields, want.quoted, want.line)
			}
			if p.line != ref.line {
				t.Fatalf("record %d: next line %d, reference %d", i, p.line, ref.line)
			}
			var tl *errCSVTooLarge
			if err != nil && !errors.As(err, &tl) {
				return
			}
		}
	}
}
