package job

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/job/task"
	"github.com/lakeload/lakeload/paimon/index"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// Overwrite jobs on dynamic-bucket tables (bucket = -1; docs/protocol.md, "Overwrite jobs"). The
// partitions a window writes are about to be replaced, so its keys are assigned as if they were
// empty: window k's writer continues the HASH files staged by windows 1..k-1 (the "staged index
// chain": per (partition, bucket) the last HASH file a staged attempt added, windows ascending), not
// the table's index. A partition no earlier window wrote starts empty.
//
//   - A staged result records the chain it was computed from: for every partition it writes, its
//     messages delete (DeletedIndexFiles) every HASH file of that partition in its base, changed
//     bucket or not. Staged messages are never committed as they are, so this is only a record.
//   - A window is consistent when, for every partition it writes, that record equals the chain of
//     the attempts chosen for the windows before it. Recomputing a window (missing files) gives its
//     HASH files new names, so each later window writing one of its partitions becomes
//     inconsistent and is recomputed too, in window order, before the final commit
//     (restageInconsistent). The check reads only the store, so a crash in between loses nothing.
//   - The final OVERWRITE commit carries no staged index deletions; it adds, per (partition,
//     bucket), the chain's last HASH file (finalIndexMessages), and package commit deletes every
//     live index entry of the replaced partitions (or of the table).

// slotKey is one (partition, bucket).
type slotKey struct {
	part   string
	bucket int32
}

// indexChain folds the HASH files staged by the given windows' attempts, windows ascending: the
// newest file of each (partition, bucket) wins.
type indexChain map[slotKey]manifest.IndexManifestEntry

func (c indexChain) add(at checkpoint.AttemptState) error {
	msgs, err := task.Messages(at.Results...)
	if err != nil {
		return err
	}
	for _, m := range msgs {
		for _, e := range m.NewIndexFiles {
			if e.IndexType == manifest.IndexTypeHash {
				e.Kind, e.Partition, e.Bucket = manifest.Add, m.Partition, m.Bucket
				c[slotKey{string(m.Partition), m.Bucket}] = e
			}
		}
	}
	return nil
}

// partition returns the names of the chain's files of partition p, sorted.
func (c indexChain) partition(p string) []string {
	var out []string
	for k, e := range c {
		if k.part == p {
			out = append(out, e.FileName)
		}
	}
	slices.Sort(out)
	return out
}

// files returns the chain's entries ordered by (partition, bucket).
func (c indexChain) files() []manifest.IndexManifestEntry {
	out := make([]manifest.IndexManifestEntry, 0, len(c))
	for _, e := range c {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool {
		if string(out[i].Partition) != string(out[j].Partition) {
			return string(out[i].Partition) < string(out[j].Partition)
		}
		return out[i].Bucket < out[j].Bucket
	})
	return out
}

// stagedAttempt is the attempt of window ws that the final commit would use: chosen[w] when set
// (recovery's plan), else the newest attempt covering the window exactly; ok=false when none.
func stagedAttempt(ws checkpoint.WindowState, chosen map[int64]int) (checkpoint.AttemptState, bool) {
	if a, ok := chosen[ws.Window]; ok {
		return ws.Attempt(a)
	}
	for i := len(ws.Attempts) - 1; i >= 0; i-- {
		if checkpoint.CheckCover(ws.Assigned.Splits, ws.Attempts[i].Results).Status == checkpoint.CoverExact {
			return ws.Attempts[i], true
		}
	}
	return checkpoint.AttemptState{}, false
}

// chainBefore returns the staged index chain of the live windows before w (w = 0: of all windows).
func chainBefore(st checkpoint.State, chosen map[int64]int, w int64) (indexChain, error) {
	c := indexChain{}
	for _, ws := range st.Windows() {
		if w > 0 && ws.Window >= w {
			break
		}
		if ws.Voided != nil {
			continue
		}
		if at, ok := stagedAttempt(ws, chosen); ok {
			if err := c.add(at); err != nil {
				return nil, err
			}
		}
	}
	return c, nil
}

