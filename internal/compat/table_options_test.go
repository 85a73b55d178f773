package compat

import (
	"slices"
	"sort"
	"testing"

	"github.com/lakeload/lakeload/internal/oracle"
	"github.com/lakeload/lakeload/paimon/write"
)

// TestTableOptionsClassified: every table option key of the Java oracle's Paimon (CoreOptions,
// IcebergOptions, OrcOptions, fallback keys included; enumerated by reflection at test time, so a new
// Paimon version's keys show up) has a rule in paimon/write's classification, and every exact key of
// the classification is one Java defines (no stale rules).
func TestTableOptionsClassified(t *testing.T) {
	keys := oracle.Java(t).OptionKeys()
	java := map[string]bool{}
	var missing []string
	for _, k := range keys {
		java[k.Key] = true
		if _, ok := write.ClassifyOption(k.Key); !ok {
			what := k.Class + " " + k.Key
			if k.Fallback != "" {
				what += " (fallback key of " + k.Fallback + ")"
			}
			missing = append(missing, what)
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("unclassified table option %s: add it to tableOptionRules (paimon/write/table_options.go) as honoured, irrelevant or refused, then run go test ./cmd/lakeload -run TestTableOptionsDoc -update-doc", m)
	}
	for _, k := range slices.Sorted(slices.Values(write.RuleKeys())) {
		if !java[k] {
			t.Errorf("rule for %q: Java Paimon defines no such option key", k)
		}
	}
	t.Logf("%d Java option keys, all classified", len(keys))
}
