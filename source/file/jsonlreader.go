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
	last     []byte // the line read last
}

// raw returns the line read last, for the quarantine.
func (s *jsonlSource) raw() string { return string(s.last) }

func newJSONLSource(path string, r io.Reader, fields []spec.DataField, opts source.MappingOptions) (*jsonlSource, error) {
	m, err := source.NewMatcher(fields, opts)
	if err != nil {
		return nil, fmt.Errorf("file %s: %w", path, err)
	}
	return &jsonlSource{path: path, r: bufio.NewReaderSize(r, 1<<16), fields: fields, matcher: m, resolved: map[string]int{},
		opts: opts, env: jsonEnv{loc: opts.Location(), ignoreExtra: opts.IgnoreExtra},
		vals: make([]any, len(fields)), set: make([]bool, len(fields))}, nil
}

// nextLine returns the next line without its line end, or io.EOF.
func (s *jsonlSource) nextLine() ([]byte, error) {
	line, err := s.r.ReadBytes('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("file %s: %w", s.path, err)
	}
	if len(line) == 0 && errors.Is(err, io.EOF) {
		return nil, io.EOF
	}
	s.line++
	line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
	if s.line == 1 {
		line = bytes.TrimPrefix(line, []byte{0xEF, 0xBB, 0xBF})
	}
	s.last = line
	return line, nil
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
	doc, err := decodeJSON(line)
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
				return fmt.Errorf("file %s, line %d: key %q matches no table column: remove it, add it to the table, or ignore extra columns (--ignore-extra-columns, MappingOptions.IgnoreExtra)", s.path, s.line, k)
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
