package read

import (
	"testing"

	"github.com/lakeload/lakeload/paimon/table/tabletest"
)

// TestSkipsLevel0MergeOnReadAsJava: deletion-vectors.merge-on-read is a Java boolean ("TRUE" is
// true), so a deletion-vector table with merge-on-read=TRUE reads level 0 like Java does. The raw
// comparison with "true" skipped level 0 there, hiding rows Java returns.
func TestSkipsLevel0MergeOnReadAsJava(t *testing.T) {
	cols := [][2]string{{"k", "INT NOT NULL"}, {"v", "STRING"}}
	for _, c := range []struct {
		mor  string
		want bool
	}{{"", true}, {"false", true}, {"true", false}, {"TRUE", false}, {" True ", false}} {
		opts := map[string]string{"bucket": "1", "deletion-vectors.enabled": "true"}
		if c.mor != "" {
			opts["deletion-vectors.merge-on-read"] = c.mor
		}
		tbl := tabletest.NewMem(t, cols, nil, []string{"k"}, opts)
		if got := SkipsLevel0(tbl); got != c.want {
			t.Errorf("merge-on-read=%q: SkipsLevel0 = %v, want %v", c.mor, got, c.want)
		}
	}
}
