package lakeload.oracle;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.util.HashMap;
import java.util.Map;

import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.RecordedRequest;
import org.apache.paimon.rest.RESTCatalogServer;
import org.apache.paimon.rest.auth.AuthProvider;
import org.apache.paimon.rest.auth.BearTokenAuthProvider;
import org.apache.paimon.rest.responses.ConfigResponse;

/**
 * The Paimon REST catalog test server of lakeload's tests: Java Paimon's own RESTCatalogServer (paimon-core tests
 * jar) on a free loopback port, bearer-token auth, data tokens off, catalog metadata in memory only.
 *
 * <pre>
 *   java -cp paimon-oracle.jar lakeload.oracle.RestServer --warehouse DIR --catalog NAME --token T [--prefix P]
 * </pre>
 *
 * Prints one line {@code uri=http://HOST:PORT/} on stdout once it serves, then runs until its standard input closes
 * (so a test process that dies takes the server with it) or it is killed. Requests are served one at a time: the
 * upstream test server keeps its tables in plain HashMaps.
 */
public final class RestServer {
    private RestServer() {}

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8));
        Map<String, String> a = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                usage();
            }
            a.put(args[i].substring(2), args[i + 1]);
        }
        if (args.length % 2 != 0 || !a.containsKey("warehouse") || !a.containsKey("catalog")
                || !a.containsKey("token")) {
            usage();
        }
        String catalog = a.get("catalog");
        Map<String, String> defaults = new HashMap<>();
        defaults.put("prefix", a.getOrDefault("prefix", "paimon"));
        defaults.put("data-token.enabled", "false");
        defaults.put("warehouse", catalog);
        ConfigResponse config = new ConfigResponse(defaults, new HashMap<>());
        Serialized server = new Serialized(a.get("warehouse"), new BearTokenAuthProvider(a.get("token")), config,
                catalog);
        server.start();
        out.println("uri=" + server.getUrl());
        InputStream in = System.in;
        byte[] buf = new byte[256];
        while (in.read(buf) >= 0) {
            // runs until stdin closes
        }
        server.shutdown();
        System.exit(0);
    }

    private static void usage() {
        System.err.println("usage: RestServer --warehouse DIR --catalog NAME --token T [--prefix P]");
        System.exit(2);
    }

    /** RESTCatalogServer whose dispatcher serves one request at a time. */
    static final class Serialized extends RESTCatalogServer {
        Serialized(String dataPath, AuthProvider auth, ConfigResponse config, String warehouse) {
            super(dataPath, auth, config, warehouse);
        }

        @Override
        public Dispatcher initDispatcher(AuthProvider authProvider) {
            Dispatcher d = super.initDispatcher(authProvider);
            return new Dispatcher() {
                @Override
                public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
                    synchronized (Serialized.class) {
                        return d.dispatch(request);
                    }
                }
            };
        }
    }
}
