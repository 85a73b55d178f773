package file

import (
	"bufio"
	"fmt"
	"io"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/source"
)

// textStream is where a text split's records are read from: the whole file from its first byte
// (decompressed when compressed), or the split's byte range [ByteStart, ByteEnd) and nothing past it.
type textStream struct {
	r     io.Reader
	line  int64 // 1-based line of the stream's first byte
	close func()
}

// openTextStream positions f for split's records; f must be at offset 0.
func openTextStream(split source.Split, f fileio.File) (textStream, error) {
	if !split.IsRange() {
		r, _, closeFn, err := decompressed(split.Path, bufio.NewReaderSize(f, 1<<16))
		if err != nil {
			return textStream{}, err
		}
		return textStream{r: r, line: 1, close: closeFn}, nil
	}
	if split.ByteStart < 0 || split.ByteEnd < split.ByteStart || split.ByteEnd > split.Size || split.FirstLine < 1 {
		return textStream{}, fmt.Errorf("split %s: bad byte range [%d, %d) (line %d) of a %d-byte file: the plan record is damaged",
			split.Path, split.ByteStart, split.ByteEnd, split.FirstLine, split.Size)
	}
	if split.ByteStart == 0 { // a compressed file is never cut: a range at its start means it changed
		head := make([]byte, magicLen)
		n, _ := io.ReadFull(f, head)
		if kind := compressionOf(head[:n]); kind != "" {
			return textStream{}, fmt.Errorf("file %s is %s-compressed now but was planned as plain text: the file changed since planning", split.Path, kind)
		}
	}
	if _, err := f.Seek(split.ByteStart, io.SeekStart); err != nil {
		return textStream{}, fmt.Errorf("input file %s: %w", split.Path, err)
	}
	return textStream{r: io.LimitReader(f, split.ByteEnd-split.ByteStart), line: split.FirstLine, close: func() {}}, nil
}

// openTextSource returns the row source of a CSV or JSON Lines split over f (at offset 0). A CSV
// range split reads the header from the start of the file first: it names the columns of every split.
func openTextSource(split source.Split, f fileio.File, fields []spec.DataField, opts source.MappingOptions) (rowSource, func(), error) {
	if split.Format == source.FormatCSV && split.IsRange() {
		hdr, err := newCSVSource(split.Path, bufio.NewReaderSize(f, 1<<16), fields, opts)
		if err != nil {
			return nil, nil, err
		}
		in, err := openTextStream(split, f)
		if err != nil {
			return nil, nil, err
		}
		hdr.p = newCSVParserAt(in.r, opts.Limits.RecordBytes(), in.line, opts.CSV)
		return hdr, in.close, nil
	}
	in, err := openTextStream(split, f)
	if err != nil {
		return nil, nil, err
	}
	var src rowSource
	switch split.Format {
	case source.FormatCSV:
		src, err = newCSVSource(split.Path, in.r, fields, opts)
	case source.FormatJSONL:
		var js *jsonlSource
		if js, err = newJSONLSource(split.Path, in.r, fields, opts); err == nil {
			js.line = in.line - 1 // the line read last
			src = js
		}
	default:
		err = fmt.Errorf("split %s: unknown format %q: use parquet, orc, csv or jsonl", split.Path, split.Format)
	}
	if err != nil {
		in.close()
		return nil, nil, err
	}
	return src, in.close, nil
}
