package compat

import (
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/lakeload/lakeload/paimon/spec"
)

// model is an independent, deliberately naive statement of Paimon's merge semantics: it applies input
// rows in order to a map keyed by the primary key. It shares no code with lakeload's writer or reader.
type model struct {
	fields  []spec.DataField
	keyIdx  []int // all primary-key columns (partition keys included)
	engine  string
	aggs    map[int]string // column → aggregate function (aggregation engine)
	seqIdx  int            // sequence.field column, -1 if none
	rows    map[string][]any
	seqs    map[string][2]any // last sequence value and arrival number per key
	arrival int
	append  [][]any
}

func newModel(s *spec.TableSchema) *model {
	m := &model{fields: s.Fields, rows: map[string][]any{}, seqs: map[string][2]any{}, seqIdx: -1, aggs: map[int]string{}}
	for _, k := range s.PrimaryKeys {
		_, i, _ := s.Field(k)
		m.keyIdx = append(m.keyIdx, i)
	}
	m.engine = s.Options["merge-engine"]
	if m.engine == "" {
		m.engine = "deduplicate"
	}
	for i, f := range s.Fields {
		if fn, ok := s.Options["fields."+f.Name+".aggregate-function"]; ok {
			m.aggs[i] = fn
		}
	}
	if sf, ok := s.Options["sequence.field"]; ok {
		_, m.seqIdx, _ = s.Field(sf)
	}
	return m
}

func (m *model) key(row []any) string {
	parts := make([]string, len(m.keyIdx))
	for i, k := range m.keyIdx {
		parts[i] = fmt.Sprintf("%#v", row[k])
	}
	return strings.Join(parts, "|")
}

// apply folds one input row into the model.
func (m *model) apply(c change) {
	m.arrival++
	if len(m.keyIdx) == 0 {
		m.append = append(m.append, c.Row)
		return
	}
	k := m.key(c.Row)
	if m.seqIdx >= 0 {
		// A row with a lower sequence.field value than the current one loses.
		if prev, ok := m.seqs[k]; ok && less(c.Row[m.seqIdx], prev[0]) {
			return
		}
		m.seqs[k] = [2]any{c.Row[m.seqIdx], m.arrival}
	}
	if c.Kind.IsRetract() {
		delete(m.rows, k)
		return
	}
	cur, ok := m.rows[k]
	switch {
	case !ok || m.engine == "deduplicate":
		m.rows[k] = append([]any(nil), c.Row...)
	case m.engine == "partial-update":
		for i, v := range c.Row {
			if v != nil {
				cur[i] = v
			}
		}
	case m.engine == "aggregation":
		for i, v := range c.Row {
			switch m.aggs[i] {
			case "sum":
				cur[i] = add(cur[i], v)
			case "max":
				if cur[i] == nil || (v != nil && less(cur[i], v)) {
					cur[i] = v
				}
			case "last_value":
				cur[i] = v
			default: // last_non_null_value, also for keys
				if v != nil {
					cur[i] = v
				}
			}
		}
	}
}

func (m *model) result() [][]any {
	if len(m.keyIdx) == 0 {
		return m.append
	}
	keys := make([]string, 0, len(m.rows))
	for k := range m.rows {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([][]any, len(keys))
	for i, k := range keys {
		out[i] = m.rows[k]
	}
	return out
}

func less(a, b any) bool {
	switch x := a.(type) {
	case int32:
		return x < b.(int32)
	case int64:
		return x < b.(int64)
	case float64:
		return x < b.(float64)
	case string:
		return x < b.(string)
	case spec.TimestampValue:
		y := b.(spec.TimestampValue)
		return x.Millis < y.Millis || (x.Millis == y.Millis && x.NanoOfMilli < y.NanoOfMilli)
	case spec.DecimalValue:
		return x.Unscaled.Cmp(b.(spec.DecimalValue).Unscaled) < 0
	}
	panic(fmt.Sprintf("less: %T", a))
}

func add(a, b any) any {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	switch x := a.(type) {
	case int32:
		return x + b.(int32)
	case int64:
		return x + b.(int64)
	case float64:
		return x + b.(float64)
	case spec.DecimalValue:
		return spec.DecimalValue{Unscaled: new(big.Int).Add(x.Unscaled, b.(spec.DecimalValue).Unscaled)}
	}
	panic(fmt.Sprintf("add: %T", a))
}