// attachOverwriteIndex gives the tasks of an overwrite window of a dynamic-bucket table the staged
// index chain of the windows before theirs.
func (d *overwriteMode) attachOverwriteIndex(tasks []task.Input) error {
	if !dynamicBucket(d.t) {
		return nil
	}
	for i := range tasks {
		c, err := chainBefore(d.st, d.staged, tasks[i].Window)
		if err != nil {
			return err
		}
		tasks[i].OverwriteIndex = &task.OverwriteIndex{Files: c.files()}
	}
	return nil
}

// inconsistentWindow returns the first live window whose chosen attempt was computed from another
// index chain than the attempts chosen before it now form (0: none), with the reason.
func inconsistentWindow(st checkpoint.State, chosen map[int64]int) (int64, string, error) {
	c := indexChain{}
	for _, ws := range st.Windows() {
		if ws.Voided != nil {
			continue
		}
		at, ok := stagedAttempt(ws, chosen)
		if !ok {
			continue
		}
		msgs, err := task.Messages(at.Results...)
		if err != nil {
			return 0, "", err
		}
		base := map[string][]string{}
		for _, m := range msgs {
			p := string(m.Partition)
			if len(m.NewFiles) > 0 || len(m.NewIndexFiles) > 0 {
				if base[p] == nil {
					base[p] = []string{}
				}
			}
			for _, e := range m.DeletedIndexFiles {
				if e.IndexType == manifest.IndexTypeHash {
					base[p] = append(base[p], e.FileName)
				}
			}
		}
		for _, p := range slices.Sorted(func(y func(string) bool) {
			for p := range base {
				if !y(p) {
					return
				}
			}
		}) {
			got := base[p]
			slices.Sort(got)
			if want := c.partition(p); !slices.Equal(got, want) {
				return ws.Window, fmt.Sprintf("attempt %d assigned the keys of a partition from HASH files [%s], but the windows before it now stage [%s]",
					at.Attempt, strings.Join(got, " "), strings.Join(want, " ")), nil
			}
		}
		if err := c.add(at); err != nil {
			return 0, "", err
		}
	}
	return 0, "", nil
}

// restageInconsistent recomputes, as a new attempt, the first window whose staged index base no
// longer matches the windows before it (dynamic-bucket tables only); it reports whether it did, and
// the caller then decides again.
func (d *overwriteMode) restageInconsistent(ctx context.Context, st checkpoint.State, staged map[int64]int) (bool, error) {
	if !dynamicBucket(d.t) {
		return false, nil
	}
	w, why, err := inconsistentWindow(st, staged)
	if w == 0 || err != nil {
		return false, err
	}
	ws, _ := st.Window(w)
	next := ws.LastAttempt() + 1
	if err := d.cfg.hook(ctx, PointRecoveryAction, w); err != nil {
		return false, err
	}
	reason := "the staged dynamic-bucket index before it changed: " + why
	d.cfg.Logger.Info("recovery", "action", fmt.Sprintf("recompute(w=%d,a=%d)", w, next), "reason", reason)
	if err := d.store.WriteAttemptStart(ctx, checkpoint.AttemptStart{Window: w, Attempt: next, Reason: reason, Created: d.cfg.Now().UTC()}); err != nil {
		return false, raced(err, w, fmt.Sprintf("attempt %d", next))
	}
	d.staged = maps.Clone(staged)
	delete(d.staged, w)
	if err := d.runWindow(ctx, ws.Assigned, next); err != nil {
		return false, err
	}
	again, why, err := inconsistentWindow(d.st, d.staged)
	if err != nil {
		return false, err
	}
	if again == w {
		// Never expected: the new attempt was computed from this very chain. Stop rather than loop.
		return false, fmt.Errorf("job %s: window %d attempt %d was recomputed from the staged dynamic-bucket index before it but still "+
			"does not match it (%s): forget the job and run the overwrite again", d.cfg.Name, w, next, why)
	}
	d.res.Recovered++
	return true, nil
}

