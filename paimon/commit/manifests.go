package commit

import (
	"bytes"
	"context"
	"fmt"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/binrow"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// manifestIO writes the manifests and manifest lists of one table (reading them is paimon/table's).
type manifestIO struct {
	t     *table.Table
	paths *table.Paths
}

func (m manifestIO) path(name string) string { return fileio.Join(m.paths.ManifestDir(), name) }

// writeManifest writes entries as one manifest file and returns its list record.
func (m manifestIO) writeManifest(ctx context.Context, entries []manifest.ManifestEntry) (manifest.ManifestFileMeta, error) {
	var buf bytes.Buffer
	if err := manifest.WriteManifest(&buf, entries); err != nil {
		return manifest.ManifestFileMeta{}, err
	}
	name := m.paths.NewManifestName()
	if err := fileio.WriteFile(ctx, m.t.FS, m.path(name), buf.Bytes()); err != nil {
		return manifest.ManifestFileMeta{}, fmt.Errorf("write manifest %s: %w", name, err)
	}
	meta := manifest.ManifestFileMeta{FileName: name, FileSize: int64(buf.Len()), SchemaID: m.t.Schema.ID}
	stats, err := partitionStats(m.t.PartitionTypes(), entries)
	if err != nil {
		return meta, err
	}
	meta.PartitionStats = stats
	var minB, maxB, minL, maxL int32
	for i, e := range entries {
		if e.Kind == manifest.Add {
			meta.NumAddedFiles++
		} else {
			meta.NumDeletedFiles++
		}
		if i == 0 || e.File.SchemaID > meta.SchemaID {
			meta.SchemaID = e.File.SchemaID
		}
		if i == 0 {
			minB, maxB, minL, maxL = e.Bucket, e.Bucket, e.File.Level, e.File.Level
		}
		minB, maxB = min(minB, e.Bucket), max(maxB, e.Bucket)
		minL, maxL = min(minL, e.File.Level), max(maxL, e.File.Level)
	}
	if len(entries) > 0 {
		meta.MinBucket, meta.MaxBucket, meta.MinLevel, meta.MaxLevel = &minB, &maxB, &minL, &maxL
	}
	return meta, nil
}

// writeManifests writes entries into manifest files of at most chunk entries each.
func (m manifestIO) writeManifests(ctx context.Context, entries []manifest.ManifestEntry, chunk int) ([]manifest.ManifestFileMeta, error) {
	var out []manifest.ManifestFileMeta
	for start := 0; start < len(entries); start += chunk {
		end := min(start+chunk, len(entries))
		meta, err := m.writeManifest(ctx, entries[start:end])
		if err != nil {
			return nil, err
		}
		out = append(out, meta)
	}
	return out, nil
}

// writeList writes a manifest list and returns its name and exact size.
func (m manifestIO) writeList(ctx context.Context, metas []manifest.ManifestFileMeta) (string, int64, error) {
	var buf bytes.Buffer
	if err := manifest.WriteManifestList(&buf, metas); err != nil {
		return "", 0, err
	}
	name := m.paths.NewManifestListName()
	if err := fileio.WriteFile(ctx, m.t.FS, m.path(name), buf.Bytes()); err != nil {
		return "", 0, fmt.Errorf("write manifest list %s: %w", name, err)
	}
	return name, int64(buf.Len()), nil
}

// partitionStats computes min/max/null counts over the entries' partition rows.
func partitionStats(types []spec.DataType, entries []manifest.ManifestEntry) (manifest.SimpleStats, error) {
	if len(types) == 0 {
		return manifest.EmptyStats, nil
	}
	mins := make([]any, len(types))
	maxs := make([]any, len(types))
	nulls := make([]int64, len(types)) // per entry, as Java counts them
	decoded := map[string][]any{}
	for _, e := range entries {
		vals, ok := decoded[string(e.Partition)]
		if !ok {
			var err error
			if vals, err = binrow.Deserialize(types, e.Partition); err != nil {
				return manifest.SimpleStats{}, fmt.Errorf("partition of %s: %w", e.File.FileName, err)
			}
			decoded[string(e.Partition)] = vals
		}
		for i, v := range vals {
			switch {
			case v == nil:
				nulls[i]++
			case mins[i] == nil:
				mins[i], maxs[i] = v, v
			case binrow.Compare(types[i], v, mins[i]) < 0:
				mins[i] = v
			case binrow.Compare(types[i], v, maxs[i]) > 0:
				maxs[i] = v
			}
		}
	}
	minB, err := binrow.Serialize(types, mins)
	if err != nil {
		return manifest.SimpleStats{}, err
	}
	maxB, err := binrow.Serialize(types, maxs)
	if err != nil {
		return manifest.SimpleStats{}, err
	}
	nc := make([]*int64, len(types))
	for i := range nulls {
		n := nulls[i]
		nc[i] = &n
	}
	return manifest.SimpleStats{MinValues: minB, MaxValues: maxB, NullCounts: nc}, nil
}
