package mergetree

import (
	"errors"
	"reflect"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
)

type engineCase struct {
	name    string
	opts    map[string]string
	in      []KeyValue
	want    *KeyValue // nil: no row
	wantErr error     // errors.Is target, or errAny
}

var errAny = errors.New("any error")

func runEngineCases(t *testing.T, extra []spec.DataField, cases []engineCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := mustConfig(t, tc.opts, extra...)
			got, ok, err := mergeAll(c, tc.in...)
			if tc.wantErr != nil {
				if err == nil || (tc.wantErr != errAny && !errors.Is(err, tc.wantErr)) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == nil {
				if ok {
					t.Fatalf("got %+v, want no row", got)
				}
				return
			}
			if !ok || !reflect.DeepEqual(got, *tc.want) {
				t.Fatalf("got %+v (ok=%v), want %+v", got, ok, *tc.want)
			}
		})
	}
}

func kvp(kv KeyValue) *KeyValue { return &kv }

func TestDeduplicate(t *testing.T) {
	ignore := map[string]string{"deduplicate.ignore-delete": "true"}
	runEngineCases(t, []spec.DataField{col("v", intType(true))}, []engineCase{
		{name: "last wins", in: []KeyValue{ins(1, 1, int32(10)), ins(1, 2, nil)}, want: kvp(ins(1, 2, nil))},
		{name: "trailing delete kept", in: []KeyValue{ins(1, 1, int32(10)), del(1, 2, int32(10))}, want: kvp(del(1, 2, int32(10)))},
		{name: "delete then insert", in: []KeyValue{del(1, 1, int32(10)), ins(1, 2, int32(11))}, want: kvp(ins(1, 2, int32(11)))},
		{name: "ignore-delete skips retract", opts: ignore, in: []KeyValue{ins(1, 1, int32(10)), ub(1, 2, int32(10))}, want: kvp(ins(1, 1, int32(10)))},
		{name: "ignore-delete only retracts", opts: ignore, in: []KeyValue{del(1, 1, int32(10)), del(1, 2, int32(10))}},
		{name: "single retract passes through", opts: ignore, in: []KeyValue{del(1, 1, int32(10))}, want: kvp(del(1, 1, int32(10)))},
	})
}

func TestFirstRow(t *testing.T) {
	fr := map[string]string{"merge-engine": "first-row"}
	frIgnore := map[string]string{"merge-engine": "first-row", "ignore-delete": "true"}
	runEngineCases(t, []spec.DataField{col("v", intType(true))}, []engineCase{
		{name: "first wins", opts: fr, in: []KeyValue{ins(1, 1, int32(10)), ins(1, 2, int32(11))}, want: kvp(ins(1, 1, int32(10)))},
		{name: "retract rejected", opts: fr, in: []KeyValue{ins(1, 1, int32(10)), del(1, 2, int32(10))}, wantErr: ErrRetractNotAccepted},
		{name: "retract ignored", opts: frIgnore, in: []KeyValue{del(1, 1, int32(9)), ins(1, 2, int32(10)), del(1, 3, int32(10))}, want: kvp(ins(1, 2, int32(10)))},
		{name: "only retracts ignored", opts: frIgnore, in: []KeyValue{del(1, 1, int32(9)), del(1, 2, int32(10))}},
		{name: "single retract passes through", opts: fr, in: []KeyValue{del(1, 1, int32(9))}, want: kvp(del(1, 1, int32(9)))},
	})
}

func TestPartialUpdate(t *testing.T) {
	pu := map[string]string{"merge-engine": "partial-update"}
	puIgnore := map[string]string{"merge-engine": "partial-update", "ignore-delete": "true"}
	puRemove := map[string]string{"merge-engine": "partial-update", "partial-update.remove-record-on-delete": "true"}
	extra := []spec.DataField{col("a", intType(true)), col("b", stringType), col("n", intType(false))}
	runEngineCases(t, extra, []engineCase{
		{name: "latest non-null per column", opts: pu,
			in:   []KeyValue{ins(1, 1, int32(1), "x", int32(5)), ins(1, 2, nil, "y", int32(6)), ins(1, 3, int32(3), nil, int32(7))},
			want: kvp(ins(1, 3, int32(3), "y", int32(7)))},
		{name: "null in NOT NULL column", opts: pu, in: []KeyValue{ins(1, 1, int32(1), "x", int32(5)), ins(1, 2, nil, nil, nil)}, wantErr: errAny},
		{name: "retract rejected", opts: pu, in: []KeyValue{ins(1, 1, int32(1), "x", int32(5)), del(1, 2, int32(1), "x", int32(5))}, wantErr: ErrRetractNotAccepted},
		{name: "ignore-delete keeps seq of last insert", opts: puIgnore,
			in:   []KeyValue{ins(1, 1, int32(1), nil, int32(5)), ub(1, 2, int32(1), "gone", int32(5))},
			want: kvp(ins(1, 1, int32(1), nil, int32(5)))},
		// Java initialises the row from the first record even when it is an ignored retract.
		{name: "ignore-delete leading retract seeds row", opts: puIgnore,
			in:   []KeyValue{del(1, 1, int32(9), "old", int32(5)), ins(1, 2, nil, nil, int32(6))},
			want: kvp(ins(1, 2, int32(9), "old", int32(6)))},
		{name: "ignore-delete only retracts gives delete with seq 0", opts: puIgnore,
			in:   []KeyValue{del(1, 4, int32(9), "old", int32(5)), del(1, 5, int32(8), "new", int32(6))},
			want: kvp(KeyValue{Key: []any{int32(1)}, Seq: 0, Kind: spec.RowKindDelete, Value: []any{int32(1), int32(9), "old", int32(5)}})},
		{name: "remove-record-on-delete", opts: puRemove,
			in:   []KeyValue{ins(1, 1, int32(1), "x", int32(5)), del(1, 2, nil, nil, int32(5))},
			want: kvp(del(1, 2, nil, nil, int32(5)))},
		{name: "remove-record-on-delete then insert", opts: puRemove,
			in:   []KeyValue{ins(1, 1, int32(1), "x", int32(5)), del(1, 2, nil, "d", int32(5)), ins(1, 3, int32(7), nil, int32(6))},
			want: kvp(ins(1, 3, int32(7), "d", int32(6)))},
		{name: "remove-record-on-delete ignores -U", opts: puRemove,
			in:   []KeyValue{ins(1, 1, int32(1), "x", int32(5)), ub(1, 2, int32(1), "x", int32(5))},
			want: kvp(ins(1, 2, int32(1), "x", int32(5)))},
		{name: "single record untouched", opts: pu, in: []KeyValue{ins(1, 1, nil, nil, nil)}, want: kvp(ins(1, 1, nil, nil, nil))},
	})
}

