package parquet

import (
	"bytes"
	"maps"

	"github.com/apache/arrow-go/v18/arrow"
)

// A mirror column is given the very same Arrow array as an earlier column of the file in every
// batch (a primary-key table's _KEY_<k> column and its value column k): it is not encoded a
// second time; its chunks repeat the earlier column's pages, dictionary and statistics, which is
// byte for byte what encoding the same values again would give. A batch that gives it another
// array ends the mirror: the column takes a copy of its source's current chunk (the values it has
// been given so far) and encodes on its own from there.

// findMirrors makes each column that first holds the same array as an earlier, independently
// encoded column of the same Parquet leaf type a mirror of it.
func (f *fastFile) findMirrors(first arrow.RecordBatch) {
	for j, c := range f.cols {
		for i, s := range f.cols[:j] {
			if s.mirror == nil && first.Column(i) == first.Column(j) && sameLeaf(s, c) {
				c.mirror, c.mirrorAt = s, i
				break
			}
		}
	}
}

// sameLeaf reports whether a and b encode and collect statistics the same way.
func sameLeaf(a, b *fastColumn) bool {
	x, y := a.descr, b.descr
	return x.PhysicalType() == y.PhysicalType() && x.TypeLength() == y.TypeLength() &&
		x.ConvertedType() == y.ConvertedType() && x.LogicalType().Equals(y.LogicalType()) &&
		x.MaxDefinitionLevel() == y.MaxDefinitionLevel() && x.MaxRepetitionLevel() == y.MaxRepetitionLevel() &&
		x.SortOrder() == y.SortOrder() && a.nullable == b.nullable &&
		a.t.Root == b.t.Root && a.t.Precision == b.t.Precision && a.t.Scale == b.t.Scale && a.t.Length == b.t.Length
}

// keepMirrors ends the mirror of every column that rec gives another array than its source.
func (f *fastFile) keepMirrors(rec arrow.RecordBatch) {
	for j, c := range f.cols {
		if c.mirror != nil && rec.Column(j) != rec.Column(c.mirrorAt) {
			c.detach()
		}
	}
}

// detach makes c encode on its own: it takes a copy of its source's current chunk and page.
// (Its file statistics are its own already: every finished chunk was folded into them.)
func (c *fastColumn) detach() {
	s := c.mirror
	c.mirror = nil
	c.useDict, c.dict, c.fellBack, c.dictN = s.useDict, s.dict, s.fellBack, s.dictN
	c.dictBuf = append(c.dictBuf[:0], s.dictBuf...)
	c.dictBytes, c.dictFixed = maps.Clone(s.dictBytes), maps.Clone(s.dictFixed)
	c.data, c.dataRaw, c.slots = append(c.data[:0], s.data...), s.dataRaw, s.slots
	c.dataEnc = maps.Clone(s.dataEnc)
	c.cs = s.cs
	c.cs.bmin, c.cs.bmax = bytes.Clone(s.cs.bmin), bytes.Clone(s.cs.bmax)
	c.defs, c.vals = append(c.defs[:0], s.defs...), append(c.vals[:0], s.vals...)
	c.bools, c.idx = append(c.bools[:0], s.bools...), append(c.idx[:0], s.idx...)
	c.n, c.raw = s.n, s.raw
}

// chunk is the column whose buffered chunk c writes: its source while it mirrors one.
func (c *fastColumn) chunk() *fastColumn {
	if c.mirror != nil {
		return c.mirror
	}
	return c
}
