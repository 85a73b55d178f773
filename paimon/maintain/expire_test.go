package maintain

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/errorfs"
)

// twelve returns a fixture with 12 one-row snapshots committed a minute apart.
func twelve(t *testing.T) *fixture {
	f := newFixture(t, nil)
	for i := int64(1); i <= 12; i++ {
		f.commit(t, i, i+1, "a", false)
	}
	return f
}

func ids(from, to int64) []int64 {
	var out []int64
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

func readHint(t *testing.T, f *fixture) string {
	b, err := f.fs.ReadFile(context.Background(), tablePath+"/snapshot/EARLIEST")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// assertNoOrphans checks that expiry left no file that no snapshot references.
func assertNoOrphans(t *testing.T, f *fixture) {
	t.Helper()
	res, err := CleanOrphans(context.Background(), openOn(t, f.fs), time.Now().Add(time.Hour), true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 0 {
		t.Fatalf("expiry left unreferenced files: %+v", res.Files)
	}
}

func TestExpireRangeFollowsJava(t *testing.T) {
	old := t0.Add(24 * time.Hour) // every snapshot is older than 1 h
	cases := []struct {
		name     string
		o        ExpireOptions
		consumer string // consumer file content; "" = none
		keepFrom int64  // the earliest snapshot after expiry
	}{
		{"defaults keep 10", ExpireOptions{RetainMin: 10, RetainMax: maxRetain, TimeRetained: time.Hour, MaxDeletes: 50, Now: fixed(old)}, "", 3},
		// olderThan = snapshot 5's time exactly: Java keeps a snapshot whose time is >= the bound.
		{"time-retained stops at the first young snapshot", ExpireOptions{RetainMin: 1, RetainMax: maxRetain, TimeRetained: time.Hour, MaxDeletes: 50, Now: fixed(snapTime(5).Add(time.Hour))}, "", 5},
		{"retain-max expires young snapshots", ExpireOptions{RetainMin: 1, RetainMax: 3, TimeRetained: time.Hour, MaxDeletes: 50, Now: fixed(t0)}, "", 10},
		{"expire limit", ExpireOptions{RetainMin: 1, RetainMax: maxRetain, TimeRetained: time.Hour, MaxDeletes: 4, Now: fixed(old)}, "", 5},
		{"consumer pins", ExpireOptions{RetainMin: 1, RetainMax: maxRetain, TimeRetained: time.Hour, MaxDeletes: 50, Now: fixed(old)}, `{"nextSnapshot":7}`, 7},
		{"consumer pins against retain-max", ExpireOptions{RetainMin: 1, RetainMax: 2, TimeRetained: time.Hour, MaxDeletes: 50, Now: fixed(old)}, `{"nextSnapshot":4}`, 4},
		{"changelog-only consumer does not pin", ExpireOptions{RetainMin: 1, RetainMax: maxRetain, TimeRetained: time.Hour, MaxDeletes: 50, IgnoreConsumers: true, Now: fixed(old)}, `{"nextSnapshot":7}`, 12},
		{"retain-min wins over time", ExpireOptions{RetainMin: 12, RetainMax: maxRetain, TimeRetained: 0, MaxDeletes: 50, Now: fixed(old)}, "", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := twelve(t)
			ctx := context.Background()
			if c.consumer != "" {
				if err := fileio.WriteFile(ctx, f.fs, tablePath+"/consumer/consumer-job", []byte(c.consumer)); err != nil {
					t.Fatal(err)
				}
			}
			res, err := Expire(ctx, f.tbl, c.o)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Expired, ids(1, c.keepFrom)) || res.End != c.keepFrom {
				t.Fatalf("expired %v (end %d), want %v", res.Expired, res.End, ids(1, c.keepFrom))
			}
			f.checkSnapshots(t, f.tbl, c.keepFrom, 12)
			if h := readHint(t, f); h != strconv.FormatInt(c.keepFrom, 10) {
				t.Fatalf("EARLIEST %q, want %d", h, c.keepFrom)
			}
			assertNoOrphans(t, f)
			if c.o.MaxDeletes < 50 {
				return // a limited run leaves more to expire
			}
			again, err := Expire(ctx, f.tbl, c.o)
			if err != nil || len(again.Expired) != 0 || len(again.Files) != 0 {
				t.Fatalf("second run: %+v, %v; want nothing to do", again, err)
			}
		})
	}
}

func TestExpireDeletesAbandonedConsumer(t *testing.T) {
	f := twelve(t)
	ctx := context.Background()
	path := tablePath + "/consumer/consumer-gone"
	if err := fileio.WriteFile(ctx, f.fs, path, []byte(`{"nextSnapshot":2}`)); err != nil {
		t.Fatal(err)
	}
	o := ExpireOptions{RetainMin: 1, RetainMax: maxRetain, TimeRetained: time.Hour, MaxDeletes: 50, ConsumerExpiration: time.Hour}
	// The consumer file was written just now: an hour later it is abandoned.
	o.Now = fixed(time.Now().Add(-time.Minute))
	res, err := Expire(ctx, f.tbl, o)
	if err != nil || len(res.Expired) != 1 || len(res.Consumers) != 0 {
		t.Fatalf("fresh consumer: %+v, %v; want it to pin at 2", res, err)
	}
	o.Now = fixed(time.Now().Add(2 * time.Hour))
	res, err = Expire(ctx, f.tbl, o)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Consumers, []string{"gone"}) || !slices.Equal(res.Expired, ids(2, 12)) {
		t.Fatalf("consumers %v expired %v, want [gone] and 2..11", res.Consumers, res.Expired)
	}
	if ok, _ := fileio.Exists(ctx, f.fs, path); ok {
		t.Fatal("expired consumer file still exists")
	}
	f.checkSnapshots(t, f.tbl, 12, 12)
}

