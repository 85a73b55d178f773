package mergetree

import (
	"fmt"
	"slices"

	"github.com/lakeload/lakeload/paimon/spec"
)

// Aggregate function names (Java FieldAggregatorFactory identifiers).
const (
	aggSum               = "sum"
	aggProduct           = "product"
	aggMin               = "min"
	aggMax               = "max"
	aggLastValue         = "last_value"
	aggLastNonNullValue  = "last_non_null_value"
	aggFirstValue        = "first_value"
	aggFirstNonNullValue = "first_non_null_value"
	aggFirstNotNullValue = "first_not_null_value" // legacy alias of first_non_null_value
	aggBoolAnd           = "bool_and"
	aggBoolOr            = "bool_or"
	aggListagg           = "listagg"
	aggPrimaryKey        = "primary-key"
)

// aggSpec is the resolved aggregate of one column.
type aggSpec struct {
	column        string
	fn            string
	typ           spec.DataType
	ignoreRetract bool
	delimiter     string // listagg
	distinct      bool   // listagg
}

// configureAggregation resolves each column's aggregate (Java AggregateMergeFunction.getAggFuncName
// and the FieldAggregatorFactory type checks).
func (c *Config) configureAggregation(opts spec.CoreOptions, primaryKeys []string) error {
	var err error
	if c.removeRecordOnDelete, err = boolOption(opts, spec.OptAggregationRemoveRecordOnDelete, false); err != nil {
		return err
	}
	c.aggs = make([]aggSpec, len(c.fields))
	for i, f := range c.fields {
		a := aggSpec{column: f.Name, typ: f.Type, delimiter: ","}
		key := spec.FieldOptKey(f.Name, "aggregate-function")
		switch {
		case c.isSeqField(i):
			a.fn = aggLastValue
		case slices.Contains(primaryKeys, f.Name):
			a.fn = aggPrimaryKey
		default:
			var ok bool
			if a.fn, ok = opts.Get(key); !ok {
				key = spec.OptFieldsDefaultAggFunc
				if a.fn, ok = opts.Get(key); !ok {
					a.fn = aggLastNonNullValue
				}
			}
		}
		if err := checkAggType(a, key); err != nil {
			return err
		}
		if a.ignoreRetract, err = boolOption(opts, spec.FieldOptKey(f.Name, "ignore-retract"), false); err != nil {
			return err
		}
		if a.ignoreRetract && c.removeRecordOnDelete {
			return fmt.Errorf("mergetree: options %q and %q conflict",
				spec.OptAggregationRemoveRecordOnDelete, spec.FieldOptKey(f.Name, "ignore-retract"))
		}
		if a.fn == aggListagg {
			if d, ok := opts.Get(spec.FieldOptKey(f.Name, "list-agg-delimiter")); ok {
				a.delimiter = d
			}
			if a.distinct, err = boolOption(opts, spec.FieldOptKey(f.Name, "distinct"), false); err != nil {
				return err
			}
		}
		c.aggs[i] = a
	}
	return nil
}

// checkAggType rejects unknown functions and column types the Java factory rejects (or that
// Java's InternalRowUtils.compare cannot order, for min/max).
func checkAggType(a aggSpec, key string) error {
	bad := func(want string) error {
		return fmt.Errorf("mergetree: option %q: aggregate %q on column %q needs %s", key, a.fn, a.column, want)
	}
	r := a.typ.Root
	switch a.fn {
	case aggSum, aggProduct:
		if !isNumeric(r) {
			return bad("a numeric type")
		}
	case aggMin, aggMax:
		switch r {
		case spec.Decimal, spec.TinyInt, spec.SmallInt, spec.Int, spec.Date, spec.Time, spec.BigInt,
			spec.Float, spec.Double, spec.Timestamp, spec.TimestampLTZ, spec.Binary, spec.VarBinary,
			spec.VarChar, spec.Char:
		default:
			return bad("a comparable type")
		}
	case aggBoolAnd, aggBoolOr:
		if r != spec.Boolean {
			return bad("BOOLEAN")
		}
	case aggListagg:
		if r != spec.VarChar || a.typ.Length != spec.MaxLength {
			return bad("STRING")
		}
	case aggLastValue, aggLastNonNullValue, aggFirstValue, aggFirstNonNullValue, aggFirstNotNullValue, aggPrimaryKey:
	default:
		return fmt.Errorf("mergetree: option %q: unsupported aggregate function %q", key, a.fn)
	}
	return nil
}

func isNumeric(r spec.TypeRoot) bool {
	switch r {
	case spec.TinyInt, spec.SmallInt, spec.Int, spec.BigInt, spec.Float, spec.Double, spec.Decimal:
		return true
	}
	return false
}
