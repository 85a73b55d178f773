package manifest

import "github.com/hamba/avro/v2"

// Row versions (_VERSION) Java writes and accepts (core/utils/VersionedObjectSerializer.java).
const (
	ManifestEntryVersion      = 2
	ManifestFileMetaVersion   = 2
	IndexManifestEntryVersion = 1
)

// statsFields is the field list of a SimpleStats record.
const statsFields = `[
   {"name":"_MIN_VALUES","type":"bytes"},
   {"name":"_MAX_VALUES","type":"bytes"},
   {"name":"_NULL_COUNTS","type":["null",{"type":"array","items":["null","long"]}],"default":null}]`

// manifestSchemaJSON is Java's ManifestEntry schema with all 20 DataFileMeta fields (Appendix A).
const manifestSchemaJSON = `{"type":"record","name":"record","namespace":"org.apache.paimon.avro.generated","fields":[
 {"name":"_VERSION","type":"int"},
 {"name":"_KIND","type":"int"},
 {"name":"_PARTITION","type":"bytes"},
 {"name":"_BUCKET","type":"int"},
 {"name":"_TOTAL_BUCKETS","type":"int"},
 {"name":"_FILE","type":{"type":"record","name":"record__FILE","fields":[
   {"name":"_FILE_NAME","type":"string"},
   {"name":"_FILE_SIZE","type":"long"},
   {"name":"_ROW_COUNT","type":"long"},
   {"name":"_MIN_KEY","type":"bytes"},
   {"name":"_MAX_KEY","type":"bytes"},
   {"name":"_KEY_STATS","type":{"type":"record","name":"record__FILE__KEY_STATS","fields":` + statsFields + `}},
   {"name":"_VALUE_STATS","type":{"type":"record","name":"record__FILE__VALUE_STATS","fields":` + statsFields + `}},
   {"name":"_MIN_SEQUENCE_NUMBER","type":"long"},
   {"name":"_MAX_SEQUENCE_NUMBER","type":"long"},
   {"name":"_SCHEMA_ID","type":"long"},
   {"name":"_LEVEL","type":"int"},
   {"name":"_EXTRA_FILES","type":{"type":"array","items":"string"}},
   {"name":"_CREATION_TIME","type":["null",{"type":"long","logicalType":"timestamp-millis"}],"default":null},
   {"name":"_DELETE_ROW_COUNT","type":["null","long"],"default":null},
   {"name":"_EMBEDDED_FILE_INDEX","type":["null","bytes"],"default":null},
   {"name":"_FILE_SOURCE","type":["null","int"],"default":null},
   {"name":"_VALUE_STATS_COLS","type":["null",{"type":"array","items":"string"}],"default":null},
   {"name":"_EXTERNAL_PATH","type":["null","string"],"default":null},
   {"name":"_FIRST_ROW_ID","type":["null","long"],"default":null},
   {"name":"_WRITE_COLS","type":["null",{"type":"array","items":"string"}],"default":null}]}}]}`

// manifestListSchemaJSON is Java's ManifestFileMeta schema (Appendix A).
const manifestListSchemaJSON = `{"type":"record","name":"record","namespace":"org.apache.paimon.avro.generated","fields":[
 {"name":"_VERSION","type":"int"},
 {"name":"_FILE_NAME","type":"string"},
 {"name":"_FILE_SIZE","type":"long"},
 {"name":"_NUM_ADDED_FILES","type":"long"},
 {"name":"_NUM_DELETED_FILES","type":"long"},
 {"name":"_PARTITION_STATS","type":{"type":"record","name":"record__PARTITION_STATS","fields":` + statsFields + `}},
 {"name":"_SCHEMA_ID","type":"long"},
 {"name":"_MIN_BUCKET","type":["null","int"],"default":null},
 {"name":"_MAX_BUCKET","type":["null","int"],"default":null},
 {"name":"_MIN_LEVEL","type":["null","int"],"default":null},
 {"name":"_MAX_LEVEL","type":["null","int"],"default":null},
 {"name":"_MIN_ROW_ID","type":["null","long"],"default":null},
 {"name":"_MAX_ROW_ID","type":["null","long"],"default":null}]}`

// indexManifestSchemaJSON is Java's IndexManifestEntry schema (§4.5) without the 2.0-only
// _GLOBAL_INDEX field, which Java and pypaimon read as null when absent.
const indexManifestSchemaJSON = `{"type":"record","name":"record","namespace":"org.apache.paimon.avro.generated","fields":[
 {"name":"_VERSION","type":"int"},
 {"name":"_KIND","type":"int"},
 {"name":"_PARTITION","type":"bytes"},
 {"name":"_BUCKET","type":"int"},
 {"name":"_INDEX_TYPE","type":"string"},
 {"name":"_FILE_NAME","type":"string"},
 {"name":"_FILE_SIZE","type":"long"},
 {"name":"_ROW_COUNT","type":"long"},
 {"name":"_DELETIONS_VECTORS_RANGES","type":["null",{"type":"array","items":["null",{"type":"record","name":"record__DELETIONS_VECTORS_RANGES","fields":[
   {"name":"f0","type":"string"},
   {"name":"f1","type":"int"},
   {"name":"f2","type":"int"},
   {"name":"_CARDINALITY","type":["null","long"],"default":null}]}]}],"default":null},
 {"name":"_EXTERNAL_PATH","type":["null","string"],"default":null}]}`

var (
	manifestSchema      = avro.MustParse(manifestSchemaJSON)
	manifestListSchema  = avro.MustParse(manifestListSchemaJSON)
	indexManifestSchema = avro.MustParse(indexManifestSchemaJSON)
)
