package compact_test

import (
	"strings"
	"testing"

	"github.com/lakeload/lakeload/paimon/compact"
)

// TestStrategyOfIntsAsJava: the compaction options are Java ints, parsed by spec's one rule. Before,
// strconv.Atoi took any 64-bit value, so num-levels=4294967296 (Java refuses it: not an int) passed.
func TestStrategyOfIntsAsJava(t *testing.T) {
	for _, key := range []string{"num-levels", "num-sorted-run.compaction-trigger", "compaction.size-ratio"} {
		tbl := newTable(t, []string{"id"}, nil, map[string]string{"bucket": "1", key: "4294967296"})
		if _, err := compact.StrategyOf(tbl); err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%s=4294967296: %v, want an error naming the option", key, err)
		}
	}
	tbl := newTable(t, []string{"id"}, nil, map[string]string{"bucket": "1", "num-sorted-run.compaction-trigger": " 3 "})
	s, err := compact.StrategyOf(tbl)
	if err != nil || s.Trigger != 3 || s.StopTrigger != 6 || s.NumLevels != 4 {
		t.Fatalf("trigger ' 3 ': %+v, %v; want trigger 3, stop trigger 6, 4 levels", s, err)
	}
}
