package dev.baton.system;

import dev.baton.testkit.Behavior;
import jakarta.json.JsonObject;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The operator console in a real browser (Debian's headless Chromium, driven by Selenium) against the sample with the
 * console on: the page opens with the admin key and shows only the sign-in without it, shows an ejection within
 * seconds of it happening on the simulator, and its eject button takes a connection out. Screenshots go to
 * {@code target/console-screenshots/}.
 */
class ConsoleIT extends ClientSideIT {

    private static final String CHROMIUM = System.getProperty("baton.chromium", "/usr/bin/chromium");
    private static final String CHROMEDRIVER = System.getProperty("baton.chromedriver", "/usr/bin/chromedriver");
    private static final Duration SECONDS = Duration.ofSeconds(10);

    private static WebDriver browser;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.sample("baton-it-console.war")
                .addClasses(ConsoleConfig.class, DeploymentConfig.class, CostConfig.class)
                .addAsServiceProvider(ConfigSource.class, ConsoleConfig.class);
    }

    @BeforeAll
    static void openBrowser() {
        if (!new File(CHROMIUM).canExecute() || !new File(CHROMEDRIVER).canExecute()) {
            throw new IllegalStateException("The console's browser tests need Debian's chromium and chromium-driver ("
                    + CHROMIUM + ", " + CHROMEDRIVER + "): apt-get install -y chromium chromium-driver (.ci/run does)");
        }
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM)
                .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1000");
        // The driver named outright: Selenium Manager would try to download one.
        browser = new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(new File(CHROMEDRIVER))
                .build(), options);
    }

    @AfterAll
    static void closeBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @BeforeEach
    void signedOutWithEveryAccountInRotation() {
        gateway.restoreConnections();
        browser.get(gateway.uri("v1/console").toString());
        ((org.openqa.selenium.JavascriptExecutor) browser).executeScript("sessionStorage.clear()");
        browser.navigate().refresh();
    }

    @Test
    void withoutTheAdminKeyThereIsOnlyTheSignIn() {
        WebElement login = until(ExpectedConditions.visibilityOfElementLocated(By.id("login")));
        assertTrue(login.isDisplayed());
        assertFalse(visible(By.id("console")), "nothing but the sign-in before a key");
        HttpResponse<String> data = gateway.send(HttpRequest.newBuilder(gateway.uri("v1/console/series"))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(401, data.statusCode(), data::body);
        HttpResponse<String> withGatewayKey = gateway.get("v1/console/spend");
        assertEquals(403, withGatewayKey.statusCode(), "a gateway key does not open the console's data");

        signIn(Gateway.KEY); // a gateway key is not the admin key
        until(ExpectedConditions.visibilityOfElementLocated(By.id("login-error")));
        assertFalse(visible(By.id("console")));
        screenshot("console-sign-in");

        signIn(Gateway.ADMIN_KEY);
        until(ExpectedConditions.visibilityOfElementLocated(By.id("console")));
        until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("[data-connection=primary]")));
    }

    @Test
    void anEjectionOnTheSimulatorShowsWithinSeconds() {
        signIn(Gateway.ADMIN_KEY);
        WebElement state = until(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("[data-connection=primary] [data-field=state]")));
        assertFalse(state.getText().toLowerCase().contains("ejected"), state.getText());

        simulator.account("primary").setDefault(Behavior.serverError());
        for (int i = 0; i < 3; i++) { // eject-after=3; each is served by the standby
            assertEquals(200, gateway.postChat(Gateway.chatBody("demo", false)).statusCode());
        }
        assertEquals("ejected", gateway.admin("v1/connections/primary").getString("state"));

        until(ExpectedConditions.textMatches(By.cssSelector("[data-connection=primary] [data-field=state]"),
                java.util.regex.Pattern.compile("(?i).*ejected.*")));
        screenshot("console-ejected");
    }

    @Test
    void theEjectButtonTakesAConnectionOut() {
        signIn(Gateway.ADMIN_KEY);
        WebElement eject = until(ExpectedConditions.elementToBeClickable(
                By.cssSelector("[data-connection=standby] [data-action=eject]")));
        eject.click();
        WebElement reason = until(ExpectedConditions.visibilityOfElementLocated(By.id("eject-reason")));
        reason.clear();
        reason.sendKeys("console test");
        WebElement duration = browser.findElement(By.id("eject-for"));
        duration.clear();
        duration.sendKeys("5m");
        screenshot("console-eject-form");
        browser.findElement(By.id("eject-confirm")).click();

        new WebDriverWait(browser, SECONDS).until(b -> "ejected".equals(
                gateway.admin("v1/connections/standby").getString("state")));
        JsonObject standby = gateway.admin("v1/connections/standby");
        assertEquals("operator", standby.getString("ejected_by"));
        assertEquals("console test", standby.getString("eject_reason"));
        until(ExpectedConditions.textMatches(By.cssSelector("[data-connection=standby] [data-field=state]"),
                java.util.regex.Pattern.compile("(?i).*ejected.*")));
    }

    private void signIn(String key) {
        WebElement field = until(ExpectedConditions.visibilityOfElementLocated(By.id("admin-key")));
        field.clear();
        field.sendKeys(key);
        browser.findElement(By.id("sign-in")).click();
    }

    private static <T> T until(org.openqa.selenium.support.ui.ExpectedCondition<T> condition) {
        return new WebDriverWait(browser, SECONDS).until(condition);
    }

    private static boolean visible(By by) {
        return browser.findElements(by).stream().anyMatch(WebElement::isDisplayed);
    }

    private static void screenshot(String name) {
        try {
            Path dir = Path.of("target", "console-screenshots");
            Files.createDirectories(dir);
            File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
            Files.copy(shot.toPath(), dir.resolve(name + "-" + System.getProperty("baton.server", "server") + ".png"),
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
