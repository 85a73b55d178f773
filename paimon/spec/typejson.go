package spec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// String renders t as Java's DataType.asSQLString: "INT NOT NULL", "DECIMAL(10, 2)", "STRING", "BYTES",
// "TIMESTAMP(6) WITH LOCAL TIME ZONE", "ARRAY<INT>", "MAP<STRING, INT>", "ROW<`a` INT, `b` STRING>".
// For atomic types this is exactly the JSON string Java writes into schema files.
func (t DataType) String() string {
	var s string
	switch t.Root {
	case Boolean:
		s = "BOOLEAN"
	case TinyInt:
		s = "TINYINT"
	case SmallInt:
		s = "SMALLINT"
	case Int:
		s = "INT"
	case BigInt:
		s = "BIGINT"
	case Float:
		s = "FLOAT"
	case Double:
		s = "DOUBLE"
	case Date:
		s = "DATE"
	case Decimal:
		s = fmt.Sprintf("DECIMAL(%d, %d)", t.Precision, t.Scale)
	case Char:
		s = fmt.Sprintf("CHAR(%d)", t.Length)
	case VarChar:
		if t.Length == MaxLength {
			s = "STRING"
		} else {
			s = fmt.Sprintf("VARCHAR(%d)", t.Length)
		}
	case Binary:
		s = fmt.Sprintf("BINARY(%d)", t.Length)
	case VarBinary:
		if t.Length == MaxLength {
			s = "BYTES"
		} else {
			s = fmt.Sprintf("VARBINARY(%d)", t.Length)
		}
	case Time:
		s = fmt.Sprintf("TIME(%d)", t.Precision)
	case Timestamp:
		s = fmt.Sprintf("TIMESTAMP(%d)", t.Precision)
	case TimestampLTZ:
		s = fmt.Sprintf("TIMESTAMP(%d) WITH LOCAL TIME ZONE", t.Precision)
	case Array, Multiset:
		s = t.Root.keyword() + "<" + typeOrNull(t.Elem).String() + ">"
	case Map:
		s = "MAP<" + typeOrNull(t.Elem).String() + ", " + typeOrNull(t.Value).String() + ">"
	case Row:
		parts := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			p := "`" + strings.ReplaceAll(f.Name, "`", "``") + "` " + f.Type.String()
			if f.Description != nil && *f.Description != "" {
				p += " COMMENT '" + strings.ReplaceAll(*f.Description, "'", "''") + "'"
			}
			parts[i] = p
		}
		s = "ROW<" + strings.Join(parts, ", ") + ">"
	default:
		s = fmt.Sprintf("UNKNOWN(%d)", int(t.Root))
	}
	return withNullability(s, t.Nullable)
}

// keyword is the JSON "type" keyword of a nested root.
func (r TypeRoot) keyword() string {
	switch r {
	case Array:
		return "ARRAY"
	case Multiset:
		return "MULTISET"
	case Map:
		return "MAP"
	case Row:
		return "ROW"
	}
	return ""
}

func withNullability(s string, nullable bool) string {
	if nullable {
		return s
	}
	return s + " NOT NULL"
}

// typeOrNull guards String against malformed nested types built by hand.
func typeOrNull(t *DataType) DataType {
	if t == nil {
		return DataType{Root: -1, Nullable: true}
	}
	return *t
}

