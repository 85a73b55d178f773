package manifest

// FileKind says whether an entry adds or deletes a file (Java FileKind).
type FileKind int8

// File kinds as stored in _KIND.
const (
	Add    FileKind = 0
	Delete FileKind = 1
)

// String returns "ADD" or "DELETE" (or a numeric form for unknown values).
func (k FileKind) String() string {
	switch k {
	case Add:
		return "ADD"
	case Delete:
		return "DELETE"
	}
	return "FileKind(" + itoa(int64(k)) + ")"
}

// FileSource says which writer produced a data file (Java FileSource), stored in _FILE_SOURCE.
type FileSource int32

// File sources.
const (
	Append  FileSource = 0 // written by a writer (new level-0 or append file)
	Compact FileSource = 1 // written by a compaction
)

// DataFileMeta describes one data file (Java DataFileMeta, 20 Avro fields).
//
// Nullable Avro fields are Go pointers (nil = null). For the list-valued nullable fields
// ValueStatsCols and WriteCols, a nil slice means null and a non-nil empty slice means the empty
// array: ValueStatsCols nil = stats cover all columns of schema SchemaID, []string{} = no value
// stats. EmbeddedIndex nil means null. ExtraFiles is never null on disk (nil is written as []).
type DataFileMeta struct {
	FileName           string
	FileSize           int64 // exact byte size
	RowCount           int64
	MinKey, MaxKey     []byte // serialized BinaryRow
	KeyStats           SimpleStats
	ValueStats         SimpleStats
	MinSequenceNumber  int64
	MaxSequenceNumber  int64
	SchemaID           int64
	Level              int32
	ExtraFiles         []string
	CreationTimeMillis int64 // written as non-null timestamp-millis (local wall clock encoded as UTC); null reads as 0
	DeleteRowCount     *int64
	EmbeddedIndex      []byte
	FileSource         *int32
	ValueStatsCols     []string
	ExternalPath       *string
	FirstRowID         *int64
	WriteCols          []string
}

// ManifestEntry is one row of a manifest file (Java ManifestEntry).
type ManifestEntry struct {
	Kind         FileKind
	Partition    []byte // serialized partition BinaryRow
	Bucket       int32
	TotalBuckets int32
	File         DataFileMeta
}

// ManifestFileMeta is one row of a manifest list (Java ManifestFileMeta).
type ManifestFileMeta struct {
	FileName        string
	FileSize        int64 // exact byte size of the manifest file
	NumAddedFiles   int64
	NumDeletedFiles int64
	PartitionStats  SimpleStats
	SchemaID        int64
	MinBucket       *int32 // since Java 1.1
	MaxBucket       *int32
	MinLevel        *int32
	MaxLevel        *int32
	MinRowID        *int64 // since Java 1.4, row-tracking tables only
	MaxRowID        *int64
}

// DeletionVectorMeta locates one data file's deletion vector inside an index file (Java
// DeletionVectorMeta; Avro fields f0, f1, f2, _CARDINALITY).
type DeletionVectorMeta struct {
	DataFileName string
	Offset       int32  // offset of the vector's 4-byte size field in the index file
	Length       int32  // payload length as Java records it (see package dv)
	Cardinality  *int64 // nil in files written before Java 1.0
}

// IndexManifestEntry is one row of an index manifest (Java IndexManifestEntry).
// DeletionVectorRanges nil means null (e.g. HASH index files).
type IndexManifestEntry struct {
	Kind                 FileKind
	Partition            []byte
	Bucket               int32
	IndexType            string // "HASH" or "DELETION_VECTORS"
	FileName             string
	FileSize             int64
	RowCount             int64
	DeletionVectorRanges []DeletionVectorMeta
	ExternalPath         *string
}

// Index types stored in _INDEX_TYPE.
const (
	IndexTypeHash            = "HASH"
	IndexTypeDeletionVectors = "DELETION_VECTORS"
)
