package compat

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/lakeload/lakeload/internal/oracle"
	"github.com/lakeload/lakeload/paimon/spec"
)

// writeScenario is a table lakeload writes in several commits and every reader must read back exactly.
type writeScenario struct {
	name     string
	def      tableDef
	commits  [][]change
	javaOnly bool   // values pypaimon cannot place (partition path escaping)
	onS3     bool   // also run with the warehouse on S3 (a subset keeps CI time small)
	filters  []filt // filtered reads checked against the model
}

// filt is a filter for the oracles plus the same predicate over model rows.
type filt struct {
	name  string
	f     oracle.Filter
	match func(row []any) bool
}

func dec(unscaled int64) spec.DecimalValue { return spec.DecimalValue{Unscaled: big.NewInt(unscaled)} }

func bigDec(s string) spec.DecimalValue {
	u, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic(s)
	}
	return spec.DecimalValue{Unscaled: u}
}

func ts(millis int64, nano int32) spec.TimestampValue {
	return spec.TimestampValue{Millis: millis, NanoOfMilli: nano}
}

// upsertCommits makes n commits of overlapping upserts and deletes over keys (dt, id).
func upsertCommits(seed uint64, n, perCommit, keys int) [][]change {
	r := rand.New(rand.NewPCG(seed, 7))
	dts := []string{"2024-01-01", "2024-01-02", "2024-01-03"}
	var out [][]change
	for c := 0; c < n; c++ {
		var cs []change
		for i := 0; i < perCommit; i++ {
			id := int64(r.IntN(keys))
			dt := dts[id%3]
			v := int64(r.IntN(1000))
			row := []any{dt, id, fmt.Sprintf("name-%d-%d", id, v), v, float64(v) / 4}
			if r.IntN(6) == 0 {
				cs = append(cs, del(row...))
			} else {
				cs = append(cs, ins(row...))
			}
		}
		out = append(out, cs)
	}
	return out
}

// fastPathCommit is one commit of 80,000 rows whose data file the Parquet fast path writes with
// PLAIN columns in several pages (name), dictionary columns with nulls (city, k), and a
// dictionary that outgrows 1 MiB after the first batch's sample and falls back to PLAIN (fb).
func fastPathCommit() []change {
	r := rand.New(rand.NewPCG(18, 18))
	cities := []string{"Berlin", "Paris", "Zürich", "東京"}
	var cs []change
	for i := 0; i < 80000; i++ {
		var city, v, k any
		if r.IntN(5) != 0 {
			city = cities[r.IntN(len(cities))]
		}
		if r.IntN(7) != 0 {
			v = float64(r.IntN(1_000_000)) / 8
		}
		if r.IntN(3) != 0 {
			k = int32(r.IntN(3))
		}
		fb := fmt.Sprintf("fb-%03d-%s", r.IntN(500), "ü")
		if i >= 66000 {
			fb = fmt.Sprintf("fb-%06d-%090d", i, i)
		}
		name := fmt.Sprintf("name-%06d-%0*d", i, 40+r.IntN(120), r.IntN(1_000_000))
		cs = append(cs, ins(int64(i), name, city, v, k, fb))
	}
	return cs
}

