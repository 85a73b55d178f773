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

// decodeJSON decodes exactly one JSON value from data: nil, bool, json.Number, string, []any or
// *object. Duplicate object keys and trailing data are errors.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
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

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("unexpected end of JSON input")
		}
		return nil, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil
	}
	switch d {
	case '{':
		obj := &object{}
		seen := map[string]bool{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k := kt.(string)
			if seen[k] {
				return nil, fmt.Errorf("duplicate key %q in JSON object", k)
			}
			seen[k] = true
			v, err := decodeValue(dec)
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
			v, err := decodeValue(dec)
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
	return nil, fmt.Errorf("unexpected %q", d)
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
