package io.lakesync.console;

import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.NotFoundResponse;
import io.lakesync.auth.JavalinAuth;
import io.lakesync.auth.Principal;
import io.lakesync.auth.PublicRoute;
import io.lakesync.auth.Role;
import io.lakesync.server.HttpRoutes;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The web console: a single-page app of static files in this jar, served without a token at {@code /} and
 * {@code /console/{file}}, which then calls the public API with the token its user signs in with. The chart
 * library comes from its WebJar at {@code /console/lib/echarts.min.js}. {@code GET /api/v1/whoami} (viewer)
 * tells the page the caller's role, so it offers only what that role may do, and how often to refresh.
 */
public final class ConsoleRoutes implements HttpRoutes {

    private static final String ASSETS = "/io/lakesync/console/";
    private static final String ECHARTS_POM = "/META-INF/maven/org.webjars.npm/echarts/pom.properties";
    /** Flat file names only, so a request can never reach outside the console's folder. */
    private static final Pattern ASSET_NAME = Pattern.compile("[a-z0-9-]+\\.(html|css|js|svg)");
    private static final Map<String, String> CONTENT_TYPES = Map.of(
            "html", "text/html; charset=utf-8",
            "css", "text/css; charset=utf-8",
            "js", "text/javascript; charset=utf-8",
            "svg", "image/svg+xml");

    private final Duration refreshInterval;
    private final String echartsBundle = echartsBundle();
    private final Map<String, byte[]> cache = new ConcurrentHashMap<>();

    /** @param refreshInterval how often the status is re-read ({@code status.refresh-interval}), so pages follow it */
    public ConsoleRoutes(Duration refreshInterval) {
        this.refreshInterval = refreshInterval;
    }

    @Override
    public void addTo(JavalinConfig config) {
        config.router.mount(router -> {
            router.get("/", ctx -> serve(ctx, ASSETS + "index.html", "html"), PublicRoute.ANYONE);
            router.get("/console/{file}", ctx -> {
                String file = ctx.pathParam("file");
                if (!ASSET_NAME.matcher(file).matches()) {
                    throw new NotFoundResponse("No console file '" + file + "'.");
                }
                serve(ctx, ASSETS + file, file.substring(file.lastIndexOf('.') + 1));
            }, PublicRoute.ANYONE);
            router.get("/console/lib/echarts.min.js",
                    ctx -> serve(ctx, echartsBundle, "js"), PublicRoute.ANYONE);
            router.get("/api/v1/whoami", ctx -> {
                Principal caller = JavalinAuth.principal(ctx);
                ctx.json(Map.of(
                        "name", caller.name(),
                        "role", caller.role().label(),
                        "refreshIntervalMs", refreshInterval.toMillis()));
            }, Role.VIEWER);
        });
    }

    private void serve(Context ctx, String resource, String extension) {
        byte[] content = cache.computeIfAbsent(resource, ConsoleRoutes::read);
        if (content.length == 0) {
            throw new NotFoundResponse("No console file '" + ctx.path() + "'.");
        }
        ctx.contentType(CONTENT_TYPES.get(extension)).header("Cache-Control", "no-cache").result(content);
    }

    /** Empty when there is no such resource, which is remembered like a found one. */
    private static byte[] read(String resource) {
        try (InputStream in = ConsoleRoutes.class.getResourceAsStream(resource)) {
            return in == null ? new byte[0] : in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The bundle's path inside the WebJar, which names its version. */
    private static String echartsBundle() {
        byte[] pomProperties = read(ECHARTS_POM);
        if (pomProperties.length == 0) {
            throw new IllegalStateException("The ECharts WebJar is missing from the class path (" + ECHARTS_POM + ").");
        }
        Properties pom = new Properties();
        try {
            pom.load(new ByteArrayInputStream(pomProperties));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return "/META-INF/resources/webjars/echarts/" + pom.getProperty("version") + "/dist/echarts.min.js";
    }
}
