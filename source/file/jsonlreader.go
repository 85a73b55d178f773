package file

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/source"
)

// jsonlSource converts JSON Lines: one JSON object per line, keys matched to table columns by name.
type jsonlSource struct {
	path     string
	r        *bufio.Reader
	line     int64 // 1-based line of the last line read
	fields   []spec.DataField
	matcher  *source.Matcher
	resolved map[string]int // key → field index, source.OpIndex or -1
	opts     source.MappingOptions
	env      jsonEnv
	vals     []any
	set      []bool
	last     []byte // the line read last (of a line over the limit: its first maxRawBytes bytes)
	buf      []byte // holds the line being read
	maxLine  int64  // the longest line, in bytes (line end excluded)
	json     jsonLimits
	fast     jsonFast
	// skipping says the line read last was over maxLine and its rest is still to be skipped.
	skipping bool
}

// maxRawBytes is how much of a record over the size limit the quarantine keeps.
const maxRawBytes = 1024

// raw returns the line read last, for the quarantine.
func (s *jsonlSource) raw() string { return string(s.last) }

func newJSONLSource(path string, r io.Reader, fields []spec.DataField, opts source.MappingOptions) (*jsonlSource, error) {
	m, err := source.NewMatcher(fields, opts)
	if err != nil {
		return nil, fmt.Errorf("file %s: %w", path, err)
	}
	return &jsonlSource{path: path, r: bufio.NewReaderSize(r, 1<<16), fields: fields, matcher: m, resolved: map[string]int{},
		opts: opts, env: jsonEnv{loc: opts.Location(), ignoreExtra: opts.IgnoreExtra},
		vals: make([]any, len(fields)), set: make([]bool, len(fields)),
		maxLine: opts.Limits.RecordBytes(), json: jsonLimitsOf(opts.Limits)}, nil
}

// nextLine returns the next line without its line end, or io.EOF. A line longer than s.maxLine is
// a row error: reading stops at the limit, and the rest of the line is skipped (not buffered) by the
// next call, when there is one (a rejected row).
func (s *jsonlSource) nextLine() ([]byte, error) {
	if s.skipping {
		if err := s.skipLine(); err != nil {
			return nil, err
		}
	}
	s.buf = s.buf[:0]
	var err error
	for {
		var frag []byte
		frag, err = s.r.ReadSlice('\n')
		s.buf = append(s.buf, frag...)
		if int64(len(s.buf)) > s.maxLine+2 && !bytes.HasSuffix(s.buf, []byte("\n")) { // 2: a CRLF line end
			s.line++
			s.skipping = true
			return nil, s.tooLong()
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			break
		}
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("file %s: %w", s.path, err)
	}
	if len(s.buf) == 0 && errors.Is(err, io.EOF) {
		return nil, io.EOF
	}
	s.line++
	line := bytes.TrimSuffix(bytes.TrimSuffix(s.buf, []byte("\n")), []byte("\r"))
	if s.line == 1 {
		line = bytes.TrimPrefix(line, []byte{0xEF, 0xBB, 0xBF})
	}
	if int64(len(line)) > s.maxLine {
		return nil, s.tooLong()
	}
	s.last = line
	return line, nil
}

// tooLong reports the line in s.buf as longer than the limit, keeping its start for the quarantine.
func (s *jsonlSource) tooLong() error {
	s.last = s.buf[:min(len(s.buf), maxRawBytes)]
	return &source.ValueError{File: s.path, Line: s.line, Row: -1, Column: "(line)", Value: source.Truncate(string(s.last)),
		Expected: fmt.Sprintf("a line of at most %d bytes: the line is longer; raise --max-record-bytes (MappingOptions.Limits.MaxRecordBytes) or split the record", s.maxLine)}
}

// skipLine consumes the rest of a line over the limit, through its line end.
func (s *jsonlSource) skipLine() error {
	for {
		_, err := s.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		s.skipping = false
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("file %s: %w", s.path, err)
		}
		return nil
	}
}

// object reads the next line as a JSON object.
func (s *jsonlSource) object() (*object, error) {
	line, err := s.nextLine()
	if err != nil {
		return nil, err
	}
	bad := func(msg string, cause error) error {
		return &source.ValueError{File: s.path, Line: s.line, Row: -1, Column: "(line)", Value: source.Truncate(string(line)), Expected: msg, Err: cause}
	}
	if len(bytes.TrimSpace(line)) == 0 {
		return nil, bad("a JSON object (empty lines are not allowed)", nil)
	}
	if !utf8.Valid(line) {
		return nil, bad("UTF-8 text", nil)
	}
	doc, err := s.fast.decode(line, s.json)
	if le, ok := err.(*jsonLimitError); ok {
		return nil, bad(le.expected, le)
	}
	if err != nil {
		return nil, bad("one well-formed JSON object per line", err)
	}
	obj, ok := doc.(*object)
	if !ok {
		return nil, bad("a JSON object per line, not "+jsonText(doc), nil)
	}
	return obj, nil
}

func (s *jsonlSource) skipRow() error {
	_, err := s.object()
	return err
}

func (s *jsonlSource) readRow(sink *rowSink) error {
	obj, err := s.object()
	if err != nil {
		return err
	}
	clear(s.vals)
	clear(s.set)
	var op any
	hasOp := false
	for j, k := range obj.keys {
		i, ok := s.resolved[k]
		if !ok {
			if i, err = s.matcher.Resolve(k); err != nil {
				return fmt.Errorf("file %s, line %d: %w", s.path, s.line, err)
			}
			s.resolved[k] = i
		}
		switch {
		case i == source.OpIndex:
			if hasOp {
				return fmt.Errorf("file %s, line %d: two keys match op column %q: keep one", s.path, s.line, s.opts.OpColumn)
			}
			op, hasOp = obj.vals[j], true
		case i < 0:
			if !s.opts.IgnoreExtra {
				return fmt.Errorf("file %s, line %d: key %q matches no table column: remove it, add it to the table, or ignore extra columns (--ignore-extra-columns)", s.path, s.line, k)
			}
		case s.set[i]:
			return fmt.Errorf("file %s, line %d: two keys match table column %q: keep one", s.path, s.line, s.fields[i].Name)
		default:
			s.vals[i], s.set[i] = obj.vals[j], true
		}
	}
	for i, f := range s.fields {
		if !s.set[i] && !f.Type.Nullable {
			return &source.ValueError{File: s.path, Line: s.line, Row: -1, Column: f.Name, Value: "(missing)",
				Expected: "a value: the column is NOT NULL, so every line needs this key"}
		}
		if err := appendJSON(s.env, sink.builders[i], f.Type, s.vals[i], f.Name); err != nil {
			if bv, ok := err.(*badValue); ok {
				return &source.ValueError{File: s.path, Line: s.line, Row: -1, Column: bv.path, Value: source.Truncate(bv.value), Expected: bv.expected, Err: bv.cause}
			}
			return fmt.Errorf("file %s, line %d: %w", s.path, s.line, err)
		}
	}
	if sink.withOp {
		str, isStr := op.(string)
		k, ok := source.ParseRowKind(str)
		if !hasOp || !isStr || !ok {
			shown := "(missing)"
			if hasOp {
				shown = jsonText(op)
			}
			return &source.ValueError{File: s.path, Line: s.line, Row: -1, Column: s.opts.OpColumn, Value: source.Truncate(shown),
				Expected: "a JSON string holding a row kind: " + source.RowKindForms}
		}
		sink.kinds = append(sink.kinds, k)
	}
	return nil
}
