package io.lakesync.server;

import io.javalin.config.JavalinConfig;
import io.lakesync.auth.PublicRoute;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** {@code GET /api/v1/openapi.yaml}: the API's OpenAPI document, open to anyone. */
final class OpenApiRoutes implements HttpRoutes {

    static final String RESOURCE = "openapi.yaml";

    private final String document;

    OpenApiRoutes() {
        try (InputStream in = OpenApiRoutes.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("The OpenAPI document " + RESOURCE + " is missing from the build.");
            }
            document = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void addTo(JavalinConfig config) {
        config.router.mount(router -> router.get(
                "/api/v1/openapi.yaml", ctx -> ctx.contentType("application/yaml").result(document), PublicRoute.ANYONE));
    }
}
