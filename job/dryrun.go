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
}

// String summarises the report.
func (r DryRunReport) String() string {
	return fmt.Sprintf("%d files in %d splits, about %d rows; %d sampled rows (the first batch of each file) map onto the table",
		r.Files, r.Splits, r.EstimatedRows, r.SampledRows)
}

// dryRun plans the input (or reads the stored plan), checks the column mapping and the first batch
// of every file, and writes nothing.
func (d *driver) dryRun(ctx context.Context) (*DryRunReport, error) {
	st, err := d.store.Load(ctx)
	if err != nil {
		return nil, err
	}
	if plan, ok := st.Plan(); ok {
		dropped := st.Dropped() // re-planned files: only their current splits
		for i, s := range plan.Splits {
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
	seen := map[string]bool{}
	for _, s := range d.plan {
		rep.EstimatedRows += EstimatedRows(s)
		if seen[s.Path] {
			continue
		}
		seen[s.Path] = true
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
