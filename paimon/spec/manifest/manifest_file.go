package manifest

import (
	"fmt"
	"io"
)

// WriteManifest writes entries as a manifest file: Java's ManifestEntry schema with all 20
// DataFileMeta fields, _VERSION 2, codec zstandard. It rejects unknown kinds and partition, key or
// stats rows too short for their arity.
func WriteManifest(w io.Writer, entries []ManifestEntry) error {
	rows := make([]avroManifestEntry, len(entries))
	for i, e := range entries {
		if err := checkEntry(e); err != nil {
			return fmt.Errorf("manifest entry %d (%s): %w", i, e.File.FileName, err)
		}
		f := e.File
		ct := f.CreationTimeMillis
		extra := f.ExtraFiles
		if extra == nil {
			extra = []string{}
		}
		rows[i] = avroManifestEntry{
			Version:      ManifestEntryVersion,
			Kind:         int32(e.Kind),
			Partition:    e.Partition,
			Bucket:       e.Bucket,
			TotalBuckets: e.TotalBuckets,
			File: avroDataFile{
				FileName:          f.FileName,
				FileSize:          f.FileSize,
				RowCount:          f.RowCount,
				MinKey:            f.MinKey,
				MaxKey:            f.MaxKey,
				KeyStats:          toAvroStats(f.KeyStats),
				ValueStats:        toAvroStats(f.ValueStats),
				MinSequenceNumber: f.MinSequenceNumber,
				MaxSequenceNumber: f.MaxSequenceNumber,
				SchemaID:          f.SchemaID,
				Level:             f.Level,
				ExtraFiles:        extra,
				CreationTime:      &ct,
				DeleteRowCount:    f.DeleteRowCount,
				EmbeddedIndex:     nullableList(f.EmbeddedIndex),
				FileSource:        f.FileSource,
				ValueStatsCols:    nullableList(f.ValueStatsCols),
				ExternalPath:      f.ExternalPath,
				FirstRowID:        f.FirstRowID,
				WriteCols:         nullableList(f.WriteCols),
			},
		}
	}
	return writeOCF(w, manifestSchema, rows)
}

func checkEntry(e ManifestEntry) error {
	if err := checkKind(e.Kind); err != nil {
		return err
	}
	if e.File.FileName == "" {
		return fmt.Errorf("manifest: empty data file name")
	}
	for _, c := range []struct {
		what string
		b    []byte
	}{{"partition", e.Partition}, {"min key", e.File.MinKey}, {"max key", e.File.MaxKey}} {
		if err := checkRow(c.what, c.b); err != nil {
			return err
		}
	}
	if err := checkStats("key stats", e.File.KeyStats); err != nil {
		return err
	}
	return checkStats("value stats", e.File.ValueStats)
}

// ReadManifest reads a manifest file written by Java 0.9 or later, pypaimon, or WriteManifest.
// Fields are looked up by name; optional fields absent from older files read as null.
func ReadManifest(r io.Reader) ([]ManifestEntry, error) {
	var out []ManifestEntry
	grow := func(n int) { out = make([]ManifestEntry, 0, n) }
	err := readOCF(r, "manifest", grow, func(_ int, rec row) error {
		e, err := decodeManifestEntry(rec)
		if err != nil {
			return err
		}
		out = append(out, e)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func decodeManifestEntry(rec row) (ManifestEntry, error) {
	f := &fields{r: rec}
	f.version(ManifestEntryVersion)
	e := ManifestEntry{
		Kind:         f.kind(),
		Partition:    f.bytes("_PARTITION"),
		Bucket:       f.int("_BUCKET"),
		TotalBuckets: f.int("_TOTAL_BUCKETS"),
	}
	if f.err != nil {
		return ManifestEntry{}, f.err
	}
	d := &fields{r: f.record("_FILE")}
	if f.err != nil {
		return ManifestEntry{}, f.err
	}
	e.File = DataFileMeta{
		FileName:          d.str("_FILE_NAME"),
		FileSize:          d.long("_FILE_SIZE"),
		RowCount:          d.long("_ROW_COUNT"),
		MinKey:            d.bytes("_MIN_KEY"),
		MaxKey:            d.bytes("_MAX_KEY"),
		KeyStats:          d.stats("_KEY_STATS"),
		ValueStats:        d.stats("_VALUE_STATS"),
		MinSequenceNumber: d.long("_MIN_SEQUENCE_NUMBER"),
		MaxSequenceNumber: d.long("_MAX_SEQUENCE_NUMBER"),
		SchemaID:          d.long("_SCHEMA_ID"),
		Level:             d.int("_LEVEL"),
		ExtraFiles:        d.optStrings("_EXTRA_FILES"),
		DeleteRowCount:    d.optLong("_DELETE_ROW_COUNT"),
		EmbeddedIndex:     d.optBytes("_EMBEDDED_FILE_INDEX"),
		FileSource:        d.optInt("_FILE_SOURCE"),
		ValueStatsCols:    d.optStrings("_VALUE_STATS_COLS"),
		ExternalPath:      d.optStr("_EXTERNAL_PATH"),
		FirstRowID:        d.optLong("_FIRST_ROW_ID"),
		WriteCols:         d.optStrings("_WRITE_COLS"),
	}
	if ct := d.optLong("_CREATION_TIME"); ct != nil {
		e.File.CreationTimeMillis = *ct
	}
	if e.File.ExtraFiles == nil {
		e.File.ExtraFiles = []string{}
	}
	if d.err != nil {
		return ManifestEntry{}, d.err
	}
	return e, nil
}
