// Package canon renders Paimon rows in lakeload's canonical JSON form, the one text that the Java
// and pypaimon oracles (oracle/java, oracle/py) print too, so tests compare tables as sorted lines.
//
// The form is defined in oracle/README.md; in short: one compact JSON object per row, keys sorted
// bytewise, integers as literals, FLOAT/DOUBLE widened to float64 and printed like Python's repr()
// (NaN/±Inf as the strings "NaN", "Infinity", "-Infinity"), DECIMAL as a plain string with exactly
// scale fraction digits, BINARY as lowercase hex, DATE "YYYY-MM-DD", TIME "HH:MM:SS.mmm",
// TIMESTAMP and TIMESTAMP_LTZ "YYYY-MM-DDTHH:MM:SS.nnnnnnnnn" (wall clock of UTC for LTZ), ARRAY as
// an array, MULTISET as an array sorted by element text, MAP as an array of [key,value] pairs sorted
// by key text, ROW as an object with sorted keys. A table dump is its row lines sorted bytewise.
//
// Invariants: output is deterministic and byte-identical to the Java and Python oracles for the same
// logical values (checked by the shared vectors in testdata/vectors.jsonl); strings are escaped
// minimally (", \, and control characters below U+0020, \u00xx lowercase), everything else is raw
// UTF-8 with invalid bytes replaced by U+FFFD; a value whose Go type does not match its DataType is
// an error, never a panic.
package canon
