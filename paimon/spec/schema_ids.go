package spec

// HighestFieldID returns the highest field id among fields and their nested ROW fields (-1 for none),
// the highestFieldId Java's TableSchema.create computes for a schema a catalog service returns.
func HighestFieldID(fields []DataField) int { return highestFieldID(fields) }
