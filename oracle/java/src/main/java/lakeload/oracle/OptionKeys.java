package lakeload.oracle;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import org.apache.paimon.options.ConfigOption;
import org.apache.paimon.options.FallbackKey;

/**
 * The "optionKeys" request: every table option key this Paimon version defines, found by reflection
 * over the public static ConfigOption fields of the option classes whose keys live in table options
 * (those on the oracle's class path; Flink's and Spark's connector options are not).
 *
 * <p>Each line is "CLASS\tKEY" for an option's key and "CLASS\tKEY\tMAIN" for a fallback key of MAIN.
 */
final class OptionKeys {
    private OptionKeys() {}

    /** The classes enumerated, by simple name in the output. */
    static final String[] CLASSES = {
        "org.apache.paimon.CoreOptions",
        "org.apache.paimon.iceberg.IcebergOptions",
        "org.apache.paimon.format.OrcOptions",
    };

    static List<String> keys() throws ClassNotFoundException, IllegalAccessException {
        List<String> out = new ArrayList<>();
        for (String cn : CLASSES) {
            Class<?> c = Class.forName(cn);
            for (Field f : c.getFields()) {
                if (!Modifier.isStatic(f.getModifiers()) || !ConfigOption.class.isAssignableFrom(f.getType())) {
                    continue;
                }
                ConfigOption<?> o = (ConfigOption<?>) f.get(null);
                out.add(c.getSimpleName() + "\t" + o.key());
                for (FallbackKey k : o.fallbackKeys()) {
                    out.add(c.getSimpleName() + "\t" + k.getKey() + "\t" + o.key());
                }
            }
        }
        return out;
    }
}
