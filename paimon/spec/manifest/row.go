package manifest

import (
	"math"
	"time"
)

// row is one decoded record (see valueDecoder): field name → value, nil for null.
// Its accessors turn missing or mistyped fields into errors wrapping spec.ErrCorrupt.
type row struct {
	m    map[string]any
	what string // e.g. "manifest row 3 _FILE", used in error messages
}

func (r row) missing(name string) error { return corruptf("%s: missing field %s", r.what, name) }

func (r row) wrongType(name string, v any, want string) error {
	return corruptf("%s: field %s is %T, want %s", r.what, name, v, want)
}

func asInt64(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case int:
		return int64(x), true
	case int32:
		return int64(x), true
	case time.Time:
		return x.UnixMilli(), true
	}
	return 0, false
}

func (r row) reqLong(name string) (int64, error) {
	p, err := r.optLong(name)
	if err == nil && p == nil {
		return 0, r.missing(name)
	}
	if err != nil {
		return 0, err
	}
	return *p, nil
}

func (r row) optLong(name string) (*int64, error) {
	v := r.m[name]
	if v == nil {
		return nil, nil
	}
	n, ok := asInt64(v)
	if !ok {
		return nil, r.wrongType(name, v, "long")
	}
	return &n, nil
}

func (r row) reqInt(name string) (int32, error) {
	p, err := r.optInt(name)
	if err == nil && p == nil {
		return 0, r.missing(name)
	}
	if err != nil {
		return 0, err
	}
	return *p, nil
}

func (r row) optInt(name string) (*int32, error) {
	v := r.m[name]
	if v == nil {
		return nil, nil
	}
	n, ok := asInt64(v)
	if !ok || n < math.MinInt32 || n > math.MaxInt32 {
		return nil, r.wrongType(name, v, "int")
	}
	i := int32(n)
	return &i, nil
}

func (r row) reqString(name string) (string, error) {
	p, err := r.optString(name)
	if err == nil && p == nil {
		return "", r.missing(name)
	}
	if err != nil {
		return "", err
	}
	return *p, nil
}

func (r row) optString(name string) (*string, error) {
	v := r.m[name]
	if v == nil {
		return nil, nil
	}
	s, ok := v.(string)
	if !ok {
		return nil, r.wrongType(name, v, "string")
	}
	return &s, nil
}

func (r row) reqBytes(name string) ([]byte, error) {
	b, err := r.optBytes(name)
	if err == nil && b == nil {
		return nil, r.missing(name)
	}
	return b, err
}

// optBytes returns nil for null or missing, and a non-nil slice otherwise.
func (r row) optBytes(name string) ([]byte, error) {
	v := r.m[name]
	if v == nil {
		return nil, nil
	}
	b, ok := v.([]byte)
	if !ok {
		return nil, r.wrongType(name, v, "bytes")
	}
	if b == nil {
		b = []byte{}
	}
	return b, nil
}

// optStrings returns nil for null or missing, and a non-nil slice (possibly empty) otherwise.
func (r row) optStrings(name string) ([]string, error) {
	v := r.m[name]
	if v == nil {
		return nil, nil
	}
	a, ok := v.([]any)
	if !ok {
		return nil, r.wrongType(name, v, "array<string>")
	}
	out := make([]string, len(a))
	for i, x := range a {
		s, ok := x.(string)
		if !ok {
			return nil, r.wrongType(name, x, "string element")
		}
		out[i] = s
	}
	return out, nil
}

// optRecords returns the records of a nullable array of (nullable) records; nil for null.
func (r row) optRecords(name string) ([]row, error) {
	v := r.m[name]
	if v == nil {
		return nil, nil
	}
	a, ok := v.([]any)
	if !ok {
		return nil, r.wrongType(name, v, "array<record>")
	}
	out := make([]row, len(a))
	for i, x := range a {
		m, ok := x.(map[string]any)
		if !ok {
			return nil, r.wrongType(name, x, "record element")
		}
		out[i] = row{m: m, what: r.what + " " + name + "[" + itoa(int64(i)) + "]"}
	}
	return out, nil
}

