package manifest

import (
	"fmt"
	"io"
)

// WriteIndexManifest writes entries as an index manifest: Java's IndexManifestEntry schema
// without _GLOBAL_INDEX, _VERSION 1, codec zstandard.
func WriteIndexManifest(w io.Writer, entries []IndexManifestEntry) error {
	rows := make([]avroIndexManifestEntry, len(entries))
	for i, e := range entries {
		if err := checkKind(e.Kind); err != nil {
			return fmt.Errorf("index manifest entry %d (%s): %w", i, e.FileName, err)
		}
		if err := checkRow("partition", e.Partition); err != nil {
			return fmt.Errorf("index manifest entry %d (%s): %w", i, e.FileName, err)
		}
		if e.FileName == "" || e.IndexType == "" {
			return fmt.Errorf("index manifest entry %d: empty index file name or type", i)
		}
		var ranges *[]*avroDVMeta
		if e.DeletionVectorRanges != nil {
			rs := make([]*avroDVMeta, len(e.DeletionVectorRanges))
			for j, m := range e.DeletionVectorRanges {
				rs[j] = &avroDVMeta{DataFileName: m.DataFileName, Offset: m.Offset, Length: m.Length, Cardinality: m.Cardinality}
			}
			ranges = &rs
		}
		rows[i] = avroIndexManifestEntry{
			Version:      IndexManifestEntryVersion,
			Kind:         int32(e.Kind),
			Partition:    e.Partition,
			Bucket:       e.Bucket,
			IndexType:    e.IndexType,
			FileName:     e.FileName,
			FileSize:     e.FileSize,
			RowCount:     e.RowCount,
			Ranges:       ranges,
			ExternalPath: e.ExternalPath,
		}
	}
	return writeOCF(w, indexManifestSchema, rows)
}

// ReadIndexManifest reads an index manifest written by Java 0.9 or later, pypaimon, or
// WriteIndexManifest. _CARDINALITY (Java 1.0+) and _EXTERNAL_PATH read as nil when absent; the
// 2.0 _GLOBAL_INDEX field is ignored.
func ReadIndexManifest(r io.Reader) ([]IndexManifestEntry, error) {
	var out []IndexManifestEntry
	grow := func(n int) { out = make([]IndexManifestEntry, 0, n) }
	err := readOCF(r, "index manifest", grow, func(_ int, rec row) error {
		f := &fields{r: rec}
		f.version(IndexManifestEntryVersion)
		e := IndexManifestEntry{
			Kind:         f.kind(),
			Partition:    f.bytes("_PARTITION"),
			Bucket:       f.int("_BUCKET"),
			IndexType:    f.str("_INDEX_TYPE"),
			FileName:     f.str("_FILE_NAME"),
			FileSize:     f.long("_FILE_SIZE"),
			RowCount:     f.long("_ROW_COUNT"),
			ExternalPath: f.optStr("_EXTERNAL_PATH"),
		}
		ranges := f.optRecords("_DELETIONS_VECTORS_RANGES")
		if f.err != nil {
			return f.err
		}
		if ranges != nil {
			e.DeletionVectorRanges = make([]DeletionVectorMeta, len(ranges))
			for j, rr := range ranges {
				g := &fields{r: rr}
				e.DeletionVectorRanges[j] = DeletionVectorMeta{
					DataFileName: g.str("f0"),
					Offset:       g.int("f1"),
					Length:       g.int("f2"),
					Cardinality:  g.optLong("_CARDINALITY"),
				}
				if g.err != nil {
					return g.err
				}
			}
		}
		out = append(out, e)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
