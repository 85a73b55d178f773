package plan

import (
	"context"
	"fmt"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/source"
	"github.com/lakeload/lakeload/source/file"
)

// Sampling bounds of Sample: the text read per file, and how many files are sampled (the rest keep
// EstimatedRows's size rule).
const (
	sampleBytes = 1 << 20
	sampleFiles = 64
)

// Estimates are row estimates of whole-file text splits (compressed or small files, which planning
// does not cut and whose rows are not counted), sampled from their text. They serve progress and dry
// runs only: windows are still assigned and sequence numbers still spanned by EstimatedRows and Span,
// functions of the plan alone, so a resumed job assigns and numbers as before.
type Estimates map[string]int64

func estimateKey(s source.Split) string {
	return fmt.Sprintf("%s\x00%d\x00%d", s.Path, s.Size, s.ModTimeUnixNano)
}

// Sample estimates the rows of up to 64 whole-file text splits of splits by reading the first MiB of
// each one's text (file.SampleRows). A file that cannot be sampled keeps the size rule; the load
// itself reports its problem.
func Sample(ctx context.Context, fs fileio.FileIO, splits []source.Split) Estimates {
	e := Estimates{}
	if fs == nil {
		return e
	}
	for _, s := range splits {
		if len(e) == sampleFiles || ctx.Err() != nil {
			break
		}
		if s.RowCount >= 0 || s.IsRange() || (s.Format != source.FormatCSV && s.Format != source.FormatJSONL) {
			continue
		}
		if n, err := file.SampleRows(ctx, fs, s, sampleBytes); err == nil {
			e[estimateKey(s)] = n
		}
	}
	return e
}

// Rows is the split's row count when known, its sampled estimate when it has one, else
// EstimatedRows.
func (e Estimates) Rows(s source.Split) int64 {
	if s.RowCount < 0 && !s.IsRange() {
		if n, ok := e[estimateKey(s)]; ok {
			return n
		}
	}
	return EstimatedRows(s)
}
