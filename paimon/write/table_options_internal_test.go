package write

import (
	"testing"
)

// TestTableOptionRules: the table's own consistency: one rule per key, a reason for each, allowed
// values only on refused options, and the pattern matcher.
func TestTableOptionRules(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range tableOptionRules {
		if seen[r.key] {
			t.Errorf("%q classified twice", r.key)
		}
		seen[r.key] = true
		if r.why == "" || r.class < Honoured || r.class > Refused {
			t.Errorf("%q: class %v, reason %q", r.key, r.class, r.why)
		}
		if r.allowed != nil && r.class != Refused {
			t.Errorf("%q: allowed values on a %v option", r.key, r.class)
		}
	}
	for _, c := range []struct {
		p, key string
		want   bool
	}{
		{"fields.*.aggregate-function", "fields.v.aggregate-function", true},
		{"fields.*.aggregate-function", "fields.a.b.aggregate-function", true},
		{"fields.*.aggregate-function", "fields..aggregate-function", false},
		{"fields.*.aggregate-function", "fields.default-aggregate-function", false},
		{"file-index.*.*", "file-index.bloom-filter.k.fpp", true},
		{"commit.callback.#.param", "commit.callback.a.B.param", true},
		{"orc.*", "orc", false},
	} {
		if got := patternMatch(c.p, c.key); got != c.want {
			t.Errorf("patternMatch(%q, %q) = %v, want %v", c.p, c.key, got, c.want)
		}
	}
	if r := classify("fields.default-aggregate-function"); r == nil || r.class != Honoured {
		t.Errorf("fields.default-aggregate-function: exact rule must win over patterns, got %+v", r)
	}
	if r := classify("parquet.variant.shreddingSchema"); r == nil || r.class != Refused {
		t.Errorf("parquet.variant.shreddingSchema: exact rule must win over parquet.*, got %+v", r)
	}
}
