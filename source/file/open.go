package file

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/source"
)

// Open returns a Reader over split, converting rows to table's columns per opts. It fails when the
// file's size or modification time differ from the split's fingerprint (the size is checked again on
// the opened file, so a file replaced after the check is refused too), and (before any row is
// read) when the columns cannot be mapped: see source.MapColumns and source.NewArrowMapping.
func Open(ctx context.Context, fs fileio.FileIO, split source.Split, table *spec.TableSchema, opts source.MappingOptions) (source.Reader, error) {
	info, err := fs.Stat(ctx, split.Path)
	if err != nil {
		return nil, fmt.Errorf("input file %s: %w", split.Path, err)
	}
	if err := split.CheckFingerprint(info); err != nil {
		return nil, err
	}
	if err := checkRegular(split.Path, opts.Limits); err != nil {
		return nil, err
	}
	if split.RowStart < 0 {
		return nil, fmt.Errorf("split %s: negative RowStart %d", split.Path, split.RowStart)
	}
	schema, err := source.ArrowSchema(table.Fields)
	if err != nil {
		return nil, err
	}
	f, err := fs.Open(ctx, split.Path)
	if err != nil {
		return nil, fmt.Errorf("input file %s: %w", split.Path, err)
	}
	if split.ModTimeUnixNano != 0 && f.Size() != split.Size {
		// Replaced between the Stat above and the Open: a byte range of the new file need not start on a
		// record boundary, so reading it could shift every record of the split.
		_ = f.Close()
		return nil, fmt.Errorf("input file %s changed since it was planned (size %d→%d when opened): restore the original file or start a new job",
			split.Path, split.Size, f.Size())
	}
	mem := memory.DefaultAllocator
	if split.Format == source.FormatParquet {
		r, err := openParquet(ctx, split, f, table.Fields, opts, mem)
		if err != nil {
			_ = f.Close()
			return nil, err
		}
		return r, nil
	}
	if split.Format == source.FormatORC {
		r, err := openORC(split, f, table.Fields, opts, mem)
		if err != nil {
			_ = f.Close()
			return nil, err
		}
		return r, nil
	}
	src, closeStream, err := openTextSource(split, f, table.Fields, opts)
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	closer := closerFunc(func() error { closeStream(); return f.Close() })
	r, err := newTextReader(split, closer, src, newRowSink(mem, schema, opts.OpColumn != ""), opts.SkipBadRows)
	if err != nil {
		_ = closer.Close()
		return nil, err
	}
	return r, nil
}

// closerFunc is an io.Closer.
type closerFunc func() error

func (c closerFunc) Close() error { return c() }
