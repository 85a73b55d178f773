package file

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pqfile "github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/source"
)

// Column is one input column of a split, with the type it would get as a new table column.
type Column struct {
	Name string
	// Type is the nullable Paimon type the column would get as a new table column; zero when Why is set.
	Type spec.DataType
	// Why says why no type can be derived (nested or mixed JSON values, an Arrow type without a
	// Paimon equivalent); nil when Type is set.
	Why error
	// Line is the 1-based line where a JSON Lines key first appears; 0 for other formats.
	Line int64
}

// InputColumns is the column list of one split, in input order.
type InputColumns struct {
	Format  string // the split's format: source.FormatParquet, FormatORC, FormatCSV or FormatJSONL
	Columns []Column
	// Arrow is the file's Arrow schema (Parquet only), for source.NewArrowMapping.
	Arrow *arrow.Schema
}

// Names returns the column names in input order.
func (c *InputColumns) Names() []string {
	names := make([]string, len(c.Columns))
	for i, col := range c.Columns {
		names[i] = col.Name
	}
	return names
}

// ReadColumns returns the columns of split: a Parquet file's footer schema, a CSV header (every
// column STRING), or the keys of every JSON Lines row of the split in order of first appearance,
// typed by their values (strings STRING, booleans BOOLEAN, integers BIGINT, other numbers DOUBLE,
// only nulls STRING; mixed kinds and nested values have no type). It opens the file as Open does — fingerprint check,
// footer and header errors naming the file, damaged Parquet naming the byte range and wrapping
// spec.ErrCorrupt. JSON Lines rows that the reader would reject (malformed, not an object) are left
// out here: the reader reports them with their line and value. Errors other than ctx's name the file.
func ReadColumns(ctx context.Context, fs fileio.FileIO, split source.Split) (*InputColumns, error) {
	return ReadColumnsWith(ctx, fs, split, source.CSVDialect{})
}

// ReadColumnsWith is ReadColumns reading CSV files in dialect d. A CSV file without a header
// (d.NoHeader) names no columns of its own: that is an error.
func ReadColumnsWith(ctx context.Context, fs fileio.FileIO, split source.Split, d source.CSVDialect) (*InputColumns, error) {
	if split.Format == source.FormatCSV && d.NoHeader {
		return nil, fmt.Errorf("file %s: a CSV file without a header row (--csv-header=false) names no columns, so no column can be added from it: "+
			"load files with a header, or add the columns to the table first", split.Path)
	}
	info, err := fs.Stat(ctx, split.Path)
	if err != nil {
		return nil, fmt.Errorf("input file %s: %w", split.Path, err)
	}
	if err := split.CheckFingerprint(info); err != nil {
		return nil, err
	}
	f, err := fs.Open(ctx, split.Path)
	if err != nil {
		return nil, fmt.Errorf("input file %s: %w", split.Path, err)
	}
	defer f.Close()
	switch split.Format {
	case source.FormatParquet:
		return parquetColumns(split.Path, f)
	case source.FormatCSV:
		in, err := openTextStream(source.Split{Path: split.Path, Format: split.Format}, f) // the header: the file's start
		if err != nil {
			return nil, err
		}
		defer in.close()
		return csvColumns(split.Path, in.r, d)
	case source.FormatJSONL:
		return jsonlColumns(ctx, split, f)
	case source.FormatORC:
		of, err := openORCFile(split.Path, f, source.Limits{})
		if err != nil {
			return nil, err
		}
		return orcColumns(of), nil
	}
	return nil, fmt.Errorf("split %s: unknown format %q: use parquet, orc, csv or jsonl", split.Path, split.Format)
}

