package lakeload.oracle;

import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Java Paimon oracle for lakeload tests.
 *
 * <pre>
 *   read --table PATH [--snapshot N] [--filter JSON] [--projection a,b] [--option k=v]...
 *   snapshots --table PATH
 *   batch                 (JSON requests on stdin, one JSON reply per line on stdout)
 *   selftest VECTORS      (checks canonical formatting against internal/canon/testdata/vectors.jsonl)
 * </pre>
 *
 * The batch protocol also takes "write" and "compact" requests (Writes; tests and fixture generation).
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) throws Exception {
        // Anything a library prints must not corrupt the protocol on stdout.
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8));
        if (args.length == 0) {
            usage();
        }
        try {
            switch (args[0]) {
                case "read":
                    for (String l : Tables.read(parseReadArgs(args))) {
                        out.println(l);
                    }
                    break;
                case "snapshots":
                    for (String l : Tables.snapshots(parseReadArgs(args).table)) {
                        out.println(l);
                    }
                    break;
                case "batch":
                    batch(out);
                    break;
                case "selftest":
                    if (args.length != 2) {
                        usage();
                    }
                    out.println(selftest(args[1]));
                    break;
                default:
                    usage();
            }
        } catch (Exception e) {
            out.flush();
            System.err.println("paimon-oracle: " + describe(e));
            System.exit(1);
        }
        out.flush();
    }

    private static void usage() {
        System.err.println("usage: paimon-oracle read --table PATH [--snapshot N] [--filter JSON] [--projection a,b]"
                + " [--option k=v]... | snapshots --table PATH | batch | selftest VECTORS.jsonl");
        System.exit(2);
    }

    private static Tables.ReadRequest parseReadArgs(String[] args) {
        Tables.ReadRequest r = new Tables.ReadRequest();
        for (int i = 1; i < args.length; i++) {
            if (i + 1 >= args.length) {
                usage();
            }
            String v = args[++i];
            switch (args[i - 1]) {
                case "--table": r.table = v; break;
                case "--snapshot": r.snapshot = Long.parseLong(v); break;
                case "--filter": r.filter = Json.parse(v); break;
                case "--projection": r.projection = List.of(v.split(",")); break;
                case "--option": {
                    int eq = v.indexOf('=');
                    if (eq < 0) {
                        usage();
                    }
                    r.options.put(v.substring(0, eq), v.substring(eq + 1));
                    break;
                }
                default: usage();
            }
        }
        if (r.table == null) {
            usage();
        }
        return r;
    }

    @SuppressWarnings("unchecked")
    private static Tables.ReadRequest readRequest(Map<String, Object> m) {
        Tables.ReadRequest r = new Tables.ReadRequest();
        r.table = (String) m.get("table");
        if (r.table == null) {
            throw new IllegalArgumentException("request has no \"table\"");
        }
        if (m.get("snapshot") != null) {
            r.snapshot = ((BigDecimal) m.get("snapshot")).longValueExact();
        }
        r.filter = m.get("filter");
        if (m.get("projection") != null) {
            r.projection = new ArrayList<>();
            for (Object o : (List<Object>) m.get("projection")) {
                r.projection.add((String) o);
            }
        }
        if (m.get("options") != null) {
            for (Map.Entry<String, Object> e : ((Map<String, Object>) m.get("options")).entrySet()) {
                r.options.put(e.getKey(), String.valueOf(e.getValue()));
            }
        }
        return r;
    }

    /** Serves one request per stdin line until EOF; every reply is one line, errors included. */
    @SuppressWarnings("unchecked")
    private static void batch(PrintStream out) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            StringBuilder b = new StringBuilder("{");
            Object id = null;
            try {
                Map<String, Object> req = (Map<String, Object>) Json.parse(line);
                id = req.get("id");
                String cmd = String.valueOf(req.get("cmd"));
                List<String> lines;
                String key;
                switch (cmd) {
                    case "read": lines = Tables.read(readRequest(req)); key = "rows"; break;
                    case "snapshots": lines = Tables.snapshots((String) req.get("table")); key = "snapshots"; break;
                    case "ping": lines = List.of(); key = "rows"; break;
                    case "rest-read": lines = RestTables.read(req); key = "rows"; break;
                    case "rest-write":
                        b.append("\"snapshot\":").append(RestTables.write(req, rows(req)));
                        lines = null;
                        key = null;
                        break;
                    case "optionKeys": lines = OptionKeys.keys(); key = "rows"; break;
                    case "addColumn": b.append("\"schema\":").append(Alter.addColumn(req)); lines = null; key = null; break;
                    case "write":
                    case "compact": {
                        for (String k : List.of("commitUser", "commitIdentifier", "overwrite", "properties")) {
                            if (req.get(k) != null) {
                                throw new IllegalArgumentException("the Java oracle's write takes no \"" + k + "\"");
                            }
                        }
                        String table = (String) req.get("table");
                        long snap = cmd.equals("write")
                                ? Writes.write(table, (Map<String, Object>) req.get("spec"), rows(req))
                                : Writes.compact(table);
                        b.append("\"snapshot\":").append(snap);
                        lines = null;
                        key = null;
                        break;
                    }
                    case "selftest": {
                        String res = selftest((String) req.get("vectors"));
                        b.append(res, 1, res.length() - 1);
                        lines = null;
                        key = null;
                        break;
                    }
                    default: throw new IllegalArgumentException("unknown cmd '" + cmd + "'");
                }
                if (key != null) {
                    Json.quote(b, key).append(":[");
                    for (int i = 0; i < lines.size(); i++) {
                        if (i > 0) {
                            b.append(',');
                        }
                        if (key.equals("rows")) {
                            Json.quote(b, lines.get(i));
                        } else {
                            b.append(lines.get(i));
                        }
                    }
                    b.append(']');
                }
            } catch (Throwable e) {
                b.setLength(1);
                b.append("\"error\":");
                Json.quote(b, describe(e));
            }
            if (id != null) {
                b.append(",\"id\":");
                if (id instanceof BigDecimal) {
                    b.append(((BigDecimal) id).toPlainString());
                } else {
                    Json.quote(b, String.valueOf(id));
                }
            }
            out.println(b.append('}'));
            out.flush();
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Object> rows(Map<String, Object> req) {
        Object rows = req.get("rows");
        return rows == null ? List.of() : (List<Object>) rows;
    }

    private static String describe(Throwable e) {
        StringBuilder b = new StringBuilder();
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (b.length() > 0) {
                b.append(" <- ");
            }
            b.append(c.getClass().getSimpleName()).append(": ").append(c.getMessage());
            if (c.getCause() == c) {
                break;
            }
        }
        return b.toString();
    }

    /** Checks the shared canonical vectors; returns {"failed":[...],"passed":N}. */
    @SuppressWarnings("unchecked")
    static String selftest(String path) throws Exception {
        int passed = 0;
        List<String> failed = new ArrayList<>();
        for (String line : Files.readAllLines(Paths.get(path), StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            Map<String, Object> v = (Map<String, Object>) Json.parse(line);
            String want = (String) v.get("want");
            String got;
            try {
                got = vector(v);
            } catch (RuntimeException e) {
                got = "error: " + e;
            }
            if (got.equals(want)) {
                passed++;
            } else {
                failed.add(line + " => " + got);
            }
        }
        StringBuilder b = new StringBuilder("{\"failed\":[");
        for (int i = 0; i < failed.size(); i++) {
            if (i > 0) {
                b.append(',');
            }
            Json.quote(b, failed.get(i));
        }
        return b.append("],\"passed\":").append(passed).append('}').toString();
    }

    private static String vector(Map<String, Object> v) {
        String kind = (String) v.get("kind");
        switch (kind) {
            case "double":
                return Canon.floatJson(Double.longBitsToDouble(Long.parseUnsignedLong((String) v.get("bits"), 16)));
            case "float":
                return Canon.floatJson(Float.intBitsToFloat(Integer.parseUnsignedInt((String) v.get("bits"), 16)));
            case "decimal":
                return Json.quote(Canon.decimal(new BigInteger((String) v.get("unscaled")),
                        ((BigDecimal) v.get("scale")).intValueExact()));
            case "date":
                return Json.quote(Canon.date(((BigDecimal) v.get("days")).intValueExact()));
            case "time":
                return Json.quote(Canon.time(((BigDecimal) v.get("millis")).intValueExact()));
            case "timestamp":
                return Json.quote(Canon.timestamp(((BigDecimal) v.get("millis")).longValueExact(),
                        ((BigDecimal) v.get("nanos")).intValueExact()));
            case "string":
                return Json.quote(Filters.utf8(Filters.unhex((String) v.get("hex"))));
            case "bytes":
                return Json.quote(Canon.hex(Filters.unhex((String) v.get("hex"))));
            default:
                throw new IllegalArgumentException("unknown vector kind " + kind);
        }
    }

}
