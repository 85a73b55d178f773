package compact

import (
	"context"
	"errors"
	"fmt"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
)

// outputs are finished compaction outputs kept for a possible abort. Only the file metadata is
// kept, never the run writer, whose buffers would otherwise stay reachable until the commit.
type outputs struct {
	partition []byte
	bucket    int32
	files     []manifest.DataFileMeta
}

// closeRun finishes w and returns its files; on failure it deletes whatever w wrote.
func closeRun(ctx context.Context, w *write.RunWriter) ([]manifest.DataFileMeta, error) {
	files, err := w.Close(ctx)
	if err != nil {
		if aerr := w.Abort(ctx); aerr != nil {
			return nil, fmt.Errorf("%w (and removing the outputs: %v)", err, aerr)
		}
		return nil, err
	}
	return files, nil
}

// deleteOutputs deletes the data files of outs (already deleted ones are fine).
func deleteOutputs(ctx context.Context, t *table.Table, outs []outputs) error {
	paths := t.NewPaths()
	var errs []error
	for _, o := range outs {
		for _, f := range o.files {
			p, err := paths.DataFile(o.partition, o.bucket, f.FileName, f.ExternalPath)
			if err == nil {
				err = t.Delete(ctx, p)
			}
			if err != nil && !errors.Is(err, fileio.ErrNotExist) {
				errs = append(errs, fmt.Errorf("delete compaction output %s: %w", f.FileName, err))
			}
		}
	}
	return errors.Join(errs...)
}
