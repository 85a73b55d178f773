package checkpoint

import (
	"errors"
	"strings"
	"testing"
)

// TestCheckTable: a job is bound to the identity of the table it was created for. Another identity at
// the job's path (the table dropped and created again) is refused by CheckTable and by Compatible
// with ErrTableReplaced (also ErrStop), naming the job, both identities and what to do; the same
// identity passes, and a job that recorded none (created by an older lakeload) is not checked.
func TestCheckTable(t *testing.T) {
	j := testJob()
	must(t, j.CheckTable(j.TableUUID))
	run := testJob()
	run.TableUUID = "u-2"
	for what, err := range map[string]error{"CheckTable": j.CheckTable("u-2"), "Compatible": j.Compatible(run)} {
		if !errors.Is(err, ErrTableReplaced) || !errors.Is(err, ErrStop) {
			t.Fatalf("%s with another table uuid: got %v, want ErrTableReplaced (and ErrStop)", what, err)
		}
		for _, w := range []string{"job job-1", j.TablePath, `"u-1"`, `"u-2"`, "lakeload job forget --job job-1", "another --job"} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q does not mention %q", what, err, w)
			}
		}
	}
	if errors.Is(ErrStop, ErrTableReplaced) {
		t.Error("every Stop matches ErrTableReplaced")
	}
	legacy := testJob()
	legacy.TableUUID = ""
	must(t, legacy.CheckTable("u-2"))
	must(t, legacy.Compatible(run))
	// The table check comes after the path check: a store of another table names the path.
	other := run
	other.TablePath = "/wh/db.db/other"
	if err := j.Compatible(other); errors.Is(err, ErrTableReplaced) || err == nil || !strings.Contains(err.Error(), "table path") {
		t.Errorf("store of another table: %v", err)
	}
}