func (r row) reqRecord(name string) (row, error) {
	v := r.m[name]
	if v == nil {
		return row{}, r.missing(name)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return row{}, r.wrongType(name, v, "record")
	}
	return row{m: m, what: r.what + " " + name}, nil
}

// stats reads a SimpleStats record. A null _NULL_COUNTS reads as nil.
func (r row) stats(name string) (SimpleStats, error) {
	s, err := r.reqRecord(name)
	if err != nil {
		return SimpleStats{}, err
	}
	var out SimpleStats
	if out.MinValues, err = s.reqBytes("_MIN_VALUES"); err != nil {
		return SimpleStats{}, err
	}
	if out.MaxValues, err = s.reqBytes("_MAX_VALUES"); err != nil {
		return SimpleStats{}, err
	}
	if v := s.m["_NULL_COUNTS"]; v != nil {
		a, ok := v.([]any)
		if !ok {
			return SimpleStats{}, s.wrongType("_NULL_COUNTS", v, "array<long>")
		}
		out.NullCounts = make([]*int64, len(a))
		for i, x := range a {
			if x == nil {
				continue
			}
			n, ok := asInt64(x)
			if !ok {
				return SimpleStats{}, s.wrongType("_NULL_COUNTS", x, "long element")
			}
			out.NullCounts[i] = &n
		}
	}
	return out, nil
}

// version checks _VERSION against the one value Java accepts.
func (r row) version(want int32) error {
	v, err := r.reqInt("_VERSION")
	if err != nil {
		return err
	}
	if v != want {
		return corruptf("%s: _VERSION %d, want %d", r.what, v, want)
	}
	return nil
}

func (r row) kind() (FileKind, error) {
	k, err := r.reqInt("_KIND")
	if err != nil {
		return 0, err
	}
	if k != int32(Add) && k != int32(Delete) {
		return 0, corruptf("%s: unknown _KIND %d", r.what, k)
	}
	return FileKind(k), nil
}

// fields reads many fields of one row and keeps the first error (sticky), so that decoders can
// read a whole record and check once.
type fields struct {
	r   row
	err error
}

func keep[T any](f *fields, get func(string) (T, error), name string) T {
	var zero T
	if f.err != nil {
		return zero
	}
	v, err := get(name)
	if err != nil {
		f.err = err
		return zero
	}
	return v
}

func (f *fields) long(name string) int64          { return keep(f, f.r.reqLong, name) }
func (f *fields) optLong(name string) *int64      { return keep(f, f.r.optLong, name) }
func (f *fields) int(name string) int32           { return keep(f, f.r.reqInt, name) }
func (f *fields) optInt(name string) *int32       { return keep(f, f.r.optInt, name) }
func (f *fields) str(name string) string          { return keep(f, f.r.reqString, name) }
func (f *fields) optStr(name string) *string      { return keep(f, f.r.optString, name) }
func (f *fields) bytes(name string) []byte        { return keep(f, f.r.reqBytes, name) }
func (f *fields) optBytes(name string) []byte     { return keep(f, f.r.optBytes, name) }
func (f *fields) optStrings(name string) []string { return keep(f, f.r.optStrings, name) }
func (f *fields) optRecords(name string) []row    { return keep(f, f.r.optRecords, name) }
func (f *fields) record(name string) row          { return keep(f, f.r.reqRecord, name) }
func (f *fields) stats(name string) SimpleStats   { return keep(f, f.r.stats, name) }
func (f *fields) version(want int32) {
	_ = keep(f, func(string) (int, error) { return 0, f.r.version(want) }, "")
}
func (f *fields) kind() FileKind {
	return keep(f, func(string) (FileKind, error) { return f.r.kind() }, "")
}
