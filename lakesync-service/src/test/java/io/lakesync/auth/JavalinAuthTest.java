package io.lakesync.auth;

import static io.lakesync.auth.AuthenticatorTest.OPERATOR_TOKEN;
import static io.lakesync.auth.AuthenticatorTest.OWNER_TOKEN;
import static io.lakesync.auth.AuthenticatorTest.TOKENS;
import static io.lakesync.auth.AuthenticatorTest.VIEWER_TOKEN;
import static org.assertj.core.api.Assertions.assertThat;

import io.javalin.Javalin;
import io.lakesync.config.LakeSyncConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The guard on a real Javalin server, called over real HTTP. */
class JavalinAuthTest {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static Javalin strict;
    private static Javalin openReads;

    @BeforeAll
    static void startServers() {
        strict = server(Map.of("auth.tokens", TOKENS));
        openReads = server(Map.of("auth.tokens", TOKENS, "auth.anonymous-read", "true"));
    }

    @AfterAll
    static void stopServers() {
        strict.stop();
        openReads.stop();
    }

    private static Javalin server(Map<String, String> options) {
        Javalin app = Javalin.create();
        JavalinAuth.install(app, Authenticator.fromConfig(LakeSyncConfig.fromMap(options, "test")));
        app.get("/health", ctx -> ctx.result("ok"), PublicRoute.ANYONE);
        app.get("/tables", ctx -> ctx.result("read by " + JavalinAuth.principal(ctx).name()));
        app.post("/tables", ctx -> ctx.result("changed by " + JavalinAuth.principal(ctx).name()));
        app.delete("/alerts/rules/{name}", ctx -> ctx.result("deleted"), Role.OPERATOR);
        app.put("/cluster/switch", ctx -> ctx.result("switched by " + JavalinAuth.principal(ctx).name()), Role.OWNER);
        app.get("/unguarded-principal", ctx -> ctx.result(JavalinAuth.principal(ctx).name()), PublicRoute.ANYONE);
        return app.start("127.0.0.1", 0);
    }

    private static HttpResponse<String> call(Javalin app, String method, String path, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path))
                .header("Accept", "application/json")
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void readsNeedAViewerToken() throws Exception {
        HttpResponse<String> anonymous = call(strict, "GET", "/tables", null);

        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.headers().firstValue("WWW-Authenticate")).contains("Bearer realm=\"lakesync\"");
        assertThat(anonymous.body()).contains("Authentication required: this call needs role viewer or higher; "
                + "send the header 'Authorization: Bearer <token>'");
        assertThat(call(strict, "GET", "/tables", VIEWER_TOKEN).body()).isEqualTo("read by grafana");
    }

    @Test
    void changesNeedAnOperatorTokenUnlessTheRouteAsksForMore() throws Exception {
        HttpResponse<String> viewer = call(strict, "POST", "/tables", VIEWER_TOKEN);
        assertThat(viewer.statusCode()).isEqualTo(403);
        assertThat(viewer.body())
                .contains("Forbidden: this call needs role operator or higher, but token 'grafana' has role viewer.");
        assertThat(call(strict, "POST", "/tables", OPERATOR_TOKEN).body()).isEqualTo("changed by ci-bot");
        assertThat(call(strict, "DELETE", "/alerts/rules/lag", OPERATOR_TOKEN).statusCode()).isEqualTo(200);

        HttpResponse<String> operatorSwitch = call(strict, "PUT", "/cluster/switch", OPERATOR_TOKEN);
        assertThat(operatorSwitch.statusCode()).isEqualTo(403);
        assertThat(operatorSwitch.body()).contains("needs role owner or higher, but token 'ci-bot' has role operator");
        assertThat(call(strict, "PUT", "/cluster/switch", OWNER_TOKEN).body()).isEqualTo("switched by alice");
    }

    @Test
    void anUnknownTokenIsUnauthorized() throws Exception {
        HttpResponse<String> response = call(strict, "PUT", "/cluster/switch", "guessed-token-0123456789");

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.body()).contains("Unknown API token").doesNotContain("guessed-token");
    }

    @Test
    void publicRoutesNeedNoToken() throws Exception {
        assertThat(call(strict, "GET", "/health", null).body()).isEqualTo("ok");
    }

    @Test
    void aPublicRouteHasNoPrincipal() throws Exception {
        HttpResponse<String> response = call(strict, "GET", "/unguarded-principal", null);

        assertThat(response.statusCode()).isEqualTo(500);
    }

    @Test
    void anonymousReadsWhenConfiguredButNeverAnonymousChanges() throws Exception {
        assertThat(call(openReads, "GET", "/tables", null).body()).isEqualTo("read by anonymous");
        assertThat(call(openReads, "POST", "/tables", null).statusCode()).isEqualTo(401);
        assertThat(call(openReads, "POST", "/tables", OPERATOR_TOKEN).body()).isEqualTo("changed by ci-bot");
    }
}
