package maintain

import (
	"strings"
	"testing"
)

// TestExpireOptionsBooleanAsJava: consumer.changelog-only is parsed by spec's boolean rule (Java's
// OptionsUtils: "true"/"false" in any case). It used strconv.ParseBool, which also took "1", "t" and
// "F", values Java refuses when it opens the table.
func TestExpireOptionsBooleanAsJava(t *testing.T) {
	for _, v := range []string{"1", "t", "F"} {
		f := newFixture(t, map[string]string{"consumer.changelog-only": v})
		if _, err := ExpireOptionsOf(f.tbl); err == nil || !strings.Contains(err.Error(), `table option "consumer.changelog-only"`) {
			t.Errorf("consumer.changelog-only=%q: %v, want an error naming the table option", v, err)
		}
	}
	f := newFixture(t, map[string]string{"consumer.changelog-only": " TRUE "})
	if o, err := ExpireOptionsOf(f.tbl); err != nil || !o.IgnoreConsumers {
		t.Fatalf("consumer.changelog-only=' TRUE ': %+v, %v; want IgnoreConsumers", o, err)
	}
}
