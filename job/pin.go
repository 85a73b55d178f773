package job

import (
	"context"
	"fmt"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/table"
)

// consumerID is the Paimon consumer a job keeps so that snapshot expiry (which never passes the
// earliest consumer) cannot remove a window's marker snapshot before the job recorded it.
func consumerID(job string) string { return "lakeload-" + job }

// pin sets the job's consumer to next (Paimon consumer file: {"nextSnapshot": N}).
func pin(ctx context.Context, t *table.Table, job string, next int64) error {
	path := fileio.Join(t.Path, "consumer", "consumer-"+consumerID(job))
	return fileio.WriteFile(ctx, t.FS, path, fmt.Appendf(nil, `{"nextSnapshot":%d}`, next))
}

// unpin deletes the job's consumer.
func unpin(ctx context.Context, t *table.Table, job string) error {
	return t.FS.Delete(ctx, fileio.Join(t.Path, "consumer", "consumer-"+consumerID(job)))
}