// history: 1 adds A (p=a), 2 adds B (p=b), 3 overwrites the table with C, 4 adds D, 5 adds E, 6 adds F.
func history(t *testing.T, f *fixture) {
	f.commit(t, 0, 4, "a", false)
	f.commit(t, 10, 14, "b", false)
	f.commit(t, 20, 24, "a", true)
	f.commit(t, 30, 34, "b", false)
	f.commit(t, 40, 44, "a", false)
	f.commit(t, 50, 51, "b", false)
}

var keep3 = ExpireOptions{RetainMin: 3, RetainMax: maxRetain, TimeRetained: time.Hour, MaxDeletes: 50, Now: fixed(t0.Add(24 * time.Hour))}

func TestExpireDeletesFilesDeletedByLaterSnapshots(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	history(t, f)
	before := dataFiles(t, f.fs)
	if len(before) != 6 {
		t.Fatalf("data files %v, want 6", before)
	}
	res, err := Expire(ctx, f.tbl, keep3)
	if err != nil {
		t.Fatal(err)
	}
	f.checkSnapshots(t, f.tbl, 4, 6)
	after := dataFiles(t, f.fs)
	// A and B (the first two files written) were DELETEd by snapshot 3's overwrite: gone; C..F stay.
	live := referenced(t, f.tbl, getSnapshot(t, f.tbl, 4), getSnapshot(t, f.tbl, 5), getSnapshot(t, f.tbl, 6))
	var gone []string
	for _, p := range before {
		if !slices.Contains(after, p) {
			gone = append(gone, p)
		}
	}
	if len(after) != 4 || len(gone) != 2 {
		t.Fatalf("data files after expiry %v, deleted %v: want C, D, E, F kept and A, B deleted", after, gone)
	}
	for _, p := range files(t, f.fs) {
		if strings.HasPrefix(p, "schema/") || strings.HasPrefix(p, "snapshot/") {
			continue
		}
		if !live[p] {
			t.Errorf("%s is on disk but no retained snapshot references it", p)
		}
	}
	var kinds []string
	for _, d := range res.Files {
		if !slices.Contains(kinds, d.Kind) {
			kinds = append(kinds, d.Kind)
		}
	}
	if !slices.Equal(kinds, []string{KindData, KindManifestList, KindSnapshot}) {
		t.Errorf("deletion order by kind %v, want data, manifest-list, snapshot", kinds)
	}
	assertNoOrphans(t, f)
}

