package mergetree

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
)

// propConfig is one table configuration exercised by the property tests.
type propConfig struct {
	name     string
	opts     map[string]string
	retracts bool // generate -U/-D records
	onlyDel  bool // retracts are -D only
	foldSafe bool // Java's fold is associative for this configuration, so Fold+Merge == reference
}

var propFields = []spec.DataField{
	col("a", intType(true)),
	col("b", spec.DataType{Root: spec.BigInt, Nullable: true}),
	col("c", stringType),
}

var propConfigs = []propConfig{
	{"deduplicate", nil, true, false, true},
	{"deduplicate ignore-delete", map[string]string{"ignore-delete": "true"}, true, false, true},
	{"deduplicate sequence.field", map[string]string{"sequence.field": "a"}, true, false, true},
	{"deduplicate sequence.field desc", map[string]string{"sequence.field": "a,b", "sequence.field.sort-order": "descending"}, true, false, true},
	{"first-row", map[string]string{"merge-engine": "first-row"}, false, false, true},
	{"first-row ignore-delete", map[string]string{"merge-engine": "first-row", "ignore-delete": "true"}, true, false, true},
	{"partial-update", map[string]string{"merge-engine": "partial-update"}, false, false, true},
	// Java's partial-update seeds a key's row from a leading retract and orders null sequence
	// values first, so folding per flush is not associative with retracts or sequence.field:
	// merge only.
	{"partial-update ignore-delete", map[string]string{"merge-engine": "partial-update", "ignore-delete": "true"}, true, false, false},
	{"partial-update remove-record-on-delete", map[string]string{"merge-engine": "partial-update", "partial-update.remove-record-on-delete": "true"}, true, true, false},
	{"partial-update sequence.field", map[string]string{"merge-engine": "partial-update", "sequence.field": "b"}, false, false, false},
	{"aggregation inserts", map[string]string{"merge-engine": "aggregation", "fields.a.aggregate-function": "max",
		"fields.b.aggregate-function": "sum", "fields.c.aggregate-function": "listagg"}, false, false, true},
	{"aggregation retracts", map[string]string{"merge-engine": "aggregation", "fields.a.aggregate-function": "min",
		"fields.a.ignore-retract": "true", "fields.b.aggregate-function": "sum", "fields.c.aggregate-function": "listagg",
		"fields.c.ignore-retract": "true"}, true, false, true},
	// last_non_null_value retraction is not associative in Java either: merge only.
	{"aggregation last_non_null retracts", map[string]string{"merge-engine": "aggregation",
		"fields.b.aggregate-function": "sum"}, true, false, false},
}

// genRecords generates n records over few keys, in arrival order (Seq increasing).
func genRecords(r *rand.Rand, pc propConfig, n, keys int) []KeyValue {
	out := make([]KeyValue, n)
	for i := range out {
		kind := spec.RowKindInsert
		if pc.retracts && r.IntN(4) == 0 {
			kind = spec.RowKindDelete
			if !pc.onlyDel && r.IntN(2) == 0 {
				kind = spec.RowKindUpdateBefore
			}
		} else if r.IntN(3) == 0 {
			kind = spec.RowKindUpdateAfter
		}
		maybe := func(v any) any {
			if r.IntN(4) == 0 {
				return nil
			}
			return v
		}
		k := int32(r.IntN(keys))
		out[i] = rec(k, int64(i+1), kind, maybe(int32(r.IntN(5))), maybe(int64(r.IntN(100)-50)), maybe(fmt.Sprint("s", r.IntN(3))))
	}
	return out
}

// reference merges naively: sort everything by key then Less, fold each key, drop retracts.
func reference(c *Config, records []KeyValue) ([]KeyValue, error) {
	all := slices.Clone(records)
	slices.SortFunc(all, func(a, b KeyValue) int {
		if cmp := c.CompareKeys(a.Key, b.Key); cmp != 0 {
			return cmp
		}
		if c.Less(a, b) {
			return -1
		}
		if c.Less(b, a) {
			return 1
		}
		return 0
	})
	var out []KeyValue
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && c.CompareKeys(all[j].Key, all[i].Key) == 0 {
			j++
		}
		kv, ok, err := mergeAll(c, all[i:j]...)
		if err != nil {
			return nil, err
		}
		if ok && !kv.Kind.IsRetract() {
			out = append(out, kv)
		}
		i = j
	}
	return out, nil
}

// splitIntoRuns distributes records randomly over runs with unique keys per run, each sorted.
func splitIntoRuns(r *rand.Rand, c *Config, records []KeyValue) [][]KeyValue {
	var runs [][]KeyValue
	var keySets []map[int32]bool
	for _, kv := range records {
		k := kv.Key[0].(int32)
		var free []int
		for i, ks := range keySets {
			if !ks[k] {
				free = append(free, i)
			}
		}
		if len(free) == 0 || r.IntN(8) == 0 {
			runs = append(runs, nil)
			keySets = append(keySets, map[int32]bool{})
			free = []int{len(runs) - 1}
		}
		i := free[r.IntN(len(free))]
		runs[i] = append(runs[i], kv)
		keySets[i][k] = true
	}
	for _, run := range runs {
		slices.SortFunc(run, func(a, b KeyValue) int { return c.CompareKeys(a.Key, b.Key) })
	}
	return runs
}

func mergeSlices(c *Config, runs [][]KeyValue) ([]KeyValue, error) {
	rs := make([]Run, len(runs))
	for i, run := range runs {
		rs[i] = SliceRun(run)
	}
	var out []KeyValue
	err := Merge(c, rs, func(kv KeyValue) error { out = append(out, kv); return nil })
	return out, err
}

