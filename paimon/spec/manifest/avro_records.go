package manifest

import "io"

// AvroDecimal is an Avro decimal value as ReadAvroRecords yields it: the unscaled value's
// big-endian two's-complement bytes (the scale is the schema's).
type AvroDecimal = decimalValue

// ReadAvroRecords decodes every record of an Avro object container file with the hardened
// decoder of the metadata files (framing validated up front, bounded values, no panics) and hands
// each one to fn as a map from field name to value: unions unwrapped (nil for null), records
// map[string]any, arrays []any, maps map[string]any, int int32, long int64, float float32, double
// float64, bytes []byte, string string, date and timestamp-micros time.Time, timestamp-millis its
// raw int64, time-millis time.Duration, decimal AvroDecimal. what names the file in errors. Paimon's
// Avro data files (paimon/format/avro) are read with it too.
func ReadAvroRecords(r io.Reader, what string, fn func(rec map[string]any) error) error {
	return readOCF(r, what, func(int) {}, func(_ int, rec row) error { return fn(rec.m) })
}
