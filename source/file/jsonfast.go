package file

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/lakeload/lakeload/source"
)

// jsonFast decodes JSON text into the values decodeJSON returns, without encoding/json's token
// reader on the happy path. It accepts exactly what decodeJSON accepts: on any input it does not
// decode to the end within the same limits (a syntax error, a duplicate key, a limit) it calls
// decodeJSON, whose result (and error message) is then the answer. Object keys are interned.
type jsonFast struct {
	intern map[string]string
}

// maxInterned bounds the interned keys of one reader.
const maxInterned = 4096

// decode decodes exactly one JSON value from data, like decodeJSON(data, lim).
func (f *jsonFast) decode(data []byte, lim jsonLimits) (any, error) {
	if f.intern == nil {
		f.intern = map[string]string{}
	}
	s := jsonScan{data: data, lim: lim, intern: f.intern}
	v, ok := s.value(0)
	if ok {
		s.ws()
		ok = s.pos == len(s.data)
	}
	if !ok {
		return decodeJSON(data, lim)
	}
	return v, nil
}

// jsonScan is one decode of jsonFast; its methods report false where decodeJSON must decide.
type jsonScan struct {
	data   []byte
	pos    int
	lim    jsonLimits
	used   int64
	intern map[string]string
}

func (s *jsonScan) ws() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// charge counts one value or key like jsonDecoder.charge.
func (s *jsonScan) charge() bool {
	s.used += source.ValueCost
	return s.used <= s.lim.budget
}

func (s *jsonScan) value(depth int) (any, bool) {
	if !s.charge() {
		return nil, false
	}
	s.ws()
	if s.pos >= len(s.data) {
		return nil, false
	}
	switch c := s.data[s.pos]; {
	case c == '{':
		if depth >= s.lim.depth {
			return nil, false
		}
		return s.object(depth)
	case c == '[':
		if depth >= s.lim.depth {
			return nil, false
		}
		return s.array(depth)
	case c == '"':
		return s.str(false)
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number()
	case c == 't':
		return true, s.literal("true")
	case c == 'f':
		return false, s.literal("false")
	case c == 'n':
		return nil, s.literal("null")
	}
	return nil, false
}

func (s *jsonScan) literal(lit string) bool {
	if len(s.data)-s.pos < len(lit) || string(s.data[s.pos:s.pos+len(lit)]) != lit {
		return false
	}
	s.pos += len(lit)
	return s.delimited()
}

// delimited reports whether a scalar ends here: what follows may only be whitespace, ',', ']', '}' or the end.
func (s *jsonScan) delimited() bool {
	if s.pos == len(s.data) {
		return true
	}
	switch s.data[s.pos] {
	case ' ', '\t', '\n', '\r', ',', ']', '}':
		return true
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// number scans a JSON number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *jsonScan) number() (any, bool) {
	d, start := s.data, s.pos
	i := s.pos
	if d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	default:
		return nil, false
	}
	if i < len(d) && d[i] == '.' {
		i++
		if i >= len(d) || !isDigit(d[i]) {
			return nil, false
		}
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || !isDigit(d[i]) {
			return nil, false
		}
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	}
	s.pos = i
	if !s.delimited() {
		return nil, false
	}
	return json.Number(d[start:i]), true
}

// str scans a JSON string at s.pos (its opening quote). A string with escapes or non-UTF-8 bytes is
// unquoted by encoding/json itself (its replacement rules); a key is interned.
func (s *jsonScan) str(key bool) (string, bool) {
	d := s.data
	i := s.pos + 1
	plain := true
	for ; i < len(d); i++ {
		c := d[i]
		if c == '"' {
			break
		}
		if c < 0x20 {
			return "", false
		}
		if c == '\\' {
			plain = false
			i++ // the escaped byte cannot close the string
		} else if c >= utf8.RuneSelf {
			plain = false
		}
	}
	if i >= len(d) {
		return "", false
	}
	lit := d[s.pos : i+1]
	s.pos = i + 1
	var out string
	if plain {
		body := lit[1 : len(lit)-1]
		if key {
			if k, ok := s.intern[string(body)]; ok {
				return k, true
			}
		}
		out = string(body)
	} else if err := json.Unmarshal(lit, &out); err != nil {
		return "", false
	}
	if key && len(s.intern) < maxInterned {
		s.intern[out] = out
	}
	return out, true
}

func (s *jsonScan) object(depth int) (any, bool) {
	s.pos++ // '{'
	obj := &object{}
	var seen map[string]bool // past a few keys; before, obj.keys is searched
	s.ws()
	if s.pos < len(s.data) && s.data[s.pos] == '}' {
		s.pos++
		return obj, true
	}
	for {
		s.ws()
		if s.pos >= len(s.data) || s.data[s.pos] != '"' {
			return nil, false
		}
		k, ok := s.str(true)
		if !ok || !s.charge() { // the key
			return nil, false
		}
		if s.duplicate(obj.keys, &seen, k) { // decodeJSON's error
			return nil, false
		}
		s.ws()
		if s.pos >= len(s.data) || s.data[s.pos] != ':' {
			return nil, false
		}
		s.pos++
		v, ok := s.value(depth + 1)
		if !ok {
			return nil, false
		}
		if obj.keys == nil {
			obj.keys, obj.vals = make([]string, 0, 8), make([]any, 0, 8)
		}
		obj.keys, obj.vals = append(obj.keys, k), append(obj.vals, v)
		s.ws()
		if s.pos >= len(s.data) {
			return nil, false
		}
		switch s.data[s.pos] {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return obj, true
		default:
			return nil, false
		}
	}
}

// duplicate reports whether k is among keys; past 16 keys it keeps them in *seen.
func (s *jsonScan) duplicate(keys []string, seen *map[string]bool, k string) bool {
	if len(keys) < 16 {
		for _, have := range keys {
			if have == k {
				return true
			}
		}
		return false
	}
	if *seen == nil {
		*seen = make(map[string]bool, 2*len(keys))
		for _, have := range keys {
			(*seen)[have] = true
		}
	}
	if (*seen)[k] {
		return true
	}
	(*seen)[k] = true
	return false
}

func (s *jsonScan) array(depth int) (any, bool) {
	s.pos++ // '['
	arr := []any{}
	s.ws()
	if s.pos < len(s.data) && s.data[s.pos] == ']' {
		s.pos++
		return arr, true
	}
	for {
		v, ok := s.value(depth + 1)
		if !ok {
			return nil, false
		}
		arr = append(arr, v)
		s.ws()
		if s.pos >= len(s.data) {
			return nil, false
		}
		switch s.data[s.pos] {
		case ',':
			s.pos++
		case ']':
			s.pos++
			return arr, true
		default:
			return nil, false
		}
	}
}
