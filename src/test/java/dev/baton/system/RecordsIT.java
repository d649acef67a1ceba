package dev.baton.system;

import dev.baton.ChatRequest;
import dev.baton.ChatResponse;
import dev.baton.FailoverChatService;
import dev.baton.impl.cdi.BatonChatService;
import dev.baton.impl.record.jdbc.JdbcRecordStore;
import dev.baton.record.RequestRecord;
import dev.baton.testkit.Behavior;
import dev.baton.testkit.ProviderSimulator;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import javax.naming.InitialContext;
import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Inside the server: request records written by the JDBC store to the server's default
 * DataSource (PostgreSQL under Liberty here, the embedded H2 under WildFly), read back with plain
 * SQL, and a load run in which no record is lost.
 */
@ExtendWith(ArquillianExtension.class)
class RecordsIT {

    @Inject
    FailoverChatService chat;

    @Inject
    BatonChatService service;

    @Deployment
    static WebArchive deployment() {
        return Deployments.sample("baton-it-records.war")
                .addClasses(RecordsIT.class, Deployments.class, Ports.class, RecordsConfig.class, DeploymentConfig.class)
                .addAsServiceProvider(ConfigSource.class, RecordsConfig.class);
    }

    @Test
    void aRecoveredRequestIsInTheDatabaseWithEveryAttempt() throws Exception {
        try (ProviderSimulator sim = ProviderSimulator.start(Ports.simulator())) {
            sim.account("primary").enqueue(Behavior.serverError(), Behavior.overloaded());

            ChatResponse answer = chat.complete(ChatRequest.of("demo", "Say hello."));

            assertEquals("standby", answer.servedBy().connection());
            JdbcRecordStore store = (JdbcRecordStore) service.recordStore();
            assertTrue(store.flush(Duration.ofSeconds(10)), "written within 10 s");
            List<String> attempts = query("SELECT connection, http_status, kind FROM " + RecordsConfig.PREFIX
                    + "attempts WHERE request_id = ? ORDER BY seq", answer.requestId());
            assertEquals(List.of("primary|500|server_error", "primary|503|server_error", "standby|200|null"), attempts);
            assertEquals(List.of("ok|standby_a|demo"), query("SELECT status, served_position, route_name FROM "
                    + RecordsConfig.PREFIX + "requests WHERE id = ?", answer.requestId()));
            RequestRecord record = chat.findRecord(answer.requestId()).orElseThrow();
            assertEquals(3, record.attempts().size());
        }
    }

    @Test
    void tenThousandRequestsLeaveTenThousandRecords() throws Exception {
        JdbcRecordStore store = (JdbcRecordStore) service.recordStore();
        try (ProviderSimulator sim = ProviderSimulator.start(Ports.simulator())) {
            long writtenBefore = store.written();
            long droppedBefore = store.dropped();
            long failedBefore = store.failed();
            int total = 10_000;
            Semaphore inFlight = new Semaphore(32);
            List<CompletableFuture<ChatResponse>> answers = new ArrayList<>(total);
            long started = System.nanoTime();
            String since = String.valueOf(System.currentTimeMillis());
            for (int i = 0; i < total; i++) {
                inFlight.acquire();
                CompletableFuture<ChatResponse> answer = chat.completeAsync(ChatRequest.of("demo", "n" + i))
                        .toCompletableFuture();
                answer.whenComplete((r, e) -> inFlight.release());
                answers.add(answer);
            }
            CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);
            assertTrue(store.flush(Duration.ofSeconds(60)), "all written within 60 s");
            long tookMs = (System.nanoTime() - started) / 1_000_000;

            assertEquals(0, store.dropped() - droppedBefore, "dropped");
            assertEquals(0, store.failed() - failedBefore, "failed");
            assertEquals(total, store.written() - writtenBefore, "written");
            assertEquals(List.of(String.valueOf(total)), query("SELECT COUNT(*) FROM " + RecordsConfig.PREFIX
                    + "requests WHERE started_at >= CAST(? AS BIGINT)", since), "rows in the database");
            System.out.println("RecordsIT: " + total + " requests and their records in " + tookMs + " ms");
        }
    }

    private static List<String> query(String sql, String... params) throws Exception {
        DataSource ds = (DataSource) new InitialContext().lookup("java:comp/DefaultDataSource");
        try (Connection c = ds.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                s.setString(i + 1, params[i]);
            }
            List<String> rows = new ArrayList<>();
            try (ResultSet r = s.executeQuery()) {
                int columns = r.getMetaData().getColumnCount();
                while (r.next()) {
                    StringBuilder row = new StringBuilder();
                    for (int col = 1; col <= columns; col++) {
                        row.append(col > 1 ? "|" : "").append(r.getString(col));
                    }
                    rows.add(row.toString());
                }
            }
            return rows;
        }
    }
}
