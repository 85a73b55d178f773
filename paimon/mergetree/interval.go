package mergetree

import "slices"

// FileRange is a data file's key range as IntervalPartition needs it (DataFileMeta
// _MIN_KEY/_MAX_KEY); ID identifies the file to the caller.
type FileRange struct {
	ID     int
	MinKey []any
	MaxKey []any
}

// IntervalPartition groups files into sections whose key ranges do not overlap, each split into
// the fewest sorted runs of non-overlapping files (Java IntervalPartition). Sections come in key
// order; files within a run are in key order; runs within a section are in creation order
// (Java leaves that order unspecified). Ranges are compared with Config.CompareKeys, bounds
// inclusive.
func IntervalPartition(c *Config, files []FileRange) [][][]FileRange {
	sorted := slices.Clone(files)
	slices.SortStableFunc(sorted, func(a, b FileRange) int {
		if cmp := c.CompareKeys(a.MinKey, b.MinKey); cmp != 0 {
			return cmp
		}
		return c.CompareKeys(a.MaxKey, b.MaxKey)
	})
	var sections [][][]FileRange
	var section []FileRange
	var bound []any
	for _, f := range sorted {
		if len(section) > 0 && c.CompareKeys(f.MinKey, bound) > 0 {
			sections = append(sections, partitionSection(c, section))
			section, bound = nil, nil
		}
		section = append(section, f)
		if bound == nil || c.CompareKeys(f.MaxKey, bound) > 0 {
			bound = f.MaxKey
		}
	}
	if len(section) > 0 {
		sections = append(sections, partitionSection(c, section))
	}
	return sections
}

// partitionSection assigns each file (sorted by min key) to the run whose last max key is
// smallest, if the file starts after it, or else to a new run.
func partitionSection(c *Config, files []FileRange) [][]FileRange {
	runs := [][]FileRange{{files[0]}}
	heap := []int{0} // run indexes, min-heap by the run's last max key, then index
	less := func(i, j int) bool {
		ri, rj := runs[heap[i]], runs[heap[j]]
		if cmp := c.CompareKeys(ri[len(ri)-1].MaxKey, rj[len(rj)-1].MaxKey); cmp != 0 {
			return cmp < 0
		}
		return heap[i] < heap[j]
	}
	down := func(i int) {
		for {
			l := 2*i + 1
			if l >= len(heap) {
				return
			}
			m := l
			if r := l + 1; r < len(heap) && less(r, l) {
				m = r
			}
			if !less(m, i) {
				return
			}
			heap[i], heap[m] = heap[m], heap[i]
			i = m
		}
	}
	up := func(i int) {
		for i > 0 {
			p := (i - 1) / 2
			if !less(i, p) {
				return
			}
			heap[i], heap[p] = heap[p], heap[i]
			i = p
		}
	}
	for _, f := range files[1:] {
		top := runs[heap[0]]
		if c.CompareKeys(f.MinKey, top[len(top)-1].MaxKey) > 0 {
			runs[heap[0]] = append(top, f)
			down(0)
		} else {
			runs = append(runs, []FileRange{f})
			heap = append(heap, len(runs)-1)
			up(len(heap) - 1)
		}
	}
	return runs
}