// MarshalJSON writes t as Java's DataType.serializeJson: atomic types as their SQL string, ARRAY/MULTISET as
// {"type","element"}, MAP as {"type","key","value"} and ROW as {"type","fields"}.
func (t DataType) MarshalJSON() ([]byte, error) {
	if t.IsAtomic() {
		if t.Root < Boolean {
			return nil, fmt.Errorf("paimon: cannot serialize data type with root %d", int(t.Root))
		}
		return json.Marshal(t.String())
	}
	var b bytes.Buffer
	b.WriteString(`{"type":`)
	kw, _ := json.Marshal(withNullability(t.Root.keyword(), t.Nullable))
	b.Write(kw)
	writeChild := func(key string, c *DataType) error {
		if c == nil {
			return fmt.Errorf("paimon: %s type has no %s type", t.Root.keyword(), key)
		}
		cb, err := c.MarshalJSON()
		if err != nil {
			return err
		}
		b.WriteString(`,"` + key + `":`)
		b.Write(cb)
		return nil
	}
	switch t.Root {
	case Array, Multiset:
		if err := writeChild("element", t.Elem); err != nil {
			return nil, err
		}
	case Map:
		if err := writeChild("key", t.Elem); err != nil {
			return nil, err
		}
		if err := writeChild("value", t.Value); err != nil {
			return nil, err
		}
	case Row:
		b.WriteString(`,"fields":[`)
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteByte(',')
			}
			fb, err := f.MarshalJSON()
			if err != nil {
				return nil, err
			}
			b.Write(fb)
		}
		b.WriteByte(']')
	default:
		return nil, fmt.Errorf("paimon: cannot serialize data type with root %d", int(t.Root))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON parses every type form Java writes (see MarshalJSON); atomic strings go through ParseType, so
// "VARCHAR(2147483647)", lower case and odd spacing are accepted. Errors wrap ErrCorrupt.
func (t *DataType) UnmarshalJSON(b []byte) error {
	var raw any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return fmt.Errorf("%w: data type JSON: %v", ErrCorrupt, err)
	}
	dt, err := typeFromJSONValue(raw, 0)
	if err != nil {
		return err
	}
	*t = dt
	return nil
}

// maxTypeDepth bounds nesting so hostile input cannot exhaust the stack.
const maxTypeDepth = 64