// finalIndexMessages returns the final commit's messages for a dynamic-bucket table: the staged
// messages without index files, plus per (partition, bucket) the last staged HASH file.
func finalIndexMessages(st checkpoint.State, staged map[int64]int, msgs []table.CommitMessage) ([]table.CommitMessage, error) {
	out := make([]table.CommitMessage, 0, len(msgs))
	pos := map[slotKey]int{}
	for _, m := range msgs {
		m.NewIndexFiles, m.DeletedIndexFiles = nil, nil
		if m.IsEmpty() {
			continue
		}
		pos[slotKey{string(m.Partition), m.Bucket}] = len(out)
		out = append(out, m)
	}
	chain, err := chainBefore(st, staged, 0)
	if err != nil {
		return nil, err
	}
	for _, e := range chain.files() {
		k := slotKey{string(e.Partition), e.Bucket}
		i, ok := pos[k]
		if !ok {
			i = len(out)
			pos[k] = i
			out = append(out, table.CommitMessage{Partition: e.Partition, Bucket: e.Bucket, TotalBuckets: -1})
		}
		out[i].NewIndexFiles = append(out[i].NewIndexFiles, e)
	}
	return out, nil
}

// restageUnfinished re-runs, before new windows are assigned, every window of a dynamic-bucket
// overwrite job that has no attempt covering it exactly (a run stopped while writing it): the
// windows after it continue its HASH files, so staging them first spares recomputing every later
// window that writes the same partitions.
func (d *overwriteMode) restageUnfinished(ctx context.Context) error {
	if !dynamicBucket(d.t) {
		return nil
	}
	for _, ws := range d.st.Windows() {
		if ws.Voided != nil || ws.Committed != nil {
			continue
		}
		if _, ok := stagedAttempt(ws, nil); ok {
			continue
		}
		next := ws.LastAttempt() + 1
		if err := d.cfg.hook(ctx, PointRecoveryAction, ws.Window); err != nil {
			return err
		}
		reason := "no attempt covers the window; windows after it continue its dynamic-bucket index"
		d.cfg.Logger.Info("recovery", "action", fmt.Sprintf("recompute(w=%d,a=%d)", ws.Window, next), "reason", reason)
		if err := d.store.WriteAttemptStart(ctx, checkpoint.AttemptStart{Window: ws.Window, Attempt: next, Reason: reason, Created: d.cfg.Now().UTC()}); err != nil {
			return raced(err, ws.Window, fmt.Sprintf("attempt %d", next))
		}
		if err := d.runWindow(ctx, ws.Assigned, next); err != nil {
			return err
		}
		d.res.Recovered++
	}
	return nil
}

// verifyFinalIndex checks, for a dynamic-bucket table, that final snapshot s holds the staged index
// chain of the attempts it names: each chain HASH file is live, and no other HASH file is live in a
// partition the chain covers (the replaced partitions' old index is gone).
func (d *overwriteMode) verifyFinalIndex(ctx context.Context, s *spec.Snapshot, attempts map[int64]int) error {
	if !dynamicBucket(d.t) {
		return nil
	}
	chain, err := chainBefore(d.st, attempts, 0)
	if err != nil {
		return err
	}
	live, err := index.SnapshotEntries(ctx, d.t, s)
	if err != nil {
		return err
	}
	want := map[string]bool{}
	parts := map[string]bool{}
	for _, e := range chain {
		want[e.FileName] = true
		parts[string(e.Partition)] = true
	}
	for _, e := range live {
		if e.IndexType != manifest.IndexTypeHash || !parts[string(e.Partition)] {
			continue
		}
		if !want[e.FileName] {
			return fmt.Errorf("HASH index file %s (bucket %d) is live in a replaced partition but is not the last file the staged windows wrote for it", e.FileName, e.Bucket)
		}
		delete(want, e.FileName)
	}
	for name := range want {
		return fmt.Errorf("HASH index file %s of the staged windows is not in the snapshot's index manifest", name)
	}
	return nil
}