func TestExpireKeepsFilesOfTags(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	history(t, f)
	tag, err := f.fs.ReadFile(ctx, f.tbl.Snapshots().Path(1))
	if err != nil {
		t.Fatal(err)
	}
	// A Java tag file is the snapshot JSON plus tag fields.
	tag = []byte(strings.Replace(string(tag), "{", `{"tagCreateTime":[2026,1,1,0,0],"tagTimeRetained":null,`, 1))
	if err := fileio.WriteFile(ctx, f.fs, tablePath+"/tag/tag-first", tag); err != nil {
		t.Fatal(err)
	}
	before := dataFiles(t, f.fs)
	if _, err := Expire(ctx, f.tbl, keep3); err != nil {
		t.Fatal(err)
	}
	f.checkSnapshots(t, f.tbl, 4, 6)
	tags, err := taggedSnapshots(ctx, f.tbl)
	if err != nil || len(tags) != 1 {
		t.Fatalf("tags %v, %v", tags, err)
	}
	// The tag still reads completely: its manifests and its file A exist; B (not tagged) is gone.
	entries, err := snapshotEntries(ctx, f.tbl, tags[0])
	if err != nil {
		t.Fatalf("tagged snapshot's metadata was deleted: %v", err)
	}
	after := dataFiles(t, f.fs)
	for _, e := range entries {
		p, _ := f.tbl.NewPaths().DataFile(e.Partition, e.Bucket, e.File.FileName, nil)
		if ok, _ := fileio.Exists(ctx, f.fs, p); !ok {
			t.Fatalf("tagged data file %s deleted", p)
		}
	}
	if len(before)-len(after) != 1 {
		t.Fatalf("deleted %d data files, want 1 (B)", len(before)-len(after))
	}
	assertNoOrphans(t, f) // the tag references everything left
}

func TestExpireDryRunChangesNothing(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	history(t, f)
	before := files(t, f.fs)
	o := keep3
	o.DryRun = true
	dry, err := Expire(ctx, f.tbl, o)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(files(t, f.fs), before) {
		t.Fatal("dry run changed the table")
	}
	real, err := Expire(ctx, f.tbl, keep3)
	if err != nil {
		t.Fatal(err)
	}
	if len(dry.Files) == 0 || !slices.Equal(dry.Files, real.Files) || !slices.Equal(dry.Expired, real.Expired) {
		t.Fatalf("dry run reported %+v, the real run did %+v", dry, real)
	}
	for _, d := range real.Files {
		if ok, _ := fileio.Exists(ctx, f.fs, d.Path); ok {
			t.Errorf("reported deleted %s still exists", d.Path)
		}
	}
}

