// Package errorfs is a fault-injecting fileio.FileIO wrapper for tests, in the spirit of pebble's
// errorfs: it numbers every I/O call made through it and fails the calls an Injector selects —
// the k-th call, calls matching an operation kind or a path glob, a random fraction — with an
// error, with a torn write (a prefix of the bytes lands, then the call reports an error), or with
// a landed mutation (it happens, then the call reports an error).
//
// Invariants:
//   - Every FileIO method and every Read/ReadAt/Seek/Close of an opened File and Write/Close/Abort
//     of a Writer is one operation with a 1-based index, counted in call order (Ops). Size() and the
//     methods of a File or Writer that failed to open are not operations.
//   - An injected fault happens instead of the call (ModeError): the wrapped FileIO never sees it,
//     except that a failed Writer.Close aborts the inner writer so nothing lands. ModeTorn applies
//     only to Writer.Close and WriteIfAbsent: the first half of the bytes lands under the final
//     name, then the error is returned; ModeLanded applies only to mutations (Writer.Close,
//     WriteIfAbsent, Delete, DeleteAll): the call is performed whole, then reported failed. On
//     other operations both act as ModeError.
//   - Every injected error wraps ErrInjected and names the operation, its index and its path.
//   - Writers buffer their bytes until Close, so a torn Close can choose the prefix that lands.
package errorfs
