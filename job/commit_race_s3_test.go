package job

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lakeload/lakeload/fileio"
	s3fs "github.com/lakeload/lakeload/fileio/s3"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/internal/s3test"
	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
)

// raceOutcome is what commitRace saw.
type raceOutcome struct {
	committed int // commits that returned success
	lost      int // of those, commits whose (user, identifier) is not in the table
	snapshots int // snapshots in the table
	firstWins []int
}

// commitRace makes racers committers, each with its own S3 client and table handle (as separate
// hosts would have), commit one row per round; in every round all of them build their snapshot
// on the same latest snapshot and wait for each other right before creating snapshot-N
// (Options.BeforeSnapshot, first try only), so they race for the same snapshot number. omit
// strips If-None-Match from the snapshot's create (fileio/s3 Options.OmitIfNoneMatch: HEAD, then a
// plain PUT — what a check-then-put committer does).
func commitRace(t *testing.T, srv s3test.Server, prefix string, racers, rounds int, omit bool) raceOutcome {
	t.Helper()
	ctx := context.Background()
	s := concStorage{name: "s3", root: srv.URI(prefix),
		newFS: func(t testing.TB) fileio.FileIO {
			return newS3FS(t, srv, func(o *s3fs.Options) { o.OmitIfNoneMatch = omit })
		}}
	createConcTable(t, s)
	tables := make([]*table.Table, racers)
	for i := range tables {
		tables[i] = openConcTable(t, s)
	}
	var out raceOutcome
	var mu sync.Mutex
	for round := 1; round <= rounds; round++ {
		b := newBarrier(racers)
		retries := make([]int, racers)
		var wg sync.WaitGroup
		for i, tbl := range tables {
			wg.Add(1)
			go func() {
				defer wg.Done()
				w, err := write.New(ctx, tbl, write.Options{})
				if err != nil {
					t.Error(err)
					return
				}
				if err := w.WriteRow(ctx, []any{"p", int64(round*100 + i), fmt.Sprintf("racer-%d", i)}, spec.RowKindInsert); err != nil {
					t.Error(err)
					return
				}
				msgs, err := w.Prepare(ctx)
				if err != nil {
					t.Error(err)
					return
				}
				first := true
				res, err := commit.Commit(ctx, tbl, msgs, commit.Options{
					User: fmt.Sprintf("racer-%d", i), Identifier: int64(round), Kind: spec.CommitKindAppend, LookupAfter: -1,
					BeforeSnapshot: func(int64) error {
						if first {
							first = false
							if !b.wait(hangGuard) {
								return fmt.Errorf("round %d: the other racers did not arrive", round)
							}
						}
						return nil
					},
				})
				if err != nil {
					t.Errorf("racer %d round %d: %v", i, round, err)
					return
				}
				mu.Lock()
				out.committed++
				retries[i] = res.Retries
				mu.Unlock()
			}()
		}
		wg.Wait()
		wins := 0
		for _, r := range retries {
			if r == 0 {
				wins++
			}
		}
		out.firstWins = append(out.firstWins, wins)
	}
	tbl := openConcTable(t, s)
	ids, err := tbl.Snapshots().IDs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out.snapshots = len(ids)
	for round := 1; round <= rounds; round++ {
		for i := range racers {
			found, err := tbl.Snapshots().FindCommits(ctx, table.CommitQuery{User: fmt.Sprintf("racer-%d", i), Identifier: int64(round), Kind: spec.CommitKindAppend}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(found) == 0 {
				out.lost++
			}
		}
	}
	return out
}

// TestCommitRaceS3 (issue 4, item 6c): three lakeload committers race for the same snapshot number
// on S3 in each of 8 rounds. With the conditional create (If-None-Match: *) exactly one of them
// wins each round at its first try, the others lose with 412, re-plan and land as the next
// snapshots: every commit is in the table, 24 snapshots in all. The negative control runs the same
// race with the condition stripped (check-then-put): several racers then "create" the same
// snapshot-N, each believes it committed, and the test must find commits missing from the table.
func TestCommitRaceS3(t *testing.T) {
	srv := s3test.Start(t)
	const racers, rounds = 3, 8
	t.Run("if-none-match", func(t *testing.T) {
		out := commitRace(t, srv, "race-cond", racers, rounds, false)
		if out.committed != racers*rounds || out.lost != 0 || out.snapshots != racers*rounds {
			t.Errorf("committed %d, lost %d, snapshots %d; want %d, 0, %d", out.committed, out.lost, out.snapshots, racers*rounds, racers*rounds)
		}
		for r, w := range out.firstWins {
			if w != 1 {
				t.Errorf("round %d: %d racers won at their first try, want exactly 1", r+1, w)
			}
		}
	})
	t.Run("negative-control-check-then-put", func(t *testing.T) {
		out := commitRace(t, srv, "race-omit", racers, rounds, true)
		t.Logf("without If-None-Match: %d commits reported success, %d of them are not in the table (%d snapshots); first-try winners per round %v",
			out.committed, out.lost, out.snapshots, out.firstWins)
		if out.lost == 0 {
			t.Errorf("the check-then-put race lost no commit in %d rounds: the race test cannot tell a broken create from a conditional one", rounds)
		}
	})
}

// TestJobDetectsLostCommitS3 shows what the job's check after committing (job/window.go,
// commitWindow: FindCommits must return exactly one marker of (commit user, window) before
// `committed` and `published` are written) does against a store without conditional create: two
// jobs race every window's snapshot with If-None-Match stripped; a job whose snapshot was
// overwritten before that check stops with an error instead of publishing, and a later run of the
// same command recommits the window. It runs until a job has stopped that way (at most 6 rounds).
func TestJobDetectsLostCommitS3(t *testing.T) {
	srv := s3test.Start(t)
	for round := 1; round <= 6; round++ {
		s := concStorage{name: "s3", root: srv.URI(fmt.Sprintf("lost-%d", round)),
			newFS: func(t testing.TB) fileio.FileIO {
				return newS3FS(t, srv, func(o *s3fs.Options) { o.OmitIfNoneMatch = true })
			}}
		createConcTable(t, s)
		fa, fb := concFiles("p-a", "a", 2, 20), concFiles("p-b", "b", 2, 20)
		a, b := concJob(t, s, "job-a", writeConcInput(t, fa)), concJob(t, s, "job-b", writeConcInput(t, fb))
		bars := [3]*barrier{newBarrier(2), newBarrier(2), newBarrier(2)}
		for _, cfg := range []*Config{&a, &b} {
			first := map[int64]bool{}
			cfg.Hook = func(p string, w int64) error {
				if p == PointInsideCommit && !first[w] {
					first[w] = true
					bars[w].wait(2 * time.Second) // the other job may have stopped already
				}
				return nil
			}
		}
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i, cfg := range []Config{a, b} {
			wg.Add(1)
			go func() { defer wg.Done(); _, errs[i] = Run(context.Background(), cfg) }()
		}
		wg.Wait()
		detected := false
		for _, err := range errs {
			if err != nil {
				if !containsAll(err.Error(), "0 snapshots with commit user", "after committing") {
					t.Fatalf("round %d: unexpected error: %v", round, err)
				}
				detected = true
			}
		}
		if !detected {
			t.Logf("round %d: no commit was overwritten before its check; racing again", round)
			continue
		}
		// The same command again, now alone: recovery recommits the lost window and finishes.
		for i, cfg := range []Config{a, b} {
			if errs[i] == nil {
				continue
			}
			cfg.Hook = nil
			cfg.Table = openConcTable(t, s)
			if _, err := Run(context.Background(), cfg); err != nil {
				t.Fatalf("round %d: rerun of %s: %v", round, cfg.Name, err)
			}
		}
		t.Logf("round %d: %v", round, errs)
		checkJobMarkers(t, a, 2)
		checkJobMarkers(t, b, 2)
		if d := loadtest.Diff(concModel(t, fa[0], fa[1], fb[0], fb[1]), loadtest.Lines(t, openConcTable(t, s))); d != "" {
			t.Errorf("after the rerun the table differs from both inputs:%s", d)
		}
		return
	}
	t.Fatal("no job detected a lost commit in 6 rounds of check-then-put races")
}

func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
