package plan

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/source"
)

// TestCutFileCountsORCRows: an ORC file is one split whose RowCount is the footer's, also when the
// split comes from a re-plan (Revise's planFile passes RowCount -1): a split's span of sequence
// numbers is its row count, and an ORC file can hold more rows than bytes, so the byte-size
// fallback would overlap the next split's numbers.
func TestCutFileCountsORCRows(t *testing.T) {
	p, err := filepath.Abs("../../source/file/testdata/orders.orc")
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	f := source.Split{Path: p, Format: source.FormatORC, Size: st.Size(), ModTimeUnixNano: st.ModTime().UnixNano(), RowCount: -1}
	got, err := CutFile(context.Background(), local.New(), f, 100, source.CSVDialect{})
	if err != nil || len(got) != 1 || got[0].RowCount != 1500 || Span(got[0]) != 1500 {
		t.Fatalf("CutFile = %+v, %v; want one split of 1500 rows", got, err)
	}
}
