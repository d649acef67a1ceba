package dev.baton.impl.servlet;

import dev.baton.impl.balance.Balancer;
import dev.baton.impl.balance.Pool;
import dev.baton.impl.concurrent.VirtualTime;
import dev.baton.impl.config.Balance;
import dev.baton.impl.config.BatonConfig.BalanceSettings;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What {@code GET {path}/connections} adds for balancing: attempts in flight and shares. */
class BalanceViewTest {

    @Test
    void aConnectionShowsItsAttemptsInFlightAndItsShareInEachBalancedTier() {
        Balancer balancer = new Balancer(BalanceSettings.DEFAULT, new VirtualTime(), new Random(1));
        balancer.order(Balance.WEIGHTED, Pool.tier("chat", 1), List.of("a/m", "b/m"), t -> t,
                t -> t.startsWith("a") ? 3 : 1, null);
        balancer.order(Balance.ADAPTIVE, Pool.model("n"), List.of("a/n", "b/n"), t -> t, t -> 1, null);
        balancer.started("a/m");
        JsonObject connection = jakarta.json.Json.createObjectBuilder().add("connection", "a")
                .add("models", jakarta.json.Json.createArrayBuilder().add("m").add("n")).build();

        JsonObject view = Json.withBalance(connection, balancer);

        assertEquals(1, view.getInt("in_flight"));
        assertEquals(1, view.getJsonObject("in_flight_by_model").getInt("m"));
        assertEquals(2, view.getJsonArray("shares").size());
        JsonObject tier = view.getJsonArray("shares").getJsonObject(0);
        assertEquals("chat", tier.getString("route"));
        assertEquals(1, tier.getInt("tier"));
        assertEquals("m", tier.getString("model"));
        assertEquals("weighted", tier.getString("balance"));
        assertEquals(0.75, tier.getJsonNumber("share").doubleValue());
        assertEquals(true, tier.isNull("error_rate"), "too few attempts to say");
        JsonObject model = view.getJsonArray("shares").getJsonObject(1);
        assertEquals(true, model.isNull("route"));
        assertEquals("adaptive", model.getString("balance"));
        assertEquals(0.5, model.getJsonNumber("share").doubleValue());
    }
}
