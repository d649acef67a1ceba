package dev.baton.impl.budget;

import dev.baton.impl.config.Budget;

import java.time.Instant;
import java.util.Objects;

/**
 * Something with a budget: a named gateway key, a route, or a connection. Immutable.
 *
 * @param scope  what kind of thing it is
 * @param name   its configured name
 * @param budget how much it may spend per period
 */
public record Account(Scope scope, String name, Budget budget) {

    /** What a budget limits; the records say which column holds each (caller, route, serving connection). */
    public enum Scope {
        KEY("key"), ROUTE("route"), CONNECTION("connection");

        private final String word;

        Scope(String word) {
            this.word = word;
        }

        /** {@code key}, {@code route}, {@code connection}: as messages and keys in a shared store name it. */
        public String word() {
            return word;
        }
    }

    public Account {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(budget, "budget");
    }

    /** {@code key:alice}: unique among accounts, and the stem of its tally's key in a shared store. */
    public String id() {
        return scope.word() + ":" + name;
    }

    /** The start of the budget period {@code at} falls in, in milliseconds: a tally counts one period. */
    long periodStart(Instant at) {
        return budget.periodStart(at).toEpochMilli();
    }

    /** For messages: {@code the key `alice`}. */
    String describe() {
        return "the " + scope.word() + " `" + name + "`";
    }
}