func typeFromJSONValue(v any, depth int) (DataType, error) {
	if depth > maxTypeDepth {
		return DataType{}, fmt.Errorf("%w: data type nested deeper than %d", ErrCorrupt, maxTypeDepth)
	}
	switch x := v.(type) {
	case string:
		dt, err := ParseType(x)
		if err != nil {
			return DataType{}, fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		return dt, nil
	case map[string]any:
		kwRaw, ok := x["type"].(string)
		if !ok {
			return DataType{}, fmt.Errorf("%w: nested data type object without string \"type\"", ErrCorrupt)
		}
		kw := strings.ToUpper(strings.TrimSpace(kwRaw))
		nullable := !strings.Contains(kw, "NOT NULL")
		child := func(key string) (*DataType, error) {
			c, ok := x[key]
			if !ok || c == nil {
				return nil, fmt.Errorf("%w: %s type without %q", ErrCorrupt, kwRaw, key)
			}
			ct, err := typeFromJSONValue(c, depth+1)
			if err != nil {
				return nil, err
			}
			return &ct, nil
		}
		switch {
		case strings.HasPrefix(kw, "ARRAY"), strings.HasPrefix(kw, "MULTISET"):
			root := Array
			if strings.HasPrefix(kw, "MULTISET") {
				root = Multiset
			}
			e, err := child("element")
			if err != nil {
				return DataType{}, err
			}
			return DataType{Root: root, Nullable: nullable, Elem: e}, nil
		case strings.HasPrefix(kw, "MAP"):
			k, err := child("key")
			if err != nil {
				return DataType{}, err
			}
			val, err := child("value")
			if err != nil {
				return DataType{}, err
			}
			return DataType{Root: Map, Nullable: nullable, Elem: k, Value: val}, nil
		case strings.HasPrefix(kw, "ROW"):
			arr, ok := x["fields"].([]any)
			if !ok {
				return DataType{}, fmt.Errorf("%w: ROW type without \"fields\" array", ErrCorrupt)
			}
			fields := make([]DataField, 0, len(arr))
			for _, fv := range arr {
				f, err := fieldFromJSONValue(fv, depth+1)
				if err != nil {
					return DataType{}, err
				}
				fields = append(fields, f)
			}
			return DataType{Root: Row, Nullable: nullable, Fields: fields}, nil
		}
		return DataType{}, fmt.Errorf("%w: unsupported nested data type %q", ErrCorrupt, kwRaw)
	}
	return DataType{}, fmt.Errorf("%w: data type must be a string or an object, got %T", ErrCorrupt, v)
}

// MarshalJSON writes f as Java's DataField.serializeJson: {"id","name","type","description"?,"defaultValue"?}.
func (f DataField) MarshalJSON() ([]byte, error) {
	tb, err := f.Type.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("field %q: %w", f.Name, err)
	}
	var b bytes.Buffer
	b.WriteString(`{"id":`)
	b.WriteString(strconv.Itoa(f.ID))
	b.WriteString(`,"name":`)
	b.Write(jsonString(f.Name))
	b.WriteString(`,"type":`)
	b.Write(tb)
	if f.Description != nil {
		b.WriteString(`,"description":`)
		b.Write(jsonString(*f.Description))
	}
	if f.DefaultValue != nil {
		b.WriteString(`,"defaultValue":`)
		b.Write(jsonString(*f.DefaultValue))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON parses a DataField object; "id", "name" and "type" are required. Errors wrap ErrCorrupt.
func (f *DataField) UnmarshalJSON(b []byte) error {
	var raw any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return fmt.Errorf("%w: data field JSON: %v", ErrCorrupt, err)
	}
	df, err := fieldFromJSONValue(raw, 0)
	if err != nil {
		return err
	}
	*f = df
	return nil
}

func fieldFromJSONValue(v any, depth int) (DataField, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return DataField{}, fmt.Errorf("%w: data field must be an object, got %T", ErrCorrupt, v)
	}
	name, ok := m["name"].(string)
	if !ok {
		return DataField{}, fmt.Errorf("%w: data field without string \"name\"", ErrCorrupt)
	}
	id, err := jsonInt(m["id"], 32)
	if err != nil {
		return DataField{}, fmt.Errorf("%w: field %q: \"id\": %v", ErrCorrupt, name, err)
	}
	tv, ok := m["type"]
	if !ok {
		return DataField{}, fmt.Errorf("%w: field %q without \"type\"", ErrCorrupt, name)
	}
	dt, err := typeFromJSONValue(tv, depth+1)
	if err != nil {
		return DataField{}, fmt.Errorf("field %q: %w", name, err)
	}
	f := DataField{ID: int(id), Name: name, Type: dt}
	if f.Description, err = optString(m, "description"); err != nil {
		return DataField{}, fmt.Errorf("field %q: %w", name, err)
	}
	if f.DefaultValue, err = optString(m, "defaultValue"); err != nil {
		return DataField{}, fmt.Errorf("field %q: %w", name, err)
	}
	return f, nil
}

// optString reads an optional string member; absent or null yields nil.
func optString(m map[string]any, key string) (*string, error) {
	v, ok := m[key]
	if !ok || v == nil {
		return nil, nil
	}
	s, ok := v.(string)
	if !ok {
		return nil, fmt.Errorf("%w: %q must be a string, got %T", ErrCorrupt, key, v)
	}
	return &s, nil
}

// jsonInt converts a json.Number (decoded with UseNumber) to an integer of the given bit size.
func jsonInt(v any, bits int) (int64, error) {
	n, ok := v.(json.Number)
	if !ok {
		if v == nil {
			return 0, fmt.Errorf("missing")
		}
		return 0, fmt.Errorf("not a number (%T)", v)
	}
	i, err := strconv.ParseInt(string(n), 10, bits)
	if err != nil {
		return 0, fmt.Errorf("not an int%d: %s", bits, n)
	}
	return i, nil
}

// jsonString encodes s as a JSON string without HTML escaping (as Jackson does).
func jsonString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // encoding a string cannot fail
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'})
}
