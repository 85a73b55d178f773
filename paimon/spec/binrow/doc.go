// Package binrow implements Apache Paimon's BinaryRow: the byte layout Java Paimon uses for keys,
// partitions, statistics and bucket keys (paimon-format.md §5), its hash and bucket function
// (§5.4, §6.8) and the key comparator (§6.3).
//
// Invariants:
//   - Row bytes = null bit set (W = ((arity+63+8)/64)*8 bytes, byte 0 = RowKind header)
//     || arity 8-byte little-endian slots || variable part; every variable value starts 8-byte
//     aligned and is zero-padded, so a row's length is always a multiple of 8.
//   - Encoding is byte-identical to Java's BinaryRowWriter when fields are written in field order
//     (as Encode does): null non-compact DECIMAL/TIMESTAMP still reserve their 16/8 zero bytes
//     with slot = offset<<32, DECIMAL p>18 uses BigInteger.toByteArray's minimal two's complement,
//     strings and binaries of at most 7 bytes are inlined with slot byte 7 = 0x80|len.
//   - The serialized (manifest) form prefixes the row with its arity as a big-endian int32.
//   - Decoders never panic; malformed input yields errors wrapping spec.ErrCorrupt. A value that
//     decodes always re-encodes, and decoding that encoding gives an equal value.
//   - Only atomic types are supported; ARRAY, MULTISET, MAP and ROW fields are rejected.
package binrow
