package checkpoint

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/lakeload/lakeload/fileio"
)

// Generation starts generation g ≥ 2 of a finished job (generations/<g>/start, write-once): an
// incremental load of the input files that appeared under the job's glob since the previous
// generation. Generation 1 is the job's original plan. The generation's splits enter the plan
// through plan revision Revision (Dropped empty, At all -1), which the job writes right after this
// record (and on any later run that finds it missing), so a crash between the two loses nothing.
type Generation struct {
	Generation  int      `json:"generation"`  // g ≥ 2, as in the record's path
	Revision    int      `json:"revision"`    // the plan revision holding Splits
	Base        int      `json:"base"`        // plan size before the generation: its splits get Base, Base+1, …
	Splits      []Opaque `json:"splits"`      // the generation's plan: splits of the new files, in input order
	FirstWindow int64    `json:"firstWindow"` // the first window number the generation may assign
	// Changed lists files loaded by an earlier generation that changed or vanished since: they are
	// reported, never reloaded.
	Changed []FileChange `json:"changed,omitempty"`
	Created time.Time    `json:"created"`
}

// FileChange is an already-loaded input file that is no longer what was loaded.
type FileChange struct {
	Path   string `json:"path"`
	Change string `json:"change"` // "changed" (size or modification time differ) or "gone"
	Detail string `json:"detail,omitempty"`
}

// PlanRevision returns the plan revision that adds the generation's splits.
func (g Generation) PlanRevision() PlanRevision {
	at := make([]int, len(g.Splits))
	for i := range at {
		at[i] = -1
	}
	return PlanRevision{Revision: g.Revision, Base: g.Base, Added: g.Splits, At: at,
		Reason: fmt.Sprintf("incremental generation %d", g.Generation), Created: g.Created}
}

func (g *Generation) validate() error {
	if g.Generation < 2 || g.Revision < 1 || g.Base < 0 || g.FirstWindow < 1 {
		return fmt.Errorf("generation %d revision %d base %d first window %d out of range", g.Generation, g.Revision, g.Base, g.FirstWindow)
	}
	return nil
}

const (
	generationsDir = "generations"
	startFile      = "start"
	kindGeneration = "generation"
)

func (s *Store) generationDir(g int) string {
	return fileio.Join(s.root, generationsDir, strconv.Itoa(g))
}

// GenerationPath returns the path of generation g's start record.
func (s *Store) GenerationPath(g int) string { return fileio.Join(s.generationDir(g), startFile) }

// GenerationDonePath returns the path of generation g's done record (generation 1: the root done).
func (s *Store) GenerationDonePath(g int) string {
	if g <= 1 {
		return fileio.Join(s.root, doneFile)
	}
	return fileio.Join(s.generationDir(g), doneFile)
}

// WriteGeneration creates generations/<g>/start. ErrExist means another runner started generation g.
func (s *Store) WriteGeneration(ctx context.Context, g Generation) error {
	return s.write(ctx, s.GenerationPath(g.Generation), kindGeneration, g, g.validate)
}

func (s *Store) readGenerations(ctx context.Context, rs *Records) error {
	dir := fileio.Join(s.root, generationsDir)
	return s.readNumbered(ctx, dir, true, 2, 1<<30, "a generation directory", func(n int64, e fileio.FileInfo) error {
		g := int(n)
		files, err := s.listVisible(ctx, e.Path)
		if err != nil {
			return err
		}
		for _, f := range files {
			switch {
			case f.Name == startFile && !f.IsDir:
				err = readInto(ctx, s, f, kindGeneration, &rs.Generations, func(x Generation) bool { return x.Generation == g })
			case f.Name == doneFile && !f.IsDir:
				err = readInto(ctx, s, f, kindDone, &rs.GenerationsDone, func(d DoneRecord) bool { return d.Generation == g })
			default:
				err = corruptf(f.Path, "unexpected entry in generation %d", g)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// applyGenerations checks the generation records: numbered 2..n without gaps, each started after the
// previous generation was done (and not aborted), each done record belonging to a started generation.
func applyGenerations(st *State, gens []Generation, dones []DoneRecord) error {
	gens = slices.Clone(gens)
	slices.SortFunc(gens, func(a, b Generation) int { return a.Generation - b.Generation })
	done := map[int]*DoneRecord{}
	if st.done != nil {
		done[1] = st.done
	}
	for i := range dones {
		d := dones[i]
		if d.Generation < 2 || d.Generation > len(gens)+1 {
			return corruptf(fmt.Sprintf("generation %d done", d.Generation), "done record of a generation that was never started")
		}
		done[d.Generation] = &d
	}
	for i, g := range gens {
		where := fmt.Sprintf("generation %d", g.Generation)
		if g.Generation != i+2 {
			return corruptf(generationsDir, "generations must be numbered 2..n without gaps: found %d at position %d", g.Generation, i+2)
		}
		if err := g.validate(); err != nil {
			return corruptf(where, "%v", err)
		}
		if prev := done[g.Generation-1]; prev == nil || prev.Aborted {
			return corruptf(where, "started although generation %d is not done (or was aborted)", g.Generation-1)
		}
	}
	st.generations = gens
	if len(gens) > 0 {
		st.done = done[len(gens)+1] // the current generation's done record (nil while it runs)
	}
	return nil
}

// Generation returns the job's current generation: 1, or the highest started generation.
func (s State) Generation() int { return len(s.generations) + 1 }

// Generations returns the started generations ≥ 2, ascending.
func (s State) Generations() []Generation { return slices.Clone(s.generations) }
