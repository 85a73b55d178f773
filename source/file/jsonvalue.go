package file

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/source"
)

// object is a JSON object with its keys in input order.
type object struct {
	keys []string
	vals []any
}

// jsonLimits bound one decoded JSON value: its nesting depth and the memory its values take.
type jsonLimits struct {
	depth  int   // deepest nesting of arrays and objects
	budget int64 // bytes the decoded values may take, at source.ValueCost per value
}

func jsonLimitsOf(l source.Limits) jsonLimits {
	return jsonLimits{depth: l.JSONDepth(), budget: l.RecordBytes()}
}

// jsonLimitError is a JSON value past a jsonLimits bound: expected says what the input should be,
// the message what it is and what to do.
type jsonLimitError struct{ expected, msg string }

func (e *jsonLimitError) Error() string { return e.msg }

// decodeJSON decodes exactly one JSON value from data: nil, bool, json.Number, string, []any or
// *object. Duplicate object keys and trailing data are errors, and so (a *jsonLimitError) is nesting
// deeper than lim.depth or more values than lim.budget allows: the decoder recurses once per level
// and the values of a line of "[0,0,…" take 16 times its bytes.
func decodeJSON(data []byte, lim jsonLimits) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	d := &jsonDecoder{dec: dec, lim: lim}
	v, err := d.value(0)
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		// Never let io.EOF escape: readers take it for the end of the file.
		return nil, errors.New("unexpected end of JSON input")
	}
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("unexpected data after the JSON value at byte %d", dec.InputOffset())
	}
	return v, nil
}

type jsonDecoder struct {
	dec  *json.Decoder
	lim  jsonLimits
	used int64 // bytes charged for the values decoded so far
}

// charge counts one value (or object key) against the budget.
func (d *jsonDecoder) charge() error {
	if d.used += source.ValueCost; d.used <= d.lim.budget {
		return nil
	}
	return &jsonLimitError{fmt.Sprintf("at most %d JSON values and keys in one record", d.lim.budget/source.ValueCost),
		fmt.Sprintf("it holds more, which would take more than %d bytes of memory (%d per value) once decoded: raise --max-record-bytes (MappingOptions.Limits.MaxRecordBytes) or split the record",
			d.lim.budget, source.ValueCost)}
}