func TestMergeEqualsReference(t *testing.T) {
	for _, pc := range propConfigs {
		t.Run(pc.name, func(t *testing.T) {
			c := mustConfig(t, pc.opts, propFields...)
			r := rand.New(rand.NewPCG(1, 2))
			for trial := 0; trial < 150; trial++ {
				records := genRecords(r, pc, 1+r.IntN(120), 1+r.IntN(25))
				want, err := reference(c, records)
				if err != nil {
					t.Fatalf("trial %d: reference: %v", trial, err)
				}
				got, err := mergeSlices(c, splitIntoRuns(r, c, records))
				if err != nil {
					t.Fatalf("trial %d: Merge: %v", trial, err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("trial %d: Merge =\n%v\nwant\n%v", trial, got, want)
				}
			}
		})
	}
}

func TestFoldThenMergeEqualsReference(t *testing.T) {
	for _, pc := range propConfigs {
		if !pc.foldSafe {
			continue
		}
		t.Run(pc.name, func(t *testing.T) {
			c := mustConfig(t, pc.opts, propFields...)
			r := rand.New(rand.NewPCG(3, 4))
			for trial := 0; trial < 150; trial++ {
				records := genRecords(r, pc, 1+r.IntN(120), 1+r.IntN(25))
				want, err := reference(c, records)
				if err != nil {
					t.Fatalf("trial %d: reference: %v", trial, err)
				}
				// Cut the arrival sequence into flushes; each flush becomes one folded run.
				var runs [][]KeyValue
				for rest := records; len(rest) > 0; {
					n := 1 + r.IntN(len(rest))
					folded, err := Fold(c, rest[:n])
					if err != nil {
						t.Fatalf("trial %d: Fold: %v", trial, err)
					}
					for i := 1; i < len(folded); i++ {
						if c.CompareKeys(folded[i-1].Key, folded[i].Key) >= 0 {
							t.Fatalf("trial %d: Fold output not strictly sorted by key", trial)
						}
					}
					runs = append(runs, folded)
					rest = rest[n:]
				}
				got, err := mergeSlices(c, runs)
				if err != nil {
					t.Fatalf("trial %d: Merge: %v", trial, err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("trial %d: Fold+Merge =\n%v\nwant\n%v", trial, got, want)
				}
			}
		})
	}
}

func TestFoldKeepsRetractResults(t *testing.T) {
	c := mustConfig(t, nil, col("v", intType(true)))
	got, err := Fold(c, []KeyValue{ins(2, 1, int32(1)), ins(1, 2, int32(5)), del(2, 3, int32(1))})
	if err != nil {
		t.Fatal(err)
	}
	want := []KeyValue{ins(1, 2, int32(5)), del(2, 3, int32(1))}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Fold = %v, want %v", got, want)
	}
	ci := mustConfig(t, map[string]string{"ignore-delete": "true"}, col("v", intType(true)))
	got, err = Fold(ci, []KeyValue{del(1, 1, int32(1)), del(1, 2, int32(1)), ins(2, 3, nil)})
	if err != nil {
		t.Fatal(err)
	}
	if want := []KeyValue{ins(2, 3, nil)}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Fold with ignore-delete = %v, want %v", got, want)
	}
	fr := mustConfig(t, map[string]string{"merge-engine": "first-row"}, col("v", intType(true)))
	if _, err := Fold(fr, []KeyValue{ins(1, 1, nil), del(1, 2, nil)}); !errors.Is(err, ErrRetractNotAccepted) {
		t.Fatalf("first-row Fold of a retract: err = %v", err)
	}
}

type errRun struct{ err error }

func (e errRun) Next() (KeyValue, bool, error) { return KeyValue{}, false, e.err }

func TestMergeErrors(t *testing.T) {
	c := mustConfig(t, nil, col("v", intType(true)))
	_, err := mergeSlices(c, [][]KeyValue{{ins(1, 1, nil), ins(1, 2, nil)}})
	if !errors.Is(err, spec.ErrCorrupt) {
		t.Errorf("duplicate key in a run: err = %v, want ErrCorrupt", err)
	}
	_, err = mergeSlices(c, [][]KeyValue{{ins(2, 1, nil), ins(1, 2, nil)}})
	if !errors.Is(err, spec.ErrCorrupt) {
		t.Errorf("unsorted run: err = %v, want ErrCorrupt", err)
	}
	boom := errors.New("boom")
	if err := Merge(c, []Run{SliceRun([]KeyValue{ins(1, 1, nil)}), errRun{boom}}, func(KeyValue) error { return nil }); !errors.Is(err, boom) {
		t.Errorf("run error: err = %v", err)
	}
	stop := errors.New("stop")
	if err := Merge(c, []Run{SliceRun([]KeyValue{ins(1, 1, nil)})}, func(KeyValue) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("emit error: err = %v", err)
	}
	fr := mustConfig(t, map[string]string{"merge-engine": "first-row"}, col("v", intType(true)))
	_, err = mergeSlices(fr, [][]KeyValue{{ins(1, 1, nil)}, {del(1, 2, nil)}})
	if !errors.Is(err, ErrRetractNotAccepted) {
		t.Errorf("first-row retract: err = %v", err)
	}
	if err := Merge(c, nil, func(KeyValue) error { return stop }); err != nil {
		t.Errorf("no runs: err = %v", err)
	}
}
