package lakeload.oracle;

import java.util.Map;

import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.schema.SchemaManager;
import org.apache.paimon.types.DataTypeJsonParser;
import org.apache.paimon.utils.StringUtils;

/**
 * The "addColumn" request (tests and fixture generation): {"cmd":"addColumn","table":P,"name":N,
 * "type":"<Paimon SQL type>"} appends a nullable column through Java's SchemaManager (a new schema
 * file), so fixtures hold data files of several schemas. Replies {"schema":NEW_SCHEMA_ID}.
 */
final class Alter {
    private Alter() {}

    static long addColumn(Map<String, Object> req) throws Exception {
        String table = (String) req.get("table");
        String name = (String) req.get("name");
        String type = (String) req.get("type");
        if (StringUtils.isNullOrWhitespaceOnly(table) || StringUtils.isNullOrWhitespaceOnly(name) || type == null) {
            throw new IllegalArgumentException("addColumn needs \"table\", \"name\" and \"type\"");
        }
        SchemaManager sm = new SchemaManager(LocalFileIO.create(), new Path(table));
        return sm.commitChanges(SchemaChange.addColumn(name, DataTypeJsonParser.parseAtomicTypeSQLString(type))).id();
    }
}
