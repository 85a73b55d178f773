package mergetree

import (
	"math/big"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
)

func intType(nullable bool) spec.DataType { return spec.DataType{Root: spec.Int, Nullable: nullable} }

func col(name string, t spec.DataType) spec.DataField { return spec.DataField{Name: name, Type: t} }

var stringType = spec.DataType{Root: spec.VarChar, Length: spec.MaxLength, Nullable: true}

// mustConfig builds a Config for columns (k INT NOT NULL primary key, extra...) and options.
func mustConfig(t testing.TB, opts map[string]string, extra ...spec.DataField) *Config {
	t.Helper()
	c, err := NewConfigFromSchema(Schema{
		Fields:      append([]spec.DataField{col("k", intType(false))}, extra...),
		PrimaryKeys: []string{"k"},
		Options:     opts,
	})
	if err != nil {
		t.Fatalf("NewConfigFromSchema: %v", err)
	}
	return c
}

// rec builds a record of key k (column 0 repeats the key).
func rec(k int32, seq int64, kind spec.RowKind, vals ...any) KeyValue {
	return KeyValue{Key: []any{k}, Seq: seq, Kind: kind, Value: append([]any{k}, vals...)}
}

func ins(k int32, seq int64, vals ...any) KeyValue { return rec(k, seq, spec.RowKindInsert, vals...) }
func del(k int32, seq int64, vals ...any) KeyValue { return rec(k, seq, spec.RowKindDelete, vals...) }
func ub(k int32, seq int64, vals ...any) KeyValue {
	return rec(k, seq, spec.RowKindUpdateBefore, vals...)
}

// mergeAll runs the reducer-wrapped merge function over records of one key.
func mergeAll(c *Config, records ...KeyValue) (KeyValue, bool, error) {
	mf := c.NewMergeFunction()
	mf.Reset()
	for _, r := range records {
		if err := mf.Add(r); err != nil {
			return KeyValue{}, false, err
		}
	}
	kv, ok := mf.Result()
	return kv, ok, nil
}

func dec(v int64) spec.DecimalValue { return spec.DecimalValue{Unscaled: big.NewInt(v)} }
