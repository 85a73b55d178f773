package job

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
)

// DryRunReport is filled by a dry run: the plan and the outcome of reading a sample of every file.
type DryRunReport struct {
	Splits        int
	Files         int
	EstimatedRows int64
	SampledRows   int64
	Windows       int           // windows the input would make at Config.CommitRows
	Inputs        []DryRunInput // per input file, in plan order
}

// DryRunInput is one input file of a dry run's plan.
type DryRunInput struct {
	Path          string
	Format        string
	Splits        int
	EstimatedRows int64 // exact for Parquet, from the size for text formats
}

// String summarises the report.
func (r DryRunReport) String() string {
	return fmt.Sprintf("%d files in %d splits, about %d rows in about %d windows; %d sampled rows (the first batch of each file) map onto the table",
		r.Files, r.Splits, r.EstimatedRows, r.Windows, r.SampledRows)
}

// dryRun plans the input (or reads the stored plan), checks the column mapping and the first batch
// of every file, and writes nothing.
func (d *driver) dryRun(ctx context.Context) (*DryRunReport, error) {
	st, err := d.store.Load(ctx)
	if err != nil {
		return nil, err
	}
	if plan, err := PlanSplits(st); err != nil {
		return nil, err
	} else if plan != nil {
		dropped := st.Dropped() // re-planned files: only their current splits
		for i, s := range plan {
			if _, gone := slices.BinarySearch(dropped, i); !gone {
				d.plan = append(d.plan, s)
			}
		}
	} else {
		if d.plan, err = d.planSplits(ctx); err != nil {
			return nil, err
		}
	}
	rep := &DryRunReport{Splits: len(d.plan)}
	seen := map[string]int{} // path → index in rep.Inputs
	var inWindow int64
	for _, s := range d.plan {
		n := EstimatedRows(s)
		rep.EstimatedRows += n
		if inWindow == 0 {
			rep.Windows++
		}
		if inWindow += n; inWindow >= d.cfg.CommitRows {
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
		r, err := d.cfg.Source.Open(ctx, s, d.t.Schema, d.cfg.Mapping)
		if err != nil {
			return rep, &InputError{Err: err}
		}
		b, err := r.Next(ctx)
		r.Close()
		if err != nil && !errors.Is(err, io.EOF) {
			return rep, &InputError{Err: err}
		}
		if b != nil {
			rep.SampledRows += b.Record.NumRows()
			b.Record.Release()
		}
	}
	return rep, nil
}
