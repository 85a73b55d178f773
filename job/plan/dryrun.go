package plan

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/source"
)

// DryRunReport is filled by a dry run: the plan and the outcome of reading a sample of every file.
type DryRunReport struct {
	Splits        int
	Files         int
	EstimatedRows int64
	SampledRows   int64
	Windows       int           // windows the input would make at job.Config.CommitRows
	Inputs        []DryRunInput // per input file, in plan order
}

// DryRunInput is one input file of a dry run's plan.
type DryRunInput struct {
	Path          string
	Format        string
	Splits        int
	EstimatedRows int64 // exact for Parquet, ORC and cut text files, sampled for other text files
}

// String summarises the report.
func (r DryRunReport) String() string {
	return fmt.Sprintf("%d files in %d splits, about %d rows in about %d windows; %d sampled rows (the first batch of each file) map onto the table",
		r.Files, r.Splits, r.EstimatedRows, r.Windows, r.SampledRows)
}

// DryRun reports on the splits of a plan (windows of about commitRows rows; rows of uncut text files
// as est samples them) and checks the column mapping and the first batch of every file, as the load
// would read it with src; it writes nothing.
func DryRun(ctx context.Context, splits []source.Split, est Estimates, src source.Source, schema *spec.TableSchema, mapping source.MappingOptions,
	commitRows int64) (*DryRunReport, error) {
	rep := &DryRunReport{Splits: len(splits)}
	seen := map[string]int{} // path → index in rep.Inputs
	var inWindow int64
	for _, s := range splits {
		n := est.Rows(s)
		rep.EstimatedRows += n
		if inWindow == 0 {
			rep.Windows++
		}
		if inWindow += n; inWindow >= commitRows {
			inWindow = 0
		}
		if i, ok := seen[s.Path]; ok {
			rep.Inputs[i].Splits++
			rep.Inputs[i].EstimatedRows += n
			continue
		}
		seen[s.Path] = len(rep.Inputs)
		rep.Inputs = append(rep.Inputs, DryRunInput{Path: s.Path, Format: s.Format, Splits: 1, EstimatedRows: n})
		rep.Files++
		r, err := src.Open(ctx, s, schema, mapping)
		if err != nil {
			return rep, &source.InputError{Err: err}
		}
		b, err := r.Next(ctx)
		r.Close()
		if err != nil && !errors.Is(err, io.EOF) {
			return rep, &source.InputError{Err: err}
		}
		if b != nil {
			rep.SampledRows += b.Record.NumRows()
			b.Record.Release()
		}
	}
	return rep, nil
}
