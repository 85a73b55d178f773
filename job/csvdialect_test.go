package job

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/source"
)

// TestCSVDialectLoadsInWindows (issue 15, finding 4): a ';'-delimited CSV file whose values hold
// quoted newlines, quotes, commas and semicolons is cut in that dialect into byte-range splits and
// loaded in several windows; crashed inside a window, the resumed job ends exactly at the model's
// rows (the Dedup model: every row once, in file order). The dialect is a result option: a rerun
// with another delimiter, quote or header setting is refused before anything is written.
func TestCSVDialectLoadsInWindows(t *testing.T) {
	fx := bigTextFixture(8000, "csv")
	fx.CSVDelimiter = ';'
	for i, r := range fx.Files[0].Rows {
		if v, ok := r.Values[2].(string); ok && i%2 == 0 {
			r.Values[2] = v + "; and a semicolon"
		}
	}
	glob := fx.WriteInputs(t, loadtest.TempDir(t))
	e := newLoadEnv(t, fx, glob)
	cfg := e.config(2000)
	cfg.CSV = source.CSVDialect{Delimiter: ';'}
	out := e.crashThenResume(t, cfg, []crashAt{{PointTaskWritten, 2}}, []bool{false})
	if out.happened != 1 {
		t.Fatal("the crash did not happen")
	}
	splits := planOf(t, e.state(t))
	var rows int64
	for i, s := range splits {
		if !s.IsRange() || s.RowStart != rows || s.RowCount <= 0 {
			t.Fatalf("split %d %+v: want a byte range from row %d", i, s, rows)
		}
		rows += s.RowCount
	}
	if len(splits) < 6 || rows != 8000 {
		t.Fatalf("%d splits holding %d rows, want ≥ 6 splits of the 8000", len(splits), rows)
	}
	if w := len(e.state(t).Windows()); w < 4 {
		t.Fatalf("%d windows, want at least 4", w)
	}
	for _, d := range []source.CSVDialect{{}, {Delimiter: ';', Quote: '\''}, {Delimiter: ';', NoHeader: true}} {
		other := cfg
		other.CSV = d
		_, err := Run(context.Background(), other)
		if !errors.Is(err, checkpoint.ErrJobChanged) || !strings.Contains(err.Error(), "option csv-") {
			t.Errorf("rerun with dialect %+v: %v, want a refusal naming the csv option (ErrJobChanged)", d, err)
		}
	}
}