// TestExpireCrashAtEveryDelete fails the k-th delete of an expiry (not performed, or performed with a
// lost reply) for every k: the snapshot ids stay contiguous, the retained snapshots (4..6) stay
// readable, and a second run finishes the expiry without leaving unreferenced files. Snapshots of
// the range being expired may have lost files already, as with Java (files go before snapshot files).
func TestExpireCrashAtEveryDelete(t *testing.T) {
	ref := newFixture(t, nil)
	history(t, ref)
	clean, err := Expire(context.Background(), ref.tbl, keep3)
	if err != nil {
		t.Fatal(err)
	}
	n := len(clean.Files)
	for _, mode := range []errorfs.Mode{errorfs.ModeError, errorfs.ModeLanded} {
		for k := 1; k <= n; k++ {
			f := newFixture(t, nil)
			history(t, f)
			deletes := 0
			efs := errorfs.Wrap(f.fs, errorfs.InjectorFunc(func(op errorfs.Op) bool {
				if op.Kind != errorfs.OpDelete {
					return false
				}
				deletes++
				return deletes == k
			}), mode)
			ctx := context.Background()
			if _, err := Expire(ctx, openOn(t, efs), keep3); !errors.Is(err, errorfs.ErrInjected) {
				t.Fatalf("%v at delete %d: %v, want the injected error", mode, k, err)
			}
			left, err := f.tbl.Snapshots().IDs(ctx)
			if err != nil || len(left) == 0 || left[len(left)-1] != 6 || left[0] > 4 {
				t.Fatalf("%v at delete %d: snapshots %v, %v", mode, k, left, err)
			}
			for id := left[0]; id <= 6; id++ {
				if int(id-left[0]) >= len(left) || id != left[id-left[0]] {
					t.Fatalf("%v at delete %d: snapshot ids %v not contiguous", mode, k, left)
				}
				if got, err := readLines(f.tbl, id); id >= 4 && (err != nil || !slices.Equal(got, f.rows[id])) {
					t.Fatalf("%v at delete %d: retained snapshot %d: %v, %v", mode, k, id, got, err)
				}
			}
			if _, err := Expire(ctx, f.tbl, keep3); err != nil {
				t.Fatalf("%v at delete %d: second run: %v", mode, k, err)
			}
			f.checkSnapshots(t, f.tbl, 4, 6)
			assertNoOrphans(t, f)
		}
	}
}

func TestExpireWritesEarliestHintWhenNothingExpires(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	f.commit(t, 0, 1, "a", false)
	f.commit(t, 1, 2, "a", false)
	if err := f.fs.Delete(ctx, tablePath+"/snapshot/EARLIEST"); err != nil {
		t.Fatal(err)
	}
	res, err := Expire(ctx, f.tbl, keep3)
	if err != nil || len(res.Expired) != 0 {
		t.Fatalf("%+v, %v", res, err)
	}
	if h := readHint(t, f); h != "1" {
		t.Fatalf("EARLIEST %q, want 1", h)
	}
}

func TestExpireOptions(t *testing.T) {
	f := newFixture(t, map[string]string{"snapshot.num-retained.min": "2", "snapshot.time-retained": "30 min",
		"snapshot.expire.limit": "7", "consumer.expiration-time": "1 d"})
	o, err := ExpireOptionsOf(f.tbl)
	if err != nil {
		t.Fatal(err)
	}
	want := ExpireOptions{RetainMin: 2, RetainMax: maxRetain, TimeRetained: 30 * time.Minute, MaxDeletes: 7, ConsumerExpiration: 24 * time.Hour}
	if o.RetainMin != want.RetainMin || o.RetainMax != want.RetainMax || o.TimeRetained != want.TimeRetained ||
		o.MaxDeletes != want.MaxDeletes || o.ConsumerExpiration != want.ConsumerExpiration || o.IgnoreConsumers {
		t.Fatalf("options %+v, want %+v", o, want)
	}
	bad := newFixture(t, map[string]string{"snapshot.expire.limit": "many"})
	if _, err := ExpireOptionsOf(bad.tbl); err == nil || !strings.Contains(err.Error(), "snapshot.expire.limit") {
		t.Fatalf("malformed limit: %v", err)
	}
	for _, c := range []struct {
		opts map[string]string
		o    ExpireOptions
		want string
	}{
		{nil, ExpireOptions{RetainMin: 0, RetainMax: 5, MaxDeletes: 1}, "num-retained.min"},
		{nil, ExpireOptions{RetainMin: 5, RetainMax: 4, MaxDeletes: 1}, "num-retained.max"},
		{nil, ExpireOptions{RetainMin: 1, RetainMax: 4, MaxDeletes: 0}, "expire.limit"},
		{map[string]string{"changelog.num-retained.max": "100"}, ExpireOptions{RetainMin: 1, RetainMax: 4, MaxDeletes: 1}, "changelog"},
	} {
		f := newFixture(t, c.opts)
		f.commit(t, 0, 1, "a", false)
		if _, err := Expire(context.Background(), f.tbl, c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error naming %s", c.o, err, c.want)
		}
	}
}
