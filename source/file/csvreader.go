package file

import (
	"errors"
	"fmt"
	"github.com/apache/arrow-go/v18/arrow/array"
	"io"
	"strings"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/source"
)

// csvNull is the literal that reads as null when unquoted (an unquoted empty field is null too).
const csvNull = `\N`

// csvSource converts CSV records using a header row.
type csvSource struct {
	path   string
	p      *csvParser
	header []string
	cols   *source.ColumnMap
	env    jsonEnv
	json   jsonLimits
	fast   jsonFast
	rec    csvRecord
	// dialect is the file's CSV dialect (raw re-encodes records in it).
	dialect source.CSVDialect
	// tooLarge says the last record was cut short at the size limit (raw keeps its start only).
	tooLarge bool
}

func newCSVSource(path string, r io.Reader, fields []spec.DataField, opts source.MappingOptions) (*csvSource, error) {
	if err := opts.CSV.Check(); err != nil {
		return nil, err
	}
	s := &csvSource{path: path, p: newCSVParser(r, opts.Limits.RecordBytes(), opts.CSV), env: jsonEnv{loc: opts.Location(), ignoreExtra: opts.IgnoreExtra},
		json: jsonLimitsOf(opts.Limits), dialect: opts.CSV}
	if opts.CSV.NoHeader {
		s.header = positionalHeader(fields, opts.OpColumn)
	} else if err := s.readHeader(); err != nil {
		return nil, err
	}
	cols, err := source.MapColumns(path, s.header, fields, opts)
	if err != nil {
		return nil, err
	}
	s.cols = cols
	return s, nil
}

// positionalHeader names the fields of a CSV file without a header row: the table's columns in
// schema order, then the op column when there is one (source.CSVDialect.NoHeader).
func positionalHeader(fields []spec.DataField, opColumn string) []string {
	names := make([]string, 0, len(fields)+1)
	for _, f := range fields {
		names = append(names, f.Name)
	}
	if opColumn != "" {
		names = append(names, opColumn)
	}
	return names
}

// readHeader reads the first record as the column names.
func (s *csvSource) readHeader() error {
	path := s.path
	var hdr csvRecord
	if err := s.p.read(&hdr); err != nil {
		if tl, ok := err.(*errCSVTooLarge); ok {
			return fmt.Errorf("file %s, line 1: the header is longer than %s: raise --max-record-bytes (MappingOptions.Limits.MaxRecordBytes) or check that the file is CSV", path, tl)
		}
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("file %s: empty CSV file (0 bytes): expected a header row naming the columns; write the header (a header-only file loads no rows), remove the file from the input, or pass --csv-header=false if no file has a header", path)
		}
		return fmt.Errorf("file %s: %w", path, err)
	}
	for i, name := range hdr.fields {
		if name == "" {
			return fmt.Errorf("file %s, line 1: header field %d is empty: every column needs a name (pass --csv-header=false if the file has no header)", path, i+1)
		}
	}
	s.header = hdr.fields
	return nil
}

// next reads the next record and checks its width.
func (s *csvSource) next() error {
	s.tooLarge = false
	if err := s.p.read(&s.rec); err != nil {
		if tl, ok := err.(*errCSVTooLarge); ok {
			s.tooLarge = true
			return &source.ValueError{File: s.path, Line: s.rec.line, Row: -1, Column: "(row)", Value: source.Truncate(s.raw()),
				Expected: tl.Error() + ": the record is longer; raise --max-record-bytes (MappingOptions.Limits.MaxRecordBytes) or split the record"}
		}
		if errors.Is(err, io.EOF) {
			return io.EOF
		}
		return fmt.Errorf("file %s, %w", s.path, err)
	}
	if len(s.rec.fields) != len(s.header) {
		if s.dialect.NoHeader {
			return &source.ValueError{File: s.path, Line: s.rec.line, Row: -1, Column: "(row)", Value: source.Truncate(s.raw()),
				Expected: fmt.Sprintf("one field per table column (the file has no header, --csv-header=false): the record has %d fields but the table has %d columns %s; fix the row (quote fields that contain %s)",
					len(s.rec.fields), len(s.header), s.header, delimName(s.dialect.Delim()))}
		}
		return &source.ValueError{File: s.path, Line: s.rec.line, Row: -1, Column: "(row)", Value: source.Truncate(s.raw()),
			Expected: fmt.Sprintf("as many fields as the header: the record has %d fields but the header has %d; fix the row (quote fields that contain %s)",
				len(s.rec.fields), len(s.header), delimName(s.dialect.Delim()))}
	}
	return nil
}