// parquetArrowSchema returns the Arrow reader and schema of an open Parquet file.
func parquetArrowSchema(path string, pf *pqfile.Reader, props pqarrow.ArrowReadProperties, mem memory.Allocator) (*pqarrow.FileReader, *arrow.Schema, error) {
	fr, err := pqarrow.NewFileReader(pf, props, mem)
	if err != nil {
		return nil, nil, fmt.Errorf("file %s: %w", path, err)
	}
	schema, err := fr.Schema()
	if err != nil {
		return nil, nil, fmt.Errorf("file %s: Parquet schema has no Arrow equivalent: %w", path, err)
	}
	return fr, schema, nil
}

func parquetColumns(path string, f fileio.File) (_ *InputColumns, err error) {
	defer recoverFooter(path, f, &err) // the result stays nil on a panic
	pf, err := openFooter(path, f, source.Limits{})
	if err != nil {
		return nil, err
	}
	_, schema, err := parquetArrowSchema(path, pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		return nil, err
	}
	c := &InputColumns{Format: source.FormatParquet, Arrow: schema}
	for _, fd := range schema.Fields() {
		t, why := arrowColumnType(fd.Type, true)
		c.Columns = append(c.Columns, Column{Name: fd.Name, Type: t, Why: why})
	}
	return c, nil
}

// csvColumns reads the header through the CSV reader's own path (BOM, empty file, empty and
// duplicate names): a source mapped onto no table columns, ignoring every input column.
func csvColumns(path string, f io.Reader, d source.CSVDialect) (*InputColumns, error) {
	s, err := newCSVSource(path, f, nil, source.MappingOptions{IgnoreExtra: true, CSV: d})
	if err != nil {
		return nil, err
	}
	c := &InputColumns{Format: source.FormatCSV}
	for _, name := range s.header {
		c.Columns = append(c.Columns, Column{Name: name, Type: stringColumn}) // CSV cells are text
	}
	return c, nil
}

// jsonKinds records the JSON value kinds seen for one key.
type jsonKinds struct{ str, num, frac, boolean, nested bool }

func (k *jsonKinds) add(v any) {
	switch x := v.(type) {
	case nil:
	case string:
		k.str = true
	case bool:
		k.boolean = true
	case []any, *object:
		k.nested = true
	default: // json.Number
		k.num = true
		k.frac = k.frac || strings.ContainsAny(jsonText(x), ".eE")
	}
}

// jsonlColumns reads the rows of split (one per line) through the JSON Lines reader's line and
// object decoding, collecting keys in order of first appearance.
func jsonlColumns(ctx context.Context, split source.Split, f fileio.File) (*InputColumns, error) {
	src, closeStream, err := openTextSource(split, f, nil, source.MappingOptions{})
	if err != nil {
		return nil, err
	}
	defer closeStream()
	s := src.(*jsonlSource)
	c := &InputColumns{Format: source.FormatJSONL}
	kinds := map[string]*jsonKinds{}
	first := int64(0) // the row s reads next
	if split.IsRange() {
		first = split.RowStart
	}
rows:
	for row := first; split.RowCount < 0 || row < split.RowStart+split.RowCount; row++ {
		if row%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		var obj *object
		if row < split.RowStart {
			_, err = s.nextLine() // a row before the split
		} else {
			obj, err = s.object()
		}
		var ve *source.ValueError
		switch {
		case errors.As(err, &ve):
			continue // a row the reader rejects; it reports it with its line and value
		case errors.Is(err, io.EOF):
			break rows
		case err != nil:
			return nil, err
		}
		if obj == nil {
			continue
		}
		for i, k := range obj.keys {
			if kinds[k] == nil {
				kinds[k] = &jsonKinds{}
				c.Columns = append(c.Columns, Column{Name: k, Line: s.line})
			}
			kinds[k].add(obj.vals[i])
		}
	}
	for i := range c.Columns {
		col := &c.Columns[i]
		col.Type, col.Why = jsonColumnType(*kinds[col.Name])
		if col.Why != nil {
			col.Why = fmt.Errorf("%w (first seen on line %d)", col.Why, col.Line)
		}
	}
	return c, nil
}
