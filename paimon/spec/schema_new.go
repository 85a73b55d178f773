package spec

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// NewSchema builds schema 0 for a new table the way Java's Schema builder + SchemaValidation do:
//   - the "primary-key" / "partition" options are folded into primaryKeys / partitionKeys (not both ways at once);
//   - field ids are assigned like Java (ids in fields are ignored): a counter from -1, each top-level column takes
//     the next id and then its nested ROW fields are numbered (inside a nested ROW a field's own nested ROW fields
//     are numbered before the field itself, as Java's ReassignFieldId does); highestFieldId is the maximum;
//   - primary-key columns are made NOT NULL;
//   - it rejects duplicate column / key names, unknown partition, primary-key, bucket-key and sequence.field
//     columns, a primary key made only of partition columns, malformed typed options, bucket < 1 other than -1
//     (and -2 for PK tables), bucket-key with bucket=-1, bucket-key outside the trimmed primary key or overlapping
//     partition columns, fixed buckets on cross-partition-update PK tables, and bucketed append tables without
//     bucket-key.
//
// Errors name the offending column or option. The result has Version 3, ID 0 and TimeMillis = now.
func NewSchema(fields []DataField, partitionKeys, primaryKeys []string, options map[string]string, comment *string) (*TableSchema, error) {
	opts := make(map[string]string, len(options))
	for k, v := range options {
		opts[k] = v
	}
	var err error
	if primaryKeys, err = keysFromOption(opts, "primary-key", primaryKeys); err != nil {
		return nil, err
	}
	if partitionKeys, err = keysFromOption(opts, "partition", partitionKeys); err != nil {
		return nil, err
	}
	names := make([]string, len(fields))
	for i, f := range fields {
		if f.Name == "" {
			return nil, fmt.Errorf("column %d has an empty name", i)
		}
		names[i] = f.Name
	}
	if d := duplicates(names); len(d) > 0 {
		return nil, fmt.Errorf("duplicate column names %v", d)
	}
	if err := checkKeyColumns("partition key", partitionKeys, names); err != nil {
		return nil, err
	}
	if err := checkKeyColumns("primary key", primaryKeys, names); err != nil {
		return nil, err
	}

	for _, f := range fields {
		if err := checkNestedNames(f.Name, f.Type); err != nil {
			return nil, err
		}
	}
	counter := -1
	out := make([]DataField, len(fields))
	for i, f := range fields {
		counter++
		nf := DataField{ID: counter, Name: f.Name, Description: f.Description, DefaultValue: f.DefaultValue}
		nf.Type = reassignFieldIDs(f.Type, &counter)
		if contains(primaryKeys, f.Name) {
			nf.Type.Nullable = false
		}
		out[i] = nf
	}
	s := &TableSchema{
		Version:        SchemaVersionCurrent,
		Fields:         out,
		HighestFieldID: highestFieldID(out),
		PartitionKeys:  append([]string{}, partitionKeys...),
		PrimaryKeys:    append([]string{}, primaryKeys...),
		Options:        opts,
		Comment:        comment,
		TimeMillis:     time.Now().UnixMilli(),
	}
	if err := validateSchema(s); err != nil {
		return nil, err
	}
	return s, nil
}

// keysFromOption moves a comma-separated key list from options[key] into keys, as Java Schema does.
func keysFromOption(opts map[string]string, key string, keys []string) ([]string, error) {
	v, ok := opts[key]
	if !ok {
		return keys, nil
	}
	if len(keys) > 0 {
		return nil, fmt.Errorf("option %q conflicts with explicitly declared keys %v", key, keys)
	}
	delete(opts, key)
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out, nil
}

func checkKeyColumns(what string, keys, names []string) error {
	if d := duplicates(keys); len(d) > 0 {
		return fmt.Errorf("%s %v contains duplicate columns %v", what, keys, d)
	}
	for _, k := range keys {
		if !contains(names, k) {
			return fmt.Errorf("%s column %q is not a table column", what, k)
		}
	}
	return nil
}

func duplicates(ss []string) []string {
	seen := map[string]int{}
	for _, s := range ss {
		seen[s]++
	}
	var d []string
	for s, n := range seen {
		if n > 1 {
			d = append(d, s)
		}
	}
	sort.Strings(d)
	return d
}