// raw re-encodes the last record as CSV (quoted fields quoted again), for the quarantine; of a
// record over the size limit only the first maxRawBytes bytes.
func (s *csvSource) raw() string {
	var b strings.Builder
	for i, f := range s.rec.fields {
		if s.tooLarge && b.Len() >= maxRawBytes {
			break
		}
		if i > 0 {
			b.WriteByte(s.dialect.Delim())
		}
		if s.tooLarge && len(f) > maxRawBytes {
			f = f[:maxRawBytes]
		}
		if s.rec.quoted[i] {
			q := string(s.dialect.QuoteChar())
			b.WriteString(q + strings.ReplaceAll(f, q, q+q) + q)
		} else {
			b.WriteString(f)
		}
	}
	if s.tooLarge && b.Len() > maxRawBytes {
		return b.String()[:maxRawBytes]
	}
	return b.String()
}

func (s *csvSource) skipRow() error { return s.next() }

func (s *csvSource) readRow(sink *rowSink) error {
	if err := s.next(); err != nil {
		return err
	}
	for i, f := range s.cols.Fields {
		j := s.cols.Input[i]
		b := sink.builders[i]
		if j < 0 {
			b.AppendNull()
			continue
		}
		v, quoted := s.rec.fields[j], s.rec.quoted[j]
		if err := s.appendCell(b, f.Type, v, quoted, s.header[j]); err != nil {
			return err
		}
	}
	if sink.withOp {
		v := s.rec.fields[s.cols.Op]
		k, ok := source.ParseRowKind(v)
		if !ok {
			return &source.ValueError{File: s.path, Line: s.rec.line, Row: -1, Column: s.header[s.cols.Op], Value: source.Truncate(v),
				Expected: "a row kind: " + source.RowKindForms}
		}
		sink.kinds = append(sink.kinds, k)
	}
	return nil
}

func (s *csvSource) appendCell(b array.Builder, t spec.DataType, v string, quoted bool, column string) error {
	wrap := func(err error) error {
		bv, ok := err.(*badValue)
		if !ok {
			return err
		}
		col := column
		if bv.path != "" {
			col = bv.path
		}
		if bv.value == "" && v != "" {
			bv.value = v
		}
		return &source.ValueError{File: s.path, Line: s.rec.line, Row: -1, Column: col, Value: source.Truncate(bv.value), Expected: bv.expected, Err: bv.cause}
	}
	if !quoted && (v == "" || v == csvNull) {
		if !t.Nullable {
			return &source.ValueError{File: s.path, Line: s.rec.line, Row: -1, Column: column, Value: v,
				Expected: "a non-null value: the column is NOT NULL (an unquoted empty field and \\N are null)"}
		}
		b.AppendNull()
		return nil
	}
	if t.IsAtomic() {
		return wrap(appendText(b, t, v, s.env.loc))
	}
	doc, err := s.fast.decode([]byte(v), s.json)
	if le, ok := err.(*jsonLimitError); ok {
		return &source.ValueError{File: s.path, Line: s.rec.line, Row: -1, Column: column, Value: source.Truncate(v), Expected: le.expected, Err: le}
	}
	if err != nil {
		return &source.ValueError{File: s.path, Line: s.rec.line, Row: -1, Column: column, Value: source.Truncate(v),
			Expected: expectedForm(t) + " written as JSON text", Err: err}
	}
	return wrap(appendJSON(s.env, b, t, doc, column))
}

// delimName names a delimiter in advice: "commas" for ',', else the character quoted.
func delimName(d byte) string {
	switch d {
	case ',':
		return "commas"
	case '\t':
		return "tabs"
	}
	return fmt.Sprintf("%q", d)
}
