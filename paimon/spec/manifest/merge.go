package manifest

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// Identifier is the merge identity of an entry (Java FileEntry.Identifier): partition bytes,
// bucket, level, file name, extra files, embedded index and external path. Two entries refer to
// the same file exactly when their identifiers are equal. The string is unambiguous (every
// variable-length part is quoted or hex-encoded, null is distinct from empty) but not meant for
// display or persistence.
func (e ManifestEntry) Identifier() string {
	var b strings.Builder
	b.WriteString(hex.EncodeToString(e.Partition))
	fmt.Fprintf(&b, "|%d|%d|%s|[", e.Bucket, e.File.Level, strconv.Quote(e.File.FileName))
	for i, x := range e.File.ExtraFiles {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(x))
	}
	b.WriteString("]|")
	if e.File.EmbeddedIndex == nil {
		b.WriteString("null")
	} else {
		b.WriteString("x" + hex.EncodeToString(e.File.EmbeddedIndex))
	}
	b.WriteByte('|')
	if e.File.ExternalPath == nil {
		b.WriteString("null")
	} else {
		b.WriteString(strconv.Quote(*e.File.ExternalPath))
	}
	return b.String()
}

// MergeEntries applies entries in order as Java's FileEntry.mergeEntries does and returns the
// live ADD entries in first-added order: a DELETE cancels the earlier ADD of the same
// Identifier. It fails on an ADD whose identifier is already present (a duplicate ADD, or an ADD
// after an unmatched DELETE). DELETEs with no earlier ADD are dropped; use MergeKeepingDeletes to
// keep them.
func MergeEntries(entries []ManifestEntry) ([]ManifestEntry, error) {
	merged, err := MergeKeepingDeletes(entries)
	if err != nil {
		return nil, err
	}
	out := merged[:0]
	for _, e := range merged {
		if e.Kind == Add {
			out = append(out, e)
		}
	}
	return out, nil
}

// MergeKeepingDeletes is MergeEntries that also keeps, in place, the DELETE entries that cancel no
// earlier ADD (their ADD lives in an older manifest), as Java's manifest merging does.
func MergeKeepingDeletes(entries []ManifestEntry) ([]ManifestEntry, error) {
	type slot struct {
		e    ManifestEntry
		live bool
	}
	var slots []slot
	index := map[string]int{} // identifier → position in slots
	for i, e := range entries {
		id := e.Identifier()
		pos, present := index[id]
		switch e.Kind {
		case Add:
			if present {
				return nil, fmt.Errorf("manifest: entry %d adds file %s (bucket %d, level %d) which is already present as %s",
					i, e.File.FileName, e.Bucket, e.File.Level, slots[pos].e.Kind)
			}
			index[id] = len(slots)
			slots = append(slots, slot{e: e, live: true})
		case Delete:
			if present {
				slots[pos].live = false
				delete(index, id)
			} else {
				index[id] = len(slots)
				slots = append(slots, slot{e: e, live: true})
			}
		default:
			return nil, fmt.Errorf("manifest: entry %d (%s): unknown file kind %d", i, e.File.FileName, e.Kind)
		}
	}
	out := make([]ManifestEntry, 0, len(index))
	for _, s := range slots {
		if s.live {
			out = append(out, s.e)
		}
	}
	return out, nil
}
