package spec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
)

// Schema format versions (Java TableSchema).
const (
	SchemaVersionPaimon07 = 1 // missing "version" means this; "bucket" defaulted to 1
	SchemaVersionPaimon08 = 2 // versions <= 2 default "file.format" to orc
	SchemaVersionCurrent  = 3
)

// TableSchema is the content of schema/schema-<id> (paimon-format.md §2).
type TableSchema struct {
	Version        int               `json:"version"`
	ID             int64             `json:"id"`
	Fields         []DataField       `json:"fields"`
	HighestFieldID int               `json:"highestFieldId"`
	PartitionKeys  []string          `json:"partitionKeys"`
	PrimaryKeys    []string          `json:"primaryKeys"`
	Options        map[string]string `json:"options"`
	Comment        *string           `json:"comment,omitempty"`
	TimeMillis     int64             `json:"timeMillis"`
}

// ParseSchema parses a schema file as Java's TableSchemaSerializer does: "id", "fields", "highestFieldId",
// "partitionKeys", "primaryKeys" and "options" are required; a missing "version" means 1; version 1 gets
// bucket=1 and versions <= 2 get file.format=orc when those options are absent; "timeMillis" defaults to 0.
// Unknown keys are ignored. Errors wrap ErrCorrupt.
func ParseSchema(b []byte) (*TableSchema, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%w: schema JSON: %v", ErrCorrupt, err)
	}
	if m == nil {
		return nil, fmt.Errorf("%w: schema JSON is null", ErrCorrupt)
	}
	s := &TableSchema{Version: SchemaVersionPaimon07}
	num := func(key string, bits int, required bool) (int64, error) {
		raw, ok := m[key]
		if !ok || string(raw) == "null" {
			if required {
				return 0, fmt.Errorf("%w: schema: missing %q", ErrCorrupt, key)
			}
			return 0, nil
		}
		n, err := strconv.ParseInt(string(bytes.TrimSpace(raw)), 10, bits)
		if err != nil {
			return 0, fmt.Errorf("%w: schema: %q is not an int%d: %s", ErrCorrupt, key, bits, raw)
		}
		return n, nil
	}
	var err error
	if _, ok := m["version"]; ok {
		v, err := num("version", 32, false)
		if err != nil {
			return nil, err
		}
		s.Version = int(v)
	}
	if s.ID, err = num("id", 64, true); err != nil {
		return nil, err
	}
	hi, err := num("highestFieldId", 32, true)
	if err != nil {
		return nil, err
	}
	s.HighestFieldID = int(hi)
	if s.TimeMillis, err = num("timeMillis", 64, false); err != nil {
		return nil, err
	}
	fieldsRaw, ok := m["fields"]
	if !ok {
		return nil, fmt.Errorf("%w: schema: missing \"fields\"", ErrCorrupt)
	}
	if err := json.Unmarshal(fieldsRaw, &s.Fields); err != nil || s.Fields == nil {
		return nil, fmt.Errorf("%w: schema: \"fields\": %v", ErrCorrupt, errOrNull(err))
	}
	for _, k := range []struct {
		name string
		dst  *[]string
	}{{"partitionKeys", &s.PartitionKeys}, {"primaryKeys", &s.PrimaryKeys}} {
		raw, ok := m[k.name]
		if !ok {
			return nil, fmt.Errorf("%w: schema: missing %q", ErrCorrupt, k.name)
		}
		if err := json.Unmarshal(raw, k.dst); err != nil || *k.dst == nil {
			return nil, fmt.Errorf("%w: schema: %q must be an array of strings: %v", ErrCorrupt, k.name, errOrNull(err))
		}
	}
	optRaw, ok := m["options"]
	if !ok {
		return nil, fmt.Errorf("%w: schema: missing \"options\"", ErrCorrupt)
	}
	if err := json.Unmarshal(optRaw, &s.Options); err != nil || s.Options == nil {
		return nil, fmt.Errorf("%w: schema: \"options\" must be an object of strings: %v", ErrCorrupt, errOrNull(err))
	}
	if raw, ok := m["comment"]; ok && string(raw) != "null" {
		var c string
		if err := json.Unmarshal(raw, &c); err != nil {
			return nil, fmt.Errorf("%w: schema: \"comment\" must be a string", ErrCorrupt)
		}
		s.Comment = &c
	}
	if _, ok := s.Options[OptBucket]; !ok && s.Version <= SchemaVersionPaimon07 {
		s.Options[OptBucket] = "1"
	}
	if _, ok := s.Options[OptFileFormat]; !ok && s.Version <= SchemaVersionPaimon08 {
		s.Options[OptFileFormat] = "orc"
	}
	return s, nil
}

func errOrNull(err error) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("null")
}

// JSON renders s in Java's layout (member order of TableSchemaSerializer, Jackson pretty printing). Options are
// written in sorted key order; comment is omitted when nil.
func (s *TableSchema) JSON() ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"version":%d,"id":%d,"fields":[`, s.Version, s.ID)
	for i, f := range s.Fields {
		if i > 0 {
			b.WriteByte(',')
		}
		fb, err := f.MarshalJSON()
		if err != nil {
			return nil, fmt.Errorf("schema %d: %w", s.ID, err)
		}
		b.Write(fb)
	}
	fmt.Fprintf(&b, `],"highestFieldId":%d,"partitionKeys":`, s.HighestFieldID)
	writeStringArray(&b, s.PartitionKeys)
	b.WriteString(`,"primaryKeys":`)
	writeStringArray(&b, s.PrimaryKeys)
	b.WriteString(`,"options":`)
	writeStringMap(&b, s.Options)
	if s.Comment != nil {
		b.WriteString(`,"comment":`)
		b.Write(jsonString(*s.Comment))
	}
	fmt.Fprintf(&b, `,"timeMillis":%d}`, s.TimeMillis)
	return jacksonPretty(b.Bytes())
}

func writeStringArray(b *bytes.Buffer, ss []string) {
	b.WriteByte('[')
	for i, s := range ss {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(jsonString(s))
	}
	b.WriteByte(']')
}

func writeStringMap(b *bytes.Buffer, m map[string]string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(jsonString(k))
		b.WriteByte(':')
		b.Write(jsonString(m[k]))
	}
	b.WriteByte('}')
}

// TrimmedPrimaryKeys is primaryKeys minus partitionKeys, in primaryKeys order: the key of data files and
// manifests. It is empty for append tables.
func (s *TableSchema) TrimmedPrimaryKeys() []string {
	var out []string
	for _, pk := range s.PrimaryKeys {
		if !contains(s.PartitionKeys, pk) {
			out = append(out, pk)
		}
	}
	return out
}

// Field returns the top-level field called name and its position.
func (s *TableSchema) Field(name string) (DataField, int, bool) {
	for i, f := range s.Fields {
		if f.Name == name {
			return f, i, true
		}
	}
	return DataField{}, -1, false
}

// FieldsByName returns the top-level fields with the given names, in that order; an unknown name is an error.
func (s *TableSchema) FieldsByName(names []string) ([]DataField, error) {
	out := make([]DataField, 0, len(names))
	for _, n := range names {
		f, _, ok := s.Field(n)
		if !ok {
			return nil, fmt.Errorf("schema %d has no column %q", s.ID, n)
		}
		out = append(out, f)
	}
	return out, nil
}

// CoreOptions returns the typed view of s.Options.
func (s *TableSchema) CoreOptions() CoreOptions { return NewCoreOptions(s.Options) }

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
