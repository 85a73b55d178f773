package mergetree

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lakeload/lakeload/paimon/spec"
)

// Engine is a primary-key table's merge engine (option merge-engine).
type Engine int

// The merge engines of Java CoreOptions.MergeEngine.
const (
	Deduplicate Engine = iota
	PartialUpdate
	Aggregation
	FirstRow
)

var engineNames = [...]string{"deduplicate", "partial-update", "aggregation", "first-row"}

// String returns the option value naming e, e.g. "partial-update".
func (e Engine) String() string {
	if e >= 0 && int(e) < len(engineNames) {
		return engineNames[e]
	}
	return fmt.Sprintf("Engine(%d)", int(e))
}

// Schema is the part of a table schema that determines merge behaviour.
type Schema struct {
	Fields        []spec.DataField  // all table columns, schema order
	PrimaryKeys   []string          // declared order
	PartitionKeys []string          // removed from the key (trimmed primary key)
	Options       map[string]string // table options
}

// Config describes a primary-key table's merge behaviour, built from its schema and options.
// It is immutable and safe for concurrent use.
type Config struct {
	engine        Engine
	ignoreDelete  bool
	fields        []spec.DataField
	keyTypes      []spec.DataType
	seqFields     []int // indexes into Value of sequence.field columns
	seqDescending bool
	// removeRecordOnDelete is partial-update.remove-record-on-delete or
	// aggregation.remove-record-on-delete, depending on the engine.
	removeRecordOnDelete bool
	aggs                 []aggSpec // one per column, aggregation engine only
}

// Engine returns the table's merge engine.
func (c *Config) Engine() Engine { return c.engine }

// IgnoreDelete reports whether the option ignore-delete (or a fallback key) is true.
func (c *Config) IgnoreDelete() bool { return c.ignoreDelete }

// KeyTypes returns the types of the trimmed primary key, in key order.
func (c *Config) KeyTypes() []spec.DataType { return slices.Clone(c.keyTypes) }

// NewConfigFromSchema builds the merge configuration of a primary-key table. It fails, naming the
// option or column, for tables without primary key and for options this package does not
// implement or that Java rejects.
func NewConfigFromSchema(s Schema) (*Config, error) {
	if len(s.PrimaryKeys) == 0 {
		return nil, fmt.Errorf("mergetree: table has no primary key")
	}
	opts := spec.NewCoreOptions(s.Options)
	c := &Config{fields: s.Fields}
	index := make(map[string]int, len(s.Fields))
	for i, f := range s.Fields {
		index[f.Name] = i
	}
	for _, pk := range s.PrimaryKeys {
		i, ok := index[pk]
		if !ok {
			return nil, fmt.Errorf("mergetree: primary key %q is not a column", pk)
		}
		if !slices.Contains(s.PartitionKeys, pk) {
			c.keyTypes = append(c.keyTypes, s.Fields[i].Type)
		}
	}
	var err error
	if c.engine, err = parseEngine(opts); err != nil {
		return nil, err
	}
	if c.ignoreDelete, err = boolOption(opts, spec.OptIgnoreDelete, false, spec.IgnoreDeleteFallbackKeys...); err != nil {
		return nil, err
	}
	if err := refuseUnsupported(opts); err != nil {
		return nil, err
	}
	if err := c.parseSequenceField(opts, index); err != nil {
		return nil, err
	}
	switch c.engine {
	case PartialUpdate:
		err = c.configurePartialUpdate(opts, s.PrimaryKeys)
	case Aggregation:
		err = c.configureAggregation(opts, s.PrimaryKeys)
	}
	if err != nil {
		return nil, err
	}
	return c, nil
}

func parseEngine(opts spec.CoreOptions) (Engine, error) {
	v, ok := opts.Get(spec.OptMergeEngine)
	if !ok {
		return Deduplicate, nil
	}
	for i, name := range engineNames {
		if strings.EqualFold(strings.TrimSpace(v), name) {
			return Engine(i), nil
		}
	}
	return 0, fmt.Errorf("mergetree: option %q: unsupported merge engine %q", spec.OptMergeEngine, v)
}

