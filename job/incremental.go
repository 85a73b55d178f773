package job

import (
	"context"
	"errors"
	"fmt"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/job/plan"
)

// Incremental loads (docs/protocol.md, "Incremental generations"): a finished job run with
// Config.Incremental plans the files under its glob that no earlier generation planned and loads
// them as a new generation — the same commit user, window numbers continuing after the last window,
// sequence numbers above everything written before. Each generation's plan is kept in its start
// record (checkpoint.Generation) and enters the job's plan as a plan revision, so split indexes stay
// stable and recovery is the append protocol's. Files already planned that changed or vanished are
// logged, returned in Result.Changed and recorded in the generation; they are never reloaded.

// PointGenerationStarted is the Hook point after an incremental generation's start record is written
// and before its plan revision (window = the generation's first window).
const PointGenerationStarted = "generation-started"

// generationOf is the Generation field of a done record ending st's current generation (0 for the
// first, so first-generation records keep their old form).
func generationOf(st checkpoint.State) int {
	if g := st.Generation(); g > 1 {
		return g
	}
	return 0
}

// startGeneration starts the next generation when the glob matches files no generation planned.
// It returns false (and writes nothing) when there is nothing new.
func (d *driver) startGeneration(ctx context.Context) (bool, error) {
	if d.cfg.Splits != nil || d.cfg.InputFS == nil {
		return false, fmt.Errorf("job %s: --incremental plans the input glob; it does not apply to pre-planned splits (Config.Splits)", d.cfg.Name)
	}
	planned, err := plan.PlanFiles(ctx, d.cfg.InputFS, d.cfg.From, d.cfg.Format, d.cfg.Limits)
	if err != nil {
		return false, &InputError{Err: fmt.Errorf("incremental planning of job %s: %w", d.cfg.Name, err)}
	}
	pr, err := plan.Stored(d.st)
	if err != nil {
		return false, err
	}
	fresh, changed, err := plan.Diff(ctx, d.cfg.InputFS, planned, pr, d.st.Dropped(), d.splitRows(), d.cfg.CSV)
	if err != nil {
		return false, err
	}
	for _, c := range changed {
		d.cfg.Logger.Warn("input file already loaded by this job is "+c.Change+"; it is not loaded again (forget the job "+
			"or use a new one to reload it)", "job", d.cfg.Name, "file", c.Path, "detail", c.Detail)
	}
	d.res.Changed = append(d.res.Changed, changed...)
	if len(fresh) == 0 {
		return false, nil
	}
	stored, err := plan.EncodeSplits(fresh)
	if err != nil {
		return false, err
	}
	g := checkpoint.Generation{Generation: d.st.Generation() + 1, Revision: len(d.st.Revisions()) + 1, Base: len(pr),
		Splits: stored, FirstWindow: d.st.NextWindow(), Changed: changed, Created: d.cfg.Now().UTC()}
	if err := d.store.WriteGeneration(ctx, g); err != nil {
		if errors.Is(err, fileio.ErrExist) {
			return false, fmt.Errorf("generation %d of job %s was started by another runner meanwhile; this runner stops, run again to continue: %w",
				g.Generation, d.cfg.Name, err)
		}
		return false, err
	}
	files := map[string]bool{}
	for _, s := range fresh {
		files[s.Path] = true
	}
	d.res.NewFiles += len(files)
	d.cfg.Logger.Info("incremental generation started", "job", d.cfg.Name, "generation", g.Generation, "files", len(files),
		"splits", len(fresh), "first_window", g.FirstWindow)
	if err := d.cfg.hook(ctx, PointGenerationStarted, g.FirstWindow); err != nil {
		return false, err
	}
	if d.st, err = d.store.Load(ctx); err != nil {
		return false, err
	}
	if err := d.completeGeneration(ctx); err != nil {
		return false, err
	}
	d.res.Generation = d.st.Generation()
	return true, nil
}

// completeGeneration writes the plan revision of the current generation if a crash left it out
// (the start record is written first), and refreshes the driver's plan.
func (d *driver) completeGeneration(ctx context.Context) error {
	gens := d.st.Generations()
	if len(gens) == 0 {
		return nil
	}
	g := gens[len(gens)-1]
	have := len(d.st.Revisions())
	switch {
	case g.Revision <= have:
	case g.Revision == have+1:
		if err := d.store.WriteRevision(ctx, g.PlanRevision()); err != nil && !errors.Is(err, fileio.ErrExist) {
			return err
		}
		st, err := d.store.Load(ctx)
		if err != nil {
			return err
		}
		d.st = st
	default:
		return fmt.Errorf("%w: generation %d of job %s names plan revision %d, the store has %d", checkpoint.ErrCorrupt, g.Generation, d.cfg.Name, g.Revision, have)
	}
	var err error
	d.plan, err = plan.Stored(d.st)
	return err
}