func writeScenarios() []writeScenario {
	upsertDef := tableDef{
		cols: [][2]string{{"dt", "STRING"}, {"id", "BIGINT"}, {"name", "STRING"}, {"v", "BIGINT"}, {"score", "DOUBLE"}},
		pk:   []string{"dt", "id"}, part: []string{"dt"},
		options: map[string]string{"bucket": "4"},
	}
	return []writeScenario{
		{
			name: "append_fast_path_pages",
			def: tableDef{cols: [][2]string{{"id", "BIGINT"}, {"name", "STRING"}, {"city", "STRING"}, {"v", "DOUBLE"}, {"k", "INT"}, {"fb", "STRING"}},
				options: map[string]string{"file.format": "parquet"}},
			commits: [][]change{fastPathCommit()},
			filters: []filt{
				{"city", oracle.Eq("city", "Zürich"), func(r []any) bool { return r[2] == "Zürich" }},
				{"range_id", oracle.Ge("id", 79990), func(r []any) bool { return r[0].(int64) >= 79990 }},
			},
		},
		{
			name: "append_unaware",
			def:  tableDef{cols: [][2]string{{"id", "INT"}, {"s", "STRING"}, {"d", "DOUBLE"}}},
			commits: [][]change{
				{ins(int32(1), "a", 1.5), ins(int32(2), nil, -0.25), ins(int32(3), "c", nil)},
				{ins(int32(1), "a", 1.5), ins(int32(4), "日本語", 1e300)},
			},
			filters: []filt{{"range_d", oracle.Gt("d", 0.0), func(r []any) bool { return r[2] != nil && r[2].(float64) > 0 }}},
		},
		{
			name: "append_fixed_bucket",
			def: tableDef{cols: [][2]string{{"id", "BIGINT"}, {"s", "STRING"}},
				options: map[string]string{"bucket": "3", "bucket-key": "id"}},
			commits: [][]change{
				{ins(int64(1), "x"), ins(int64(2), "y"), ins(int64(3), "z"), ins(int64(4), "w")},
				{ins(int64(1), "x2"), ins(int64(100), "big")},
			},
			filters: []filt{{"point_id", oracle.Eq("id", 100), func(r []any) bool { return r[0].(int64) == 100 }}},
		},
		{
			name:    "pk_upserts_deletes",
			onS3:    true,
			def:     upsertDef,
			commits: upsertCommits(1, 5, 300, 120),
			filters: []filt{
				{"point_key", oracle.And(oracle.Eq("dt", "2024-01-02"), oracle.Eq("id", 7)),
					func(r []any) bool { return r[0] == "2024-01-02" && r[1].(int64) == 7 }},
				{"partition", oracle.Eq("dt", "2024-01-03"), func(r []any) bool { return r[0] == "2024-01-03" }},
				{"range_v", oracle.Ge("v", 900), func(r []any) bool { return r[3].(int64) >= 900 }},
				{"point_id_only", oracle.Eq("id", 42), func(r []any) bool { return r[1].(int64) == 42 }},
			},
		},
		{
			name: "pk_partial_update",
			def: tableDef{cols: [][2]string{{"id", "INT"}, {"a", "STRING"}, {"b", "BIGINT"}, {"c", "DOUBLE"}},
				pk: []string{"id"}, options: map[string]string{"bucket": "2", "merge-engine": "partial-update"}},
			commits: [][]change{
				{ins(int32(1), "a1", nil, nil), ins(int32(2), nil, int64(20), nil), ins(int32(1), nil, int64(10), nil)},
				{ins(int32(1), nil, nil, 1.5), ins(int32(2), "b2", nil, nil), ins(int32(3), "c3", int64(30), 3.0)},
				{ins(int32(2), nil, int64(21), 2.5), ins(int32(1), "a1-new", nil, nil)},
			},
		},
		{
			name: "pk_aggregation",
			def: tableDef{cols: [][2]string{{"id", "INT"}, {"total", "BIGINT"}, {"amount", "DECIMAL(12, 2)"}, {"peak", "DOUBLE"}, {"last", "STRING"}},
				pk: []string{"id"}, options: map[string]string{"bucket": "2", "merge-engine": "aggregation",
					"fields.total.aggregate-function": "sum", "fields.amount.aggregate-function": "sum",
					"fields.peak.aggregate-function": "max", "fields.last.aggregate-function": "last_non_null_value"}},
			commits: [][]change{
				{ins(int32(1), int64(5), dec(150), 1.0, "a"), ins(int32(1), int64(7), dec(25), 3.0, nil), ins(int32(2), nil, dec(-100), 2.0, "b")},
				{ins(int32(1), int64(1), nil, 2.0, "c"), ins(int32(2), int64(3), dec(1), nil, nil)},
				{ins(int32(3), int64(9), dec(999), -1.0, "z"), ins(int32(1), int64(100), dec(1), 9.5, nil)},
			},
		},
		{
			name: "pk_sequence_field",
			def: tableDef{cols: [][2]string{{"id", "INT"}, {"ts", "BIGINT"}, {"v", "STRING"}},
				pk: []string{"id"}, options: map[string]string{"bucket": "2", "sequence.field": "ts"}},
			commits: [][]change{
				{ins(int32(1), int64(10), "t10"), ins(int32(2), int64(5), "t5")},
				{ins(int32(1), int64(3), "older"), ins(int32(2), int64(8), "t8"), ins(int32(3), int64(1), "x")},
				{ins(int32(1), int64(11), "t11"), ins(int32(3), int64(0), "older-x"), ins(int32(2), int64(8), "t8-again")},
			},
		},
		{
			name: "partition_string_int_nulls",
			def: tableDef{cols: [][2]string{{"s", "STRING"}, {"p", "INT"}, {"v", "BIGINT"}},
				part: []string{"s", "p"}},
			commits: [][]change{
				{ins("a", int32(1), int64(1)), ins(nil, int32(2), int64(2)), ins("b", nil, int64(3)), ins(nil, nil, int64(4))},
				{ins("a", int32(-5), int64(5)), ins("a", int32(1), int64(6))},
			},
			filters: []filt{
				{"part_s", oracle.Eq("s", "a"), func(r []any) bool { return r[0] == "a" }},
				{"part_p_null", oracle.IsNull("p"), func(r []any) bool { return r[1] == nil }},
			},
		},
		{
			name: "partition_escaping",
			onS3: true,
			def: tableDef{cols: [][2]string{{"p", "STRING"}, {"v", "INT"}},
				part: []string{"p"}},
			commits: [][]change{
				{ins("a/b", int32(1)), ins("x=y", int32(2)), ins("50%", int32(3)), ins("c:d?#", int32(4)), ins("sp ace", int32(5)), ins("", int32(6))},
			},
			javaOnly: true,
			filters:  []filt{{"part", oracle.Eq("p", "a/b"), func(r []any) bool { return r[0] == "a/b" }}},
		},
		{
			name: "all_types",
			onS3: true,
			def: tableDef{cols: [][2]string{
				{"k", "INT"}, {"b", "BOOLEAN"}, {"t", "TINYINT"}, {"sm", "SMALLINT"}, {"i", "INT"}, {"bi", "BIGINT"},
				{"f", "FLOAT"}, {"d", "DOUBLE"}, {"d9", "DECIMAL(9, 2)"}, {"d18", "DECIMAL(18, 4)"}, {"d38", "DECIMAL(38, 10)"},
				{"c", "CHAR(3)"}, {"vc", "VARCHAR(20)"}, {"s", "STRING"}, {"bin", "BINARY(2)"}, {"vb", "VARBINARY(8)"}, {"by", "BYTES"},
				{"dt", "DATE"}, {"tm", "TIME(3)"}, {"ts0", "TIMESTAMP(0)"}, {"ts3", "TIMESTAMP(3)"}, {"ts6", "TIMESTAMP(6)"},
				{"ts9", "TIMESTAMP(9)"}, {"ltz3", "TIMESTAMP(3) WITH LOCAL TIME ZONE"}, {"ltz6", "TIMESTAMP(6) WITH LOCAL TIME ZONE"}},
				pk: []string{"k"}, options: map[string]string{"bucket": "2"}},
			commits: [][]change{{
				ins(int32(1), true, int8(-128), int16(32767), int32(-2147483648), int64(9223372036854775807),
					float32(1.5), 3.141592653589793, dec(-12345), dec(123456789012345678), bigDec("-12345678901234567890123456789012345678"),
					"abc", "varchar", "unicode ✓", []byte{0, 255}, []byte{1, 2, 3}, []byte("bytes"),
					int32(19723), int32(3723456), ts(1704067200000, 0), ts(-1, 0), ts(1704067200123, 456000),
					ts(1704067200123, 456789), ts(1704067200123, 0), ts(-86400000, 999000)),
				ins(int32(2), nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil),
				ins(int32(3), false, int8(0), int16(-1), int32(0), int64(-1), float32(-0.0), -1e-300, dec(1), dec(-1),
					bigDec("99999999999999999999999999999999999999"), "x", "", "", []byte{}, []byte{}, []byte{},
					int32(-719162), int32(0), ts(-62135596800000, 0), ts(253402300799999, 0), ts(0, 1000),
					ts(0, 1), ts(0, 0), ts(0, 0)),
			}},
			filters: []filt{{"point_k", oracle.Eq("k", 3), func(r []any) bool { return r[0].(int32) == 3 }}},
		},
	}
}