func (d *jsonDecoder) value(depth int) (any, error) {
	if err := d.charge(); err != nil {
		return nil, err
	}
	dec := d.dec
	tok, err := dec.Token()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("unexpected end of JSON input")
		}
		return nil, err
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		return tok, nil
	}
	if (delim == '{' || delim == '[') && depth >= d.lim.depth {
		return nil, &jsonLimitError{fmt.Sprintf("JSON nested at most %d levels deep", d.lim.depth),
			fmt.Sprintf("the value is nested deeper than %d levels: raise --max-json-depth (MappingOptions.Limits.MaxJSONDepth) or flatten it", d.lim.depth)}
	}
	switch delim {
	case '{':
		obj := &object{}
		seen := map[string]bool{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k := kt.(string)
			if err := d.charge(); err != nil { // the key
				return nil, err
			}
			if seen[k] {
				return nil, fmt.Errorf("duplicate key %q in JSON object", k)
			}
			seen[k] = true
			v, err := d.value(depth + 1)
			if err != nil {
				return nil, err
			}
			obj.keys, obj.vals = append(obj.keys, k), append(obj.vals, v)
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		return obj, nil
	case '[':
		arr := []any{}
		for dec.More() {
			v, err := d.value(depth + 1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		return arr, nil
	}
	return nil, fmt.Errorf("unexpected %q", delim)
}

// jsonText renders a decoded JSON value for messages.
func jsonText(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	case []any:
		return fmt.Sprintf("array of %d elements", len(x))
	case *object:
		return fmt.Sprintf("object with keys %q", x.keys)
	}
	return fmt.Sprint(v)
}

// jsonEnv holds what nested JSON appends need.
type jsonEnv struct {
	loc         *time.Location
	ignoreExtra bool
}

// appendJSON appends the decoded JSON value v of type t to b. path names the column (and the
// element or field inside it) in errors.
func appendJSON(env jsonEnv, b array.Builder, t spec.DataType, v any, path string) error {
	if v == nil {
		if !t.Nullable {
			return &badValue{path: path, value: "null", expected: "a non-null value: the column is NOT NULL"}
		}
		b.AppendNull()
		return nil
	}
	withPath := func(err error) error {
		if bv, ok := err.(*badValue); ok {
			bv.path = path
			if bv.value == "" {
				bv.value = jsonText(v)
			}
		}
		return err
	}
	mismatch := func(what string) error {
		return &badValue{path: path, value: jsonText(v), expected: expectedForm(t) + " (" + what + ")"}
	}
	if t.IsAtomic() {
		var text string
		switch x := v.(type) {
		case string:
			text = x
		case json.Number:
			switch t.Root {
			case spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt, spec.Float, spec.Double, spec.Decimal, spec.Boolean:
				text = x.String()
			default:
				return mismatch("got a JSON number, expected a JSON string")
			}
		case bool:
			if t.Root != spec.Boolean {
				return mismatch("got a JSON boolean")
			}
			text = strconv.FormatBool(x)
		default:
			return mismatch("got a JSON array or object")
		}
		return withPath(appendText(b, t, text, env.loc))
	}
	switch t.Root {
	case spec.Array:
		arr, ok := v.([]any)
		if !ok {
			return mismatch("got " + jsonText(v))
		}
		lb := b.(*array.ListBuilder)
		lb.Append(true)
		for i, e := range arr {
			if err := appendJSON(env, lb.ValueBuilder(), *t.Elem, e, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		return nil
	case spec.Map:
		obj, ok := v.(*object)
		if !ok {
			return mismatch("got " + jsonText(v))
		}
		mb := b.(*array.MapBuilder)
		mb.Append(true)
		key := *t.Elem
		key.Nullable = false
		for i, k := range obj.keys {
			kp := fmt.Sprintf("%s.key(%q)", path, k)
			if err := appendJSON(env, mb.KeyBuilder(), key, k, kp); err != nil {
				return err
			}
			if err := appendJSON(env, mb.ItemBuilder(), *t.Value, obj.vals[i], fmt.Sprintf("%s[%q]", path, k)); err != nil {
				return err
			}
		}
		return nil
	case spec.Row:
		obj, ok := v.(*object)
		if !ok {
			return mismatch("got " + jsonText(v))
		}
		sb := b.(*array.StructBuilder)
		vals, err := rowValues(env, t, obj, path)
		if err != nil {
			return err
		}
		sb.Append(true)
		for i, f := range t.Fields {
			if err := appendJSON(env, sb.FieldBuilder(i), f.Type, vals[i], path+"."+f.Name); err != nil {
				return err
			}
		}
		return nil
	}
	return mismatch("unsupported type")
}

// rowValues matches the keys of obj to the fields of ROW type t by name.
func rowValues(env jsonEnv, t spec.DataType, obj *object, path string) ([]any, error) {
	m, err := source.NewMatcher(t.Fields, source.MappingOptions{})
	if err != nil {
		return nil, err
	}
	vals := make([]any, len(t.Fields))
	set := make([]bool, len(t.Fields))
	for j, k := range obj.keys {
		i, err := m.Resolve(k)
		if err != nil {
			return nil, &badValue{path: path, value: jsonText(obj), expected: "ROW field names: " + err.Error()}
		}
		if i < 0 {
			if env.ignoreExtra {
				continue
			}
			return nil, &badValue{path: path, value: jsonText(obj), expected: fmt.Sprintf("only fields of the ROW type (key %q matches none; remove it or ignore extra columns)", k)}
		}
		if set[i] {
			return nil, &badValue{path: path, value: jsonText(obj), expected: fmt.Sprintf("one key per ROW field (two keys match %q)", t.Fields[i].Name)}
		}
		vals[i], set[i] = obj.vals[j], true
	}
	return vals, nil
}
