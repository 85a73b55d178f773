package errorfs

import "fmt"

// OpKind is the kind of an I/O operation.
type OpKind int

// Operation kinds: one per FileIO method, per File method and per Writer method.
const (
	OpOpen OpKind = iota + 1
	OpReadFile
	OpCreate
	OpWriteIfAbsent
	OpStat
	OpList
	OpDelete
	OpDeleteAll
	OpFileRead  // File.Read and File.ReadAt
	OpFileSeek  // File.Seek
	OpFileClose // File.Close
	OpWrite     // Writer.Write
	OpWriterClose
	OpWriterAbort
)

var opNames = map[OpKind]string{
	OpOpen: "open", OpReadFile: "read-file", OpCreate: "create", OpWriteIfAbsent: "write-if-absent",
	OpStat: "stat", OpList: "list", OpDelete: "delete", OpDeleteAll: "delete-all",
	OpFileRead: "file-read", OpFileSeek: "file-seek", OpFileClose: "file-close",
	OpWrite: "write", OpWriterClose: "writer-close", OpWriterAbort: "writer-abort",
}

// String names the kind, e.g. "write-if-absent".
func (k OpKind) String() string {
	if s, ok := opNames[k]; ok {
		return s
	}
	return fmt.Sprintf("op(%d)", int(k))
}

// Mutates reports whether the kind changes stored files (Writer.Close, WriteIfAbsent, Delete, DeleteAll).
func (k OpKind) Mutates() bool {
	return k == OpWriterClose || k == OpWriteIfAbsent || k == OpDelete || k == OpDeleteAll
}

// Tearable reports whether a torn write applies to the kind (Writer.Close and WriteIfAbsent).
func (k OpKind) Tearable() bool { return k == OpWriterClose || k == OpWriteIfAbsent }

// Op is one I/O operation as an Injector sees it.
type Op struct {
	Index int64 // 1-based number of the operation among all operations of the FS
	Kind  OpKind
	Path  string // the file or directory operated on (the opened file's path for File and Writer methods)
}

// String renders the operation as "#index kind path".
func (o Op) String() string { return fmt.Sprintf("#%d %s %s", o.Index, o.Kind, o.Path) }
