package job

import (
	"context"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/job/task"
	"github.com/lakeload/lakeload/source/file"
)

// TestRunTaskForRemoteExecutors: RunTask (what a remote executor's worker runs) refuses a table at
// another schema, skips rows whose ids an earlier window published (row-id mode, built from the
// store), and stands down when its task already has a stored result.
func TestRunTaskForRemoteExecutors(t *testing.T) {
	ctx := context.Background()
	fx := loadtest.Append(81, 2, 20)
	e := newLoadEnv(t, fx, fx.WriteInputs(t, loadtest.TempDir(t)))
	cfg := e.config(20)
	cfg.IDColumn = "id"
	if _, err := Run(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	st := e.state(t)
	pr := planOf(t, st)
	next := st.NextWindow()
	in := TaskInput{Window: next, Attempt: 1, Splits: []task.SplitInWindow{{Index: 0, Split: pr[0], FirstSeq: 1 << 20}}}
	env := TaskEnv{Table: e.tbl, Store: e.store, Source: file.Source{FS: local.New()}}
	b := TaskBatch{Job: cfg.Name, Window: next, Attempt: 1, SchemaID: e.tbl.Schema.ID, SplitTasks: true}

	bad := b
	bad.SchemaID++
	if _, err := RunTask(ctx, env, bad, in); err == nil || !strings.Contains(err.Error(), "schema") {
		t.Fatalf("RunTask at another schema: %v; want an error naming the schemas", err)
	}

	env.IDColumn = "id"
	n, err := RunTask(ctx, env, b, in)
	if err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("row-id mode wrote %d rows whose ids window 1 published; want 0", n)
	}

	in.Task, env.IDColumn = 1, ""
	if n, err = RunTask(ctx, env, b, in); err != nil || n != int64(len(fx.Files[0].Rows)) {
		t.Fatalf("without row-id mode: %d rows, %v; want %d", n, err, len(fx.Files[0].Rows))
	}
	if n, err = RunTask(ctx, env, b, in); err != nil || n != 0 {
		t.Fatalf("second try of a task with a stored result: %d rows, %v; want 0, nil", n, err)
	}
}