// refuseUnsupported rejects options that change merge semantics in ways not implemented here.
func refuseUnsupported(opts spec.CoreOptions) error {
	if on, err := boolOption(opts, spec.OptSequenceSnapshotOrdering, false); err != nil {
		return err
	} else if on {
		return fmt.Errorf("mergetree: option %q is not supported", spec.OptSequenceSnapshotOrdering)
	}
	if _, ok := opts.Get(spec.OptPartialUpdateRemoveOnSeqGroup); ok {
		return fmt.Errorf("mergetree: option %q is not supported", spec.OptPartialUpdateRemoveOnSeqGroup)
	}
	for _, k := range opts.Keys() {
		if strings.HasPrefix(k, "fields.") && strings.HasSuffix(k, ".sequence-group") {
			return fmt.Errorf("mergetree: option %q: sequence groups are not supported", k)
		}
	}
	return nil
}

// parseSequenceField reads sequence.field and sequence.field.sort-order (Java
// CoreOptions.sequenceField, SchemaValidation).
func (c *Config) parseSequenceField(opts spec.CoreOptions, index map[string]int) error {
	desc, err := opts.SequenceFieldDescending()
	if err != nil {
		return fmt.Errorf("mergetree: %w", err)
	}
	c.seqDescending = desc
	v, ok := opts.Get(spec.OptSequenceField)
	if !ok {
		return nil
	}
	if c.engine == FirstRow {
		return fmt.Errorf("mergetree: option %q cannot be used with merge engine first-row", spec.OptSequenceField)
	}
	for _, name := range strings.Split(v, ",") {
		name = strings.TrimSpace(name)
		i, ok := index[name]
		if !ok {
			return fmt.Errorf("mergetree: option %q: sequence field %q is not a column", spec.OptSequenceField, name)
		}
		if slices.Contains(c.seqFields, i) {
			return fmt.Errorf("mergetree: option %q: sequence field %q is defined repeatedly", spec.OptSequenceField, name)
		}
		if _, set := opts.Get(spec.FieldOptKey(name, "aggregate-function")); set {
			return fmt.Errorf("mergetree: option %q: aggregation defined on sequence field %q",
				spec.FieldOptKey(name, "aggregate-function"), name)
		}
		if !c.fields[i].Type.IsAtomic() || c.fields[i].Type.Root == spec.Multiset {
			return fmt.Errorf("mergetree: option %q: sequence field %q has unsupported type", spec.OptSequenceField, name)
		}
		c.seqFields = append(c.seqFields, i)
	}
	return nil
}

// boolOption reads a boolean option with spec's parser (Java's rules), naming this package in the error.
func boolOption(o spec.CoreOptions, key string, def bool, fallbacks ...string) (bool, error) {
	v, err := o.Bool(key, def, fallbacks...)
	if err != nil {
		return false, fmt.Errorf("mergetree: %w", err)
	}
	return v, nil
}

func (c *Config) isSeqField(i int) bool { return slices.Contains(c.seqFields, i) }

// configurePartialUpdate validates partial-update options (Java PartialUpdateMergeFunction.Factory).
func (c *Config) configurePartialUpdate(opts spec.CoreOptions, primaryKeys []string) error {
	var err error
	if c.removeRecordOnDelete, err = boolOption(opts, spec.OptPartialUpdateRemoveRecordOnDelete, false); err != nil {
		return err
	}
	if c.removeRecordOnDelete && c.ignoreDelete {
		return fmt.Errorf("mergetree: options %q and %q conflict", spec.OptIgnoreDelete, spec.OptPartialUpdateRemoveRecordOnDelete)
	}
	// Without sequence groups Java accepts only last_non_null_value as a column aggregate
	// ("Must use sequence group for aggregation functions").
	for i, f := range c.fields {
		if slices.Contains(primaryKeys, f.Name) || c.isSeqField(i) {
			continue
		}
		key := spec.FieldOptKey(f.Name, "aggregate-function")
		name, ok := opts.Get(key)
		if !ok {
			key = spec.OptFieldsDefaultAggFunc
			name, ok = opts.Get(key)
		}
		if ok && name != aggLastNonNullValue {
			return fmt.Errorf("mergetree: option %q=%q: partial-update aggregation needs sequence groups, which are not supported", key, name)
		}
	}
	return nil
}
