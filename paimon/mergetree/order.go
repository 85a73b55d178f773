package mergetree

import "github.com/lakeload/lakeload/paimon/spec/binrow"

// CompareKeys orders two trimmed primary keys like Java's generated key comparator: field by
// field in key order, nulls first (see paimon-format §6.3).
func (c *Config) CompareKeys(a, b []any) int { return compareRows(a, b) }

// compareSeqFields orders two records of one key by their sequence.field values: nulls first,
// non-null values reversed when sequence.field.sort-order=descending (Java
// UserDefinedSeqComparator with nullIsLast=false).
func (c *Config) compareSeqFields(a, b KeyValue) int {
	for _, i := range c.seqFields {
		x, y := field(a.Value, i), field(b.Value, i)
		if cmp, decided := binrow.CompareNulls(x == nil, y == nil); decided {
			if cmp != 0 {
				return cmp
			}
			continue
		}
		cmp := compareDatum(x, y)
		if c.seqDescending {
			cmp = -cmp
		}
		if cmp != 0 {
			return cmp
		}
	}
	return 0
}

// Less orders two records of the same key for merging: by sequence.field values if configured,
// then by sequence number (Java SortMergeReaderWithMinHeap, SortBufferWriteBuffer).
func (c *Config) Less(a, b KeyValue) bool {
	if cmp := c.compareSeqFields(a, b); cmp != 0 {
		return cmp < 0
	}
	return a.Seq < b.Seq
}

// compareRecords orders records by key, then Less.
func (c *Config) compareRecords(a, b KeyValue) int {
	if cmp := compareRows(a.Key, b.Key); cmp != 0 {
		return cmp
	}
	if cmp := c.compareSeqFields(a, b); cmp != 0 {
		return cmp
	}
	return cmpOrdered(a.Seq, b.Seq)
}
