package mergetree

import (
	"strings"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
)

func TestNewConfigRefusesWithOptionName(t *testing.T) {
	v := col("v", intType(true))
	s := col("s", spec.DataType{Root: spec.VarChar, Length: 10, Nullable: true})
	b := col("b", spec.DataType{Root: spec.Boolean, Nullable: true})
	cases := []struct {
		name   string
		opts   map[string]string
		fields []spec.DataField
		want   string
	}{
		{"unknown engine", map[string]string{"merge-engine": "lookup"}, nil, `"merge-engine"`},
		{"unknown aggregate", map[string]string{"merge-engine": "aggregation", "fields.v.aggregate-function": "collect"}, []spec.DataField{v}, `"fields.v.aggregate-function"`},
		{"unknown default aggregate", map[string]string{"merge-engine": "aggregation", "fields.default-aggregate-function": "hll_sketch"}, []spec.DataField{v}, `"fields.default-aggregate-function"`},
		{"sum on varchar", map[string]string{"merge-engine": "aggregation", "fields.s.aggregate-function": "sum"}, []spec.DataField{s}, `"fields.s.aggregate-function"`},
		{"listagg on bounded varchar", map[string]string{"merge-engine": "aggregation", "fields.s.aggregate-function": "listagg"}, []spec.DataField{s}, "STRING"},
		{"max on boolean", map[string]string{"merge-engine": "aggregation", "fields.b.aggregate-function": "max"}, []spec.DataField{b}, `"fields.b.aggregate-function"`},
		{"bool_or on int", map[string]string{"merge-engine": "aggregation", "fields.v.aggregate-function": "bool_or"}, []spec.DataField{v}, "BOOLEAN"},
		{"sequence group", map[string]string{"merge-engine": "partial-update", "fields.v.sequence-group": "s"}, []spec.DataField{v, s}, `"fields.v.sequence-group"`},
		{"remove on sequence group", map[string]string{"partial-update.remove-record-on-sequence-group": "v"}, []spec.DataField{v}, "remove-record-on-sequence-group"},
		{"snapshot ordering", map[string]string{"sequence.snapshot-ordering": "true"}, nil, `"sequence.snapshot-ordering"`},
		{"partial-update aggregate", map[string]string{"merge-engine": "partial-update", "fields.v.aggregate-function": "sum"}, []spec.DataField{v}, `"fields.v.aggregate-function"`},
		{"partial-update conflict", map[string]string{"merge-engine": "partial-update", "ignore-delete": "true", "partial-update.remove-record-on-delete": "true"}, []spec.DataField{v}, "conflict"},
		{"aggregation conflict", map[string]string{"merge-engine": "aggregation", "aggregation.remove-record-on-delete": "true", "fields.v.ignore-retract": "true"}, []spec.DataField{v}, "conflict"},
		{"first-row sequence field", map[string]string{"merge-engine": "first-row", "sequence.field": "v"}, []spec.DataField{v}, `"sequence.field"`},
		{"missing sequence field", map[string]string{"sequence.field": "nope"}, []spec.DataField{v}, `"nope"`},
		{"aggregate on sequence field", map[string]string{"merge-engine": "aggregation", "sequence.field": "v", "fields.v.aggregate-function": "sum"}, []spec.DataField{v}, "sequence field"},
		{"bad boolean", map[string]string{"ignore-delete": "yes"}, nil, `"ignore-delete"`},
		{"bad sort order", map[string]string{"sequence.field.sort-order": "up"}, nil, `"sequence.field.sort-order"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewConfigFromSchema(Schema{
				Fields:      append([]spec.DataField{col("k", intType(false))}, tc.fields...),
				PrimaryKeys: []string{"k"},
				Options:     tc.opts,
			})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want mention of %s", err, tc.want)
			}
		})
	}
}

func TestNewConfigBasics(t *testing.T) {
	if _, err := NewConfigFromSchema(Schema{Fields: []spec.DataField{col("k", intType(false))}}); err == nil {
		t.Fatal("table without primary key accepted")
	}
	// Partition keys are trimmed from the key.
	c, err := NewConfigFromSchema(Schema{
		Fields:        []spec.DataField{col("dt", stringType), col("k", intType(false))},
		PrimaryKeys:   []string{"dt", "k"},
		PartitionKeys: []string{"dt"},
		Options:       map[string]string{"merge-engine": "Partial-Update", "partial-update.ignore-delete": "TRUE"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if kt := c.KeyTypes(); len(kt) != 1 || kt[0].Root != spec.Int {
		t.Errorf("key types = %v, want [INT]", kt)
	}
	if c.Engine() != PartialUpdate || c.Engine().String() != "partial-update" {
		t.Errorf("engine = %v", c.Engine())
	}
	if !c.IgnoreDelete() {
		t.Error("fallback key partial-update.ignore-delete not honoured")
	}
	// last_non_null_value is the only aggregate partial-update accepts without sequence groups.
	if _, err := NewConfigFromSchema(Schema{
		Fields:      []spec.DataField{col("k", intType(false)), col("v", intType(true))},
		PrimaryKeys: []string{"k"},
		Options:     map[string]string{"merge-engine": "partial-update", "fields.default-aggregate-function": "last_non_null_value"},
	}); err != nil {
		t.Errorf("last_non_null_value refused: %v", err)
	}
}

func TestNewConfigFromTableSchema(t *testing.T) {
	if _, err := NewConfig(nil); err == nil {
		t.Fatal("nil schema accepted")
	}
	c, err := NewConfig(&spec.TableSchema{
		Fields:      []spec.DataField{col("k", intType(false)), col("v", intType(true))},
		PrimaryKeys: []string{"k"},
		Options:     map[string]string{"merge-engine": "first-row"},
	})
	if err != nil || c.Engine() != FirstRow {
		t.Fatalf("NewConfig = %v, %v", c, err)
	}
}
