package manifest

import (
	"fmt"
	"io"
)

// WriteManifestList writes metas as a manifest list: Java's ManifestFileMeta schema, _VERSION 2,
// codec zstandard.
func WriteManifestList(w io.Writer, metas []ManifestFileMeta) error {
	rows := make([]avroManifestFileMeta, len(metas))
	for i, m := range metas {
		if m.FileName == "" {
			return fmt.Errorf("manifest list entry %d: empty manifest file name", i)
		}
		if err := checkStats("partition stats", m.PartitionStats); err != nil {
			return fmt.Errorf("manifest list entry %d (%s): %w", i, m.FileName, err)
		}
		rows[i] = avroManifestFileMeta{
			Version:         ManifestFileMetaVersion,
			FileName:        m.FileName,
			FileSize:        m.FileSize,
			NumAddedFiles:   m.NumAddedFiles,
			NumDeletedFiles: m.NumDeletedFiles,
			PartitionStats:  toAvroStats(m.PartitionStats),
			SchemaID:        m.SchemaID,
			MinBucket:       m.MinBucket,
			MaxBucket:       m.MaxBucket,
			MinLevel:        m.MinLevel,
			MaxLevel:        m.MaxLevel,
			MinRowID:        m.MinRowID,
			MaxRowID:        m.MaxRowID,
		}
	}
	return writeOCF(w, manifestListSchema, rows)
}

// ReadManifestList reads a manifest list written by Java 0.9 or later, pypaimon, or
// WriteManifestList. Fields added after 0.9 (min/max bucket, level, row id) read as nil when absent.
func ReadManifestList(r io.Reader) ([]ManifestFileMeta, error) {
	var out []ManifestFileMeta
	grow := func(n int) { out = make([]ManifestFileMeta, 0, n) }
	err := readOCF(r, "manifest list", grow, func(_ int, rec row) error {
		f := &fields{r: rec}
		f.version(ManifestFileMetaVersion)
		m := ManifestFileMeta{
			FileName:        f.str("_FILE_NAME"),
			FileSize:        f.long("_FILE_SIZE"),
			NumAddedFiles:   f.long("_NUM_ADDED_FILES"),
			NumDeletedFiles: f.long("_NUM_DELETED_FILES"),
			PartitionStats:  f.stats("_PARTITION_STATS"),
			SchemaID:        f.long("_SCHEMA_ID"),
			MinBucket:       f.optInt("_MIN_BUCKET"),
			MaxBucket:       f.optInt("_MAX_BUCKET"),
			MinLevel:        f.optInt("_MIN_LEVEL"),
			MaxLevel:        f.optInt("_MAX_LEVEL"),
			MinRowID:        f.optLong("_MIN_ROW_ID"),
			MaxRowID:        f.optLong("_MAX_ROW_ID"),
		}
		if f.err != nil {
			return f.err
		}
		out = append(out, m)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
