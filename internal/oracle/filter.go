package oracle

// Filter is an oracle row filter in JSON form: {"op":"eq","field":"id","value":5}, {"op":"and","args":[...]}.
// Literal values use the canonical text form (numbers for integers/floats, strings for DECIMAL,
// dates, times, timestamps, hex for binary). Both oracles apply it exactly (SQL semantics: a NULL
// field never matches a comparison) after pushing it down where they can.
type Filter map[string]any

func cmp(op, field string, v any) Filter { return Filter{"op": op, "field": field, "value": v} }

// Eq matches field = v.
func Eq(field string, v any) Filter { return cmp("eq", field, v) }

// Ne matches field <> v.
func Ne(field string, v any) Filter { return cmp("ne", field, v) }

// Lt matches field < v.
func Lt(field string, v any) Filter { return cmp("lt", field, v) }

// Le matches field <= v.
func Le(field string, v any) Filter { return cmp("le", field, v) }

// Gt matches field > v.
func Gt(field string, v any) Filter { return cmp("gt", field, v) }

// Ge matches field >= v.
func Ge(field string, v any) Filter { return cmp("ge", field, v) }

// IsNull matches field IS NULL.
func IsNull(field string) Filter { return Filter{"op": "is_null", "field": field} }

// IsNotNull matches field IS NOT NULL.
func IsNotNull(field string) Filter { return Filter{"op": "is_not_null", "field": field} }

// In matches field IN (vs...).
func In(field string, vs ...any) Filter { return Filter{"op": "in", "field": field, "values": vs} }

// And matches rows matching every filter.
func And(fs ...Filter) Filter { return Filter{"op": "and", "args": fs} }

// Or matches rows matching any filter.
func Or(fs ...Filter) Filter { return Filter{"op": "or", "args": fs} }
