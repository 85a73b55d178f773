package job

import (
	"context"
	"slices"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/job/plan"
	"github.com/lakeload/lakeload/source"
)

// dryRun plans the input (or reads the stored plan), checks the column mapping and the first batch
// of every file (plan.DryRun), and writes nothing.
func (d *driver) dryRun(ctx context.Context) (*plan.DryRunReport, error) {
	st, err := d.store.Load(ctx)
	if err != nil {
		return nil, err
	}
	if p, err := plan.Stored(st); err != nil {
		return nil, err
	} else if p != nil {
		dropped := st.Dropped() // re-planned files: only their current splits
		for i, s := range p {
			if _, gone := slices.BinarySearch(dropped, i); !gone {
				d.plan = append(d.plan, s)
			}
		}
	} else {
		if d.plan, err = d.planSplits(ctx); err != nil {
			return nil, err
		}
	}
	return plan.DryRun(ctx, d.plan, plan.Sample(ctx, d.cfg.InputFS, d.plan), d.cfg.Source, d.t.Schema, d.cfg.mapping, d.cfg.CommitRows)
}

// EstimatedRows is the split's row count: exact for Parquet and cut text files, estimated for
// other text splits from their size (plan.EstimatedRows).
func EstimatedRows(s source.Split) int64 { return plan.EstimatedRows(s) }

// PlanFiles lists the input files of in, one split per file, as a job plans them before cutting
// (plan.PlanFiles: each pattern of in.From in turn; a file matched twice is planned once).
func PlanFiles(ctx context.Context, fs fileio.FileIO, in Input) ([]source.Split, error) {
	return plan.PlanFiles(ctx, fs, in.From, in.Format, in.Limits)
}
