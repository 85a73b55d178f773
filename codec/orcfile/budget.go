package orcfile

// Allocation caps, proportional to the file size so that a small corrupt file cannot make the
// reader allocate much: a legitimate Paimon metadata file compresses far less than this.
const (
	bytesPerFileByte  = 512 // decompressed bytes per file byte
	valuesPerFileByte = 64  // decoded values (all columns) per file byte
	budgetBaseBytes   = 1 << 20
	budgetBaseValues  = 4096
)

// budget tracks what decoding one file has allocated against its caps.
type budget struct {
	maxBytes, bytes   uint64 // decompressed stream bytes
	maxValues, values uint64 // decoded values, counting nulls and nested elements
}

func newBudget(fileSize int) *budget {
	n := uint64(fileSize)
	return &budget{maxBytes: budgetBaseBytes + bytesPerFileByte*n, maxValues: budgetBaseValues + valuesPerFileByte*n}
}

// bytesLeft is how many more bytes may be decompressed.
func (b *budget) bytesLeft() uint64 { return b.maxBytes - b.bytes }

func (b *budget) spendBytes(n int, what string) error {
	if uint64(n) > b.bytesLeft() {
		return corruptf("%s: decompresses to more than %d bytes in total", what, b.maxBytes)
	}
	b.bytes += uint64(n)
	return nil
}

func (b *budget) spendValues(n uint64, what string) error {
	if n > b.maxValues-b.values {
		return corruptf("%s: more than %d values in total", what, b.maxValues)
	}
	b.values += n
	return nil
}