func TestAggregationEngine(t *testing.T) {
	agg := map[string]string{"merge-engine": "aggregation", "fields.s.aggregate-function": "sum", "fields.m.aggregate-function": "max"}
	aggRemove := map[string]string{"merge-engine": "aggregation", "fields.s.aggregate-function": "sum", "aggregation.remove-record-on-delete": "true"}
	aggDefault := map[string]string{"merge-engine": "aggregation", "fields.default-aggregate-function": "sum", "fields.m.aggregate-function": "min", "fields.l.aggregate-function": "last_value"}
	aggSeq := map[string]string{"merge-engine": "aggregation", "fields.s.aggregate-function": "sum", "sequence.field": "m"}
	aggIgnoreRetract := map[string]string{"merge-engine": "aggregation", "fields.s.aggregate-function": "sum", "fields.m.aggregate-function": "max", "fields.m.ignore-retract": "true"}
	extra := []spec.DataField{col("s", spec.DataType{Root: spec.BigInt, Nullable: true}), col("m", intType(true)), col("l", stringType)}
	runEngineCases(t, extra, []engineCase{
		{name: "per-column functions, default last_non_null_value", opts: agg,
			in:   []KeyValue{ins(1, 1, int64(1), int32(5), "a"), ins(1, 2, int64(2), int32(3), nil), ins(1, 3, nil, int32(4), "c")},
			want: kvp(ins(1, 3, int64(3), int32(5), "c"))},
		{name: "retract on sum, rejected by max", opts: agg,
			in: []KeyValue{ins(1, 1, int64(1), int32(5), "a"), ub(1, 2, int64(1), int32(5), "a")}, wantErr: ErrRetractNotAccepted},
		{name: "ignore-retract", opts: aggIgnoreRetract,
			in:   []KeyValue{ins(1, 1, int64(5), int32(5), "a"), ub(1, 2, int64(2), int32(9), "a")},
			want: kvp(ins(1, 2, int64(3), int32(5), nil))},
		{name: "result kind is insert after retract", opts: aggIgnoreRetract,
			in:   []KeyValue{del(1, 1, int64(5), nil, nil), del(1, 2, int64(2), nil, nil)},
			want: kvp(ins(1, 2, int64(-7), nil, nil))},
		{name: "remove-record-on-delete", opts: aggRemove,
			in:   []KeyValue{ins(1, 1, int64(5), int32(1), "a"), del(1, 2, int64(1), nil, "d")},
			want: kvp(del(1, 2, int64(1), nil, "d"))},
		{name: "remove-record-on-delete then insert restarts", opts: aggRemove,
			in:   []KeyValue{ins(1, 1, int64(5), int32(1), "a"), del(1, 2, int64(1), nil, "d"), ins(1, 3, int64(7), nil, nil)},
			want: kvp(ins(1, 3, int64(8), nil, "d"))},
		{name: "default function", opts: aggDefault,
			in:   []KeyValue{ins(1, 1, int64(5), int32(4), nil), ins(1, 2, int64(6), int32(2), nil)},
			want: kvp(ins(1, 2, int64(11), int32(2), nil))},
		{name: "sequence field aggregates as last_value", opts: aggSeq,
			in:   []KeyValue{ins(1, 1, int64(5), int32(4), "x"), ins(1, 2, int64(6), nil, nil)},
			want: kvp(ins(1, 2, int64(11), nil, "x"))},
		{name: "overflow is an error", opts: agg,
			in: []KeyValue{ins(1, 1, int64(1)<<62, nil, nil), ins(1, 2, int64(1)<<62, nil, nil)}, wantErr: errAny},
	})
}