// checkNestedNames rejects duplicate field names inside nested ROW types (Java RowType requires unique names).
func checkNestedNames(path string, t DataType) error {
	if t.Elem != nil {
		if err := checkNestedNames(path, *t.Elem); err != nil {
			return err
		}
	}
	if t.Value != nil {
		if err := checkNestedNames(path, *t.Value); err != nil {
			return err
		}
	}
	names := make([]string, len(t.Fields))
	for i, f := range t.Fields {
		names[i] = f.Name
		if err := checkNestedNames(path+"."+f.Name, f.Type); err != nil {
			return err
		}
	}
	if d := duplicates(names); len(d) > 0 {
		return fmt.Errorf("column %q: duplicate nested field names %v", path, d)
	}
	return nil
}

// reassignFieldIDs renumbers nested ROW fields in Java ReassignFieldId order.
func reassignFieldIDs(t DataType, counter *int) DataType {
	switch t.Root {
	case Array, Multiset:
		if t.Elem != nil {
			e := reassignFieldIDs(*t.Elem, counter)
			t.Elem = &e
		}
	case Map:
		if t.Elem != nil {
			k := reassignFieldIDs(*t.Elem, counter)
			t.Elem = &k
		}
		if t.Value != nil {
			v := reassignFieldIDs(*t.Value, counter)
			t.Value = &v
		}
	case Row:
		fs := make([]DataField, len(t.Fields))
		for i, f := range t.Fields {
			f.Type = reassignFieldIDs(f.Type, counter) // Java evaluates the nested type before taking the id
			*counter++
			f.ID = *counter
			fs[i] = f
		}
		t.Fields = fs
	}
	return t
}

// highestFieldID is the largest field id in fields, nested ROW fields included (-1 when there are none).
func highestFieldID(fields []DataField) int {
	hi := -1
	var walk func(t DataType)
	walk = func(t DataType) {
		if t.Elem != nil {
			walk(*t.Elem)
		}
		if t.Value != nil {
			walk(*t.Value)
		}
		for _, f := range t.Fields {
			hi = max(hi, f.ID)
			walk(f.Type)
		}
	}
	for _, f := range fields {
		hi = max(hi, f.ID)
		walk(f.Type)
	}
	return hi
}

// validateSchema applies the TableSchema constructor and SchemaValidation bucket rules.
func validateSchema(s *TableSchema) error {
	names := make([]string, len(s.Fields))
	for i, f := range s.Fields {
		names[i] = f.Name
	}
	hasPK := len(s.PrimaryKeys) > 0
	trimmed := s.TrimmedPrimaryKeys()
	if hasPK && len(trimmed) == 0 {
		return fmt.Errorf("primary key %v must not consist only of partition keys %v", s.PrimaryKeys, s.PartitionKeys)
	}
	o := s.CoreOptions()
	if err := o.Validate(); err != nil {
		return err
	}
	for _, c := range o.SequenceField() {
		if !contains(names, c) {
			return fmt.Errorf("option %q: column %q is not a table column", OptSequenceField, c)
		}
	}
	bucketKeys := o.BucketKey()
	for _, k := range bucketKeys {
		if !contains(names, k) {
			return fmt.Errorf("option %q: column %q is not a table column", OptBucketKey, k)
		}
		if contains(s.PartitionKeys, k) {
			return fmt.Errorf("option %q: column %q is a partition key", OptBucketKey, k)
		}
		if hasPK && !contains(trimmed, k) {
			return fmt.Errorf("option %q: column %q is not in the primary key %v", OptBucketKey, k, s.PrimaryKeys)
		}
	}
	bucket := o.Bucket() // validated above
	switch {
	case bucket == -1:
		if _, ok := o.Get(OptBucketKey); ok {
			return fmt.Errorf("option %q cannot be set with bucket = -1; set a bucket number", OptBucketKey)
		}
	case bucket == -2 && hasPK: // postpone bucket
	case bucket < 1:
		return fmt.Errorf("option %q: %d is invalid; use -1 or a number greater than 0", OptBucket, bucket)
	default:
		if hasPK && len(s.PartitionKeys) > 0 {
			for _, p := range s.PartitionKeys {
				if !contains(s.PrimaryKeys, p) {
					return fmt.Errorf("option %q: fixed buckets need the primary key %v to include partition column %q (cross-partition update needs bucket = -1)", OptBucket, s.PrimaryKeys, p)
				}
			}
		}
		if !hasPK && len(bucketKeys) == 0 {
			return fmt.Errorf("option %q must be set for a bucketed append table (bucket = %d)", OptBucketKey, bucket)
		}
	}
	return nil
}