// TestLakeloadWritesOraclesRead: lakeload writes each scenario in several commits; Java Paimon and
// pypaimon read every snapshot and equal the independent model; filtered reads return exactly the
// matching rows.
//
// It runs with the warehouse on the local disk and on S3 (storage_s3_test.go); on S3 the oracles
// read the objects lakeload PUT from the server's POSIX directory.
func TestLakeloadWritesOraclesRead(t *testing.T) {
	java, py := oracle.Java(t), oracle.Py(t)
	forEachStorage(t, func(t *testing.T, st storage) { lakeloadWritesOraclesRead(t, st, java, py) })
}

func lakeloadWritesOraclesRead(t *testing.T, st storage, java, py *oracle.Client) {
	for _, sc := range writeScenarios() {
		if st.srv != nil && !sc.onS3 {
			continue
		}
		t.Run(sc.name, func(t *testing.T) {
			tbl := newTableOn(t, st, sc.name, sc.def)
			m := newModel(tbl.Schema)
			path := st.oraclePath(sc.name)
			for ci, cs := range sc.commits {
				id := lakeloadCommit(t, tbl, cs)
				for _, c := range cs {
					m.apply(c)
				}
				want := canonLines(t, tbl.Schema.Fields, m.result())
				diffLinesAs(t, fmt.Sprintf("java commit %d", ci+1), want, java.Read(path, oracle.ReadOpts{Snapshot: id}))
				if !sc.javaOnly {
					diffLinesAs(t, fmt.Sprintf("pypaimon commit %d", ci+1), want, py.Read(path, oracle.ReadOpts{Snapshot: id}))
				}
				diffLinesAs(t, fmt.Sprintf("lakeload commit %d", ci+1), want, lakeloadRows(t, tbl, id))
			}
			for _, f := range sc.filters {
				var rows [][]any
				for _, r := range m.result() {
					if f.match(r) {
						rows = append(rows, r)
					}
				}
				want := canonLines(t, tbl.Schema.Fields, rows)
				diffLinesAs(t, "java filter "+f.name, want, java.Read(path, oracle.ReadOpts{Filter: f.f}))
				if !sc.javaOnly {
					diffLinesAs(t, "pypaimon filter "+f.name, want, py.Read(path, oracle.ReadOpts{Filter: f.f}))
				}
			}
		})
	}
}

func diffLinesAs(t *testing.T, what string, want, got []string) {
	t.Helper()
	t.Run(what, func(t *testing.T) { diffLines(t, want, got) })
}
