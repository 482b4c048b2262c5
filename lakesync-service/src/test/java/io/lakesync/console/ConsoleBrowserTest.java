package io.lakesync.console;

import static io.lakesync.local.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.server.LakeSyncServer;
import io.lakesync.tiering.TieringTestBase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.Select;

/**
 * The web console in a real headless Chromium (Debian's, driven by its chromedriver) against the real service
 * on an embedded Fluss cluster: one stack, the scenarios in sequence, the browser console checked for
 * errors after every page. Writes the README's screenshots into {@code docs/console/}.
 */
class ConsoleBrowserTest extends TieringTestBase {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String OWNER = "console-owner-token-0123456789";
    private static final String OPERATOR = "console-operator-token-0123456789";
    private static final String VIEWER = "console-viewer-token-0123456789";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final TablePath orders = TablePath.of("fluss", "console_orders");
    private final TablePath clicks = TablePath.of("fluss", "console_clicks");
    private final TablePath withDeletionVectors = TablePath.of("fluss", "console_dv");
    private final HttpClient http = HttpClient.newHttpClient();
    private final List<String> consoleErrors = new ArrayList<>();
    private ChromeDriver browser;
    private URI base;

    @BeforeEach
    void startBrowser() {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            fail("The console's browser tests need " + CHROMIUM + " and " + CHROMEDRIVER + " (Debian's chromium and "
                    + "chromium-driver): run build-support/test-deps/chromium.sh (./lakesync test runs it first).");
        }
        // The driver's path is given, so Selenium never runs Selenium Manager to download one.
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1280,1000", "--lang=en-GB");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        browser = new ChromeDriver(service, options);
        browser.manage().timeouts().scriptTimeout(Duration.ofSeconds(10));
    }

    @AfterEach
    void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void signInDataTableAlertsAndSwitchesWorkInTheBrowser() throws Exception {
        Map<String, String> settings = new HashMap<>();
        settings.put("service.port", "0");
        settings.put("auth.tokens", "olivia:owner:" + OWNER + ",otto:operator:" + OPERATOR + ",vera:viewer:" + VIEWER);
        settings.put("status.refresh-interval", "500ms");
        settings.put("alert.evaluation-interval", "300ms");
        settings.put("billing.provisioned-cu", "0.5");
        settings.put("quota.database-cu", "fluss:3");
        LakeSyncConfig config = serviceConfig("console", settings);
        createTable(orders, idTable(2, "1s"));
        append(orders, ids(0, 200));
        // A freshness of an hour keeps this table's records pending, which the alert scenario needs.
        createTable(clicks, idTable(1, "1h"));
        append(clicks, ids(0, 50));
        // Lake sync off, and deletion vectors with an INT partition key, which Fluss 0.9.1 cannot tier.
        createTable(withDeletionVectors, lakeTable(
                        Schema.newBuilder().column("id", DataTypes.BIGINT()).column("day", DataTypes.INT()).build(), 1, "1s")
                .partitionedBy("day")
                .property("table.datalake.enabled", "false")
                .customProperty("paimon.deletion-vectors.enabled", "true")
                .build());

        try (LakeSyncServer server = LakeSyncServer.start(config)) {
            base = server.url();

            assetsNeedNoTokenAndTheRestStaysClosed();
            wrongTokenIsRefusedWithAMessage();
            viewerSeesEveryTableAsTheApiReportsItWithoutToggles();
            operatorDisablesAndEnablesATable();
            ownerIsRefusedTurningTheServiceOffNamingTheEnabledTable();
            tablePageChartsTheHistory();
            alertRuleCreatedInThePageFiresAndShowsAsActive();
            retainedPageLoads();
            usagePageShowsTheApiFiguresAndQuotasForEachRole();
            phoneWidthHasNoSidewaysScrolling();

            int port = server.port();
            server.close();
            connectionLossIsShownAndRecovers(settings, port);
        }
        assertThat(consoleErrors).as("errors in the browser console").isEmpty();
    }

    private void assetsNeedNoTokenAndTheRestStaysClosed() throws Exception {
        assertThat(http("GET", "/", null).headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/html"));
        assertThat(http("GET", "/console/app.js", null).headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("text/javascript"));
        HttpResponse<String> charts = http("GET", "/console/lib/echarts.min.js", null);
        assertThat(charts.statusCode()).isEqualTo(200);
        assertThat(charts.body()).contains("echarts");
        assertThat(http("GET", "/console/missing.js", null).statusCode()).isEqualTo(404);
        HttpResponse<String> outside = http("GET", "/console/..%2Fserver%2Fopenapi.yaml", null);
        assertThat(outside.statusCode()).as("a file outside the console's folder").isIn(400, 404);
        assertThat(outside.body()).doesNotContain("openapi:");
        assertThat(http("GET", "/api/v1/whoami", null).statusCode()).isEqualTo(401);
        JsonNode operator = api("GET", "/api/v1/whoami", OPERATOR);
        assertThat(operator.get("name").asText()).isEqualTo("otto");
        assertThat(operator.get("role").asText()).isEqualTo("operator");
        assertThat(operator.get("refreshIntervalMs").asLong()).isEqualTo(500);
    }

    private void wrongTokenIsRefusedWithAMessage() throws Exception {
        signIn("not-a-token");
        waitFor("#signin-message");
        eventually(WAIT, () -> assertThat(text("#signin-message")).contains("401"));
        collectConsoleErrors("sign-in with a wrong token", "status of 401");
    }

    private void viewerSeesEveryTableAsTheApiReportsItWithoutToggles() throws Exception {
        signIn(VIEWER);
        waitFor("#who");
        eventually(WAIT, () -> assertThat(text("#who")).contains("vera").contains("viewer"));
        eventually(WAIT, () -> assertThat(browser.findElement(By.id("service-toggle")).getText()).isEqualTo("Turn off"));
        eventually(WAIT, () -> assertThat(browser.findElement(By.id("service-toggle")).isEnabled()).as("service switch for a viewer").isFalse());
        eventually(WAIT, () -> assertThat(text("#total-instances")).contains("1 alive"));
        screenshot("overview");

        open("#/data");
        eventually(WAIT, () -> {
            // Read in one script: the page redraws a row whenever its figures change.
            Map<String, List<String>> rows = new HashMap<>();
            for (Object shown : (List<?>) script("return [...document.querySelectorAll('#tables-body tr[data-table]')]"
                    + ".map(r => [r.dataset.table, r.dataset.state, r.dataset.latencyMs,"
                    + " r.querySelector('.state').textContent, r.querySelector('.latency').textContent]);")) {
                List<String> cells = ((List<?>) shown).stream().map(String::valueOf).toList();
                rows.put(cells.get(0), cells);
            }
            JsonNode tables = api("GET", "/api/v1/tables", VIEWER);
            assertThat(rows).hasSize(tables.size());
            for (JsonNode table : tables) {
                String name = table.get("database").asText() + "." + table.get("table").asText();
                List<String> row = rows.get(name);
                assertThat(row).as(name).isNotNull();
                assertThat(row.get(1)).as(name + " state").isEqualTo(table.get("state").asText());
                assertThat(row.get(3)).as(name + " state shown").contains(table.get("state").asText());
                assertThat(row.get(2)).as(name + " sync latency").isEqualTo(table.get("syncLatencyMs").asText());
                assertThat(row.get(4)).as(name + " sync latency shown").isNotBlank();
            }
        });
        List<?> toggles = (List<?>) script("return [...document.querySelectorAll('.lake-toggle')].map(t => t.disabled);");
        assertThat(toggles).hasSize(3);
        assertThat(toggles).as("toggles a viewer could use").allMatch(Boolean.TRUE::equals);
        collectConsoleErrors("viewer: overview and data");
    }

    private void operatorDisablesAndEnablesATable() throws Exception {
        signIn(OPERATOR);
        open("#/data");
        eventually(WAIT, () -> assertThat(browser.findElements(By.cssSelector(".lake-toggle:enabled"))).hasSize(3));
        screenshot("data");

        clickToggle(withDeletionVectors);
        eventually(WAIT, () -> assertThat(text("#data-message"))
                .startsWith("Cannot enable " + withDeletionVectors).contains("paimon.deletion-vectors.enabled")
                .contains("STRING partition keys").contains("409"));
        assertThat(lakeEnabledProperty(withDeletionVectors)).isEqualTo("false");
        eventually(WAIT, () -> assertThat(toggle(withDeletionVectors).isSelected()).as("refused toggle back off").isFalse());
        collectConsoleErrors("operator: a refused enable", "status of 409");
        WebElement search = waitFor("#table-search");
        search.sendKeys("orders");
        eventually(WAIT, () -> assertThat(browser.findElements(By.cssSelector("#tables-body tr[data-table]"))).hasSize(1));

        clickToggle(orders);
        eventually(WAIT, () -> assertThat(lakeEnabledProperty(orders)).isEqualTo("false"));
        eventually(WAIT, () -> assertThat(row(orders).getAttribute("data-state")).isEqualTo("DISABLED"));
        // The switch answers the browser after Fluss took it: the page says so a moment later on a busy machine.
        eventually(WAIT, () -> assertThat(text("#data-message")).contains("disabled").contains(orders.toString()));
        assertThat(search.getAttribute("value")).as("the search survives the refreshes").isEqualTo("orders");

        clickToggle(orders);
        eventually(WAIT, () -> assertThat(lakeEnabledProperty(orders)).isEqualTo("true"));
        eventually(WAIT, () -> assertThat(text("#data-message")).contains("enabled").contains(orders.toString()));
        append(orders, ids(200, 300));
        awaitTiered(orders);
        assertThat(readLake(orders, "id")).hasSize(300);
        collectConsoleErrors("operator: data page switches");
    }

    private void ownerIsRefusedTurningTheServiceOffNamingTheEnabledTable() throws Exception {
        signIn(OWNER);
        WebElement toggle = waitFor("#service-toggle");
        eventually(WAIT, () -> {
            assertThat(toggle.getText()).isEqualTo("Turn off");
            assertThat(toggle.isEnabled()).isTrue();
        });
        toggle.click();
        eventually(WAIT, () -> assertThat(text("#service-message")).startsWith("Refused").contains(orders.toString()));
        assertThat(text("#service-state")).isEqualTo("ON");
        collectConsoleErrors("owner: service switch refused", "status of 409");
    }

    private void tablePageChartsTheHistory() throws Exception {
        open("#/table/fluss/console_orders");
        eventually(WAIT, () -> {
            List<?> points = chartPoints("chart-latency");
            assertThat(points).hasSizeGreaterThan(2);
            Set<String> history = new HashSet<>();
            for (JsonNode point : apiTable(orders).get("history")) {
                history.add(Instant.parse(point.get("at").asText()).toEpochMilli() + "=" + point.get("syncLatencyMs").asLong());
            }
            for (Object point : points) {
                List<?> xy = (List<?>) point;
                assertThat(history).as("chart point from the API's history").contains(((Number) xy.get(0)).longValue() + "=" + ((Number) xy.get(1)).longValue());
            }
        });
        Object freshnessLine = script("return echarts.getInstanceByDom(document.getElementById('chart-latency'))"
                + ".getOption().series[0].markLine.data[0].yAxis;");
        assertThat(((Number) freshnessLine).longValue()).isEqualTo(1000);
        assertThat(chartPoints("chart-pending")).isNotEmpty();
        assertThat(script("return [...document.querySelectorAll('#buckets tr[data-bucket]')].map(r => r.dataset.bucket);"))
                .as("buckets in their natural order").isEqualTo(List.of("0", "1"));
        assertThat(text("#table-reason")).isNotBlank();
        screenshot("table");
        collectConsoleErrors("table page");
    }

    private void alertRuleCreatedInThePageFiresAndShowsAsActive() throws Exception {
        open("#/alerts");
        WebElement form = waitFor("#rule-form");
        eventually(WAIT, () -> assertThat(String.valueOf(script("return [...document.querySelectorAll('#metrics option')].map(o => o.value).join(' ');")))
                .as("metric suggestions from the catalogue").contains("syncLatencyMs", "pendingRecords", "lakeSnapshotId"));
        form.findElement(By.name("name")).sendKeys("console-backlog");
        WebElement metric = form.findElement(By.name("metric"));
        metric.clear();
        metric.sendKeys("pendingRecords");
        form.findElement(By.name("threshold")).sendKeys("10");
        form.findElement(By.name("tables")).sendKeys(clicks.toString());
        browser.findElement(By.id("rule-save")).click();
        eventually(WAIT, () -> assertThat(text("#rule-message")).isEqualTo("Rule console-backlog saved."));
        assertThat(api("GET", "/api/v1/alerts/rules/console-backlog", VIEWER).get("metric").asText()).isEqualTo("pendingRecords");

        open("#/overview");
        eventually(WAIT, () -> {
            WebElement active = browser.findElement(By.cssSelector("#active-alerts tr[data-rule='console-backlog']"));
            assertThat(active.getAttribute("data-table")).isEqualTo(clicks.toString());
        });
        open("#/alerts");
        eventually(WAIT, () -> assertThat(browser.findElements(
                By.cssSelector("#events-body tr[data-rule='console-backlog'][data-state='FIRING']"))).isNotEmpty());

        // The list is redrawn on every refresh; an open confirmation stays open across redraws.
        eventually(WAIT, () -> browser.findElement(By.cssSelector("#rules-body tr[data-rule='console-backlog'] button.danger")).click());
        eventually(WAIT, () -> browser.findElement(By.cssSelector("#rules-body tr[data-rule='console-backlog'] button.confirm")).click());
        eventually(WAIT, () -> assertThat(http("GET", "/api/v1/alerts/rules/console-backlog", VIEWER).statusCode()).isEqualTo(404));
        collectConsoleErrors("alerts");
    }

    private void retainedPageLoads() throws Exception {
        open("#/retained");
        eventually(WAIT, () -> assertThat(text("#retained-body")).contains("No retained lake tables."));
        collectConsoleErrors("retained lake tables");
    }

    private void usagePageShowsTheApiFiguresAndQuotasForEachRole() throws Exception {
        open("#/usage");
        eventually(WAIT, () -> assertThat(usageKeysShown()).isEqualTo(usageKeys("table")).contains(orders.toString()));
        assertThat(text("#usage-provisioned-cu")).startsWith("Provisioned capacity: 0.5 CU");
        assertThat(text("#usage-cluster-quota")).contains("at most 1,000 CUs");
        assertThat(text("#usage-database-quota")).contains("fluss").contains("3");
        assertThat(text("#usage-quota-hint")).contains("quota.cluster-cu").contains("billing.provisioned-cu");
        screenshot("usage");

        new Select(browser.findElement(By.id("usage-by"))).selectByValue("database");
        eventually(WAIT, () -> assertThat(usageKeysShown()).isEqualTo(usageKeys("database")).containsExactly("fluss", "total"));
        collectConsoleErrors("owner: usage");

        signIn(VIEWER);
        open("#/usage");
        eventually(WAIT, () -> assertThat(usageKeysShown()).isEqualTo(usageKeys("table")));
        assertThat(text("#usage-quota-hint")).isEqualTo("An owner changes these in the service configuration.");
        collectConsoleErrors("viewer: usage");
    }

    /** The rows of the usage page, then its total, by key. */
    private List<String> usageKeysShown() {
        return ((List<?>) script("return [...document.querySelectorAll('#usage-body tr[data-key]')].map(r => r.dataset.key);"))
                .stream().map(String::valueOf).toList();
    }

    /** What the API reports for the page's period (the last 24 hours): each line's key, then the total's. */
    private List<String> usageKeys(String by) throws Exception {
        List<String> keys = new ArrayList<>();
        JsonNode report = api("GET", "/api/v1/usage?by=" + by, VIEWER);
        report.get("lines").forEach(line -> keys.add(line.get("key").asText()));
        keys.add(report.get("total").get("key").asText());
        return keys;
    }

    private void phoneWidthHasNoSidewaysScrolling() throws Exception {
        browser.manage().window().setSize(new Dimension(390, 844));
        open("#/data");
        waitFor("#tables-body tr[data-table]");
        Object overflow = script("return document.documentElement.scrollWidth - window.innerWidth;");
        assertThat(((Number) overflow).longValue()).as("page wider than a phone").isLessThanOrEqualTo(0);
        collectConsoleErrors("phone width");
    }

    private void connectionLossIsShownAndRecovers(Map<String, String> settings, int port) throws Exception {
        eventually(WAIT, () -> assertThat(text("#connection-banner")).startsWith("Lost connection"));
        Map<String, String> samePort = new HashMap<>(settings);
        samePort.put("service.port", Integer.toString(port));
        try (LakeSyncServer restarted = LakeSyncServer.start(serviceConfig("console", samePort))) {
            eventually(WAIT, () -> assertThat(browser.findElement(By.id("connection-banner")).isDisplayed()).isFalse());
            // The restarted service lists the tables once its first status refresh is done.
            eventually(WAIT, () -> assertThat(browser.findElements(By.cssSelector("#tables-body tr[data-table]"))).hasSize(3));
        }
        collectConsoleErrors("connection lost and back", "ERR_CONNECTION_REFUSED");
    }

    // --- helpers

    /** Signs out through the page (which stops its refresh loop at once), then signs in with the token on the overview. */
    private void signIn(String token) throws Exception {
        if (!browser.getCurrentUrl().startsWith(base.toString())) {
            browser.get(base + "/");
        }
        eventually(WAIT, () -> {
            WebElement signOut = browser.findElement(By.id("sign-out"));
            if (signOut.isDisplayed()) {
                signOut.click();
            }
            assertThat(browser.findElements(By.id("token"))).as("sign-in form").hasSize(1);
        });
        open("#/overview");
        WebElement field = waitFor("#token");
        field.sendKeys(token);
        browser.findElement(By.id("sign-in")).click();
    }

    private void open(String hash) {
        script("location.hash = arguments[0];", hash);
    }

    private void clickToggle(TablePath path) throws Exception {
        eventually(WAIT, () -> {
            WebElement toggle = toggle(path);
            assertThat(toggle.isEnabled()).isTrue();
            toggle.click();
        });
    }

    private WebElement toggle(TablePath path) {
        return row(path).findElement(By.cssSelector(".lake-toggle"));
    }

    private WebElement row(TablePath path) {
        return browser.findElement(By.cssSelector("#tables-body tr[data-table='" + path + "']"));
    }

    private List<?> chartPoints(String chart) {
        return (List<?>) script("const chart = echarts.getInstanceByDom(document.getElementById(arguments[0]));"
                + "return chart ? chart.getOption().series[0].data : [];", chart);
    }

    private WebElement waitFor(String css) throws Exception {
        WebElement[] found = new WebElement[1];
        eventually(WAIT, () -> {
            List<WebElement> elements = browser.findElements(By.cssSelector(css));
            assertThat(elements).as(css).isNotEmpty();
            assertThat(elements.get(0).isDisplayed()).as(css + " shown").isTrue();
            found[0] = elements.get(0);
        });
        return found[0];
    }

    /** Read in one script call: the page redraws on every refresh, so a found element can go stale before getText. */
    private String text(String css) {
        Object text = script("const element = document.querySelector(arguments[0]);"
                + "return element ? element.innerText.trim() : null;", css);
        assertThat(text).as(css).isNotNull();
        return (String) text;
    }

    private Object script(String script, Object... arguments) {
        return ((JavascriptExecutor) browser).executeScript(script, arguments);
    }

    private void screenshot(String name) throws Exception {
        Path folder = repositoryRoot().resolve("docs").resolve("console");
        Files.createDirectories(folder);
        Files.write(folder.resolve(name + ".png"), ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
    }

    private static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("mvnw"))) {
            dir = dir.getParent();
        }
        return dir == null ? Path.of("").toAbsolutePath() : dir;
    }

    /** Errors the page logged since the last call, except network errors this step expects (such as a refused switch). */
    private void collectConsoleErrors(String step, String... expectedNetworkErrors) {
        for (LogEntry entry : browser.manage().logs().get(LogType.BROWSER)) {
            if (entry.getLevel().intValue() < Level.SEVERE.intValue()) {
                continue;
            }
            boolean expected = false;
            for (String allowed : expectedNetworkErrors) {
                expected |= entry.getMessage().contains("Failed to load resource") && entry.getMessage().contains(allowed);
            }
            if (!expected) {
                consoleErrors.add(step + ": " + entry.getMessage());
            }
        }
    }

    private String lakeEnabledProperty(TablePath path) throws Exception {
        return admin.getTableInfo(path).get().getProperties().toMap().get("table.datalake.enabled");
    }

    private JsonNode apiTable(TablePath path) throws Exception {
        return api("GET", "/api/v1/tables/" + path.getDatabaseName() + "/" + path.getTableName(), VIEWER);
    }

    private JsonNode api(String method, String path, String token) throws Exception {
        HttpResponse<String> response = http(method, path, token);
        assertThat(response.statusCode()).as(method + " " + path + ": " + response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private HttpResponse<String> http(String method, String path, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).method(method, HttpRequest.BodyPublishers.noBody());
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
