package dev.baton.impl.balance;

import dev.baton.FailureKind;
import dev.baton.impl.concurrent.Ticker;
import dev.baton.impl.config.Balance;
import dev.baton.impl.config.BatonConfig.BalanceSettings;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.random.RandomGenerator;

/**
 * Orders the usable targets of one pool (a route's tier, or a model's connections) by the
 * pool's strategy, and keeps what the strategies read: each target's attempts in flight and its
 * recent outcomes. The first target of the order is the pick; the rest follow in the same order
 * when it fails. Time is the engine's ticker and randomness the engine's generator, so tests
 * run it on virtual time with a seeded generator. One per engine; thread-safe.
 */
public final class Balancer {

    /**
     * A target's share in a pool as last applied, with what it was computed from.
     *
     * @param errorRate     the fault rate over the window, {@code -1} when too few attempts
     * @param latencyMillis the mean latency of its successes over the window, {@code -1} when too few
     */
    public record Share(Pool pool, Balance balance, String target, double share, double errorRate,
                        long latencyMillis) {
    }

    private final BalanceSettings settings;
    private final Ticker ticker;
    private final RandomGenerator random;
    private final Map<String, TargetLoad> loads = new ConcurrentHashMap<>();
    private final Map<Pool, PoolState> pools = new ConcurrentHashMap<>();

    public Balancer(BalanceSettings settings, Ticker ticker, RandomGenerator random) {
        this.settings = settings;
        this.ticker = ticker;
        this.random = random;
    }

    // What the engine reports.

    /** An attempt on {@code target} ({@code connection/model}) started. */
    public void started(String target) {
        load(target).started();
    }

    /**
     * An attempt on {@code target} ended.
     *
     * @param failure      why it failed, or {@code null} when it served
     * @param latencyNanos how long it took to serve (a stream: to its first output); ignored on failure
     */
    public void ended(String target, FailureKind failure, long latencyNanos) {
        load(target).ended(ticker.nanos(), failure != null && isFault(failure), failure == null ? latencyNanos : null);
    }

    /** An attempt on {@code target} ended because its caller went away: only its slot is given back. */
    public void abandoned(String target) {
        load(target).abandoned();
    }

    /** The failures that count against a target's share: those that count toward its ejection. */
    static boolean isFault(FailureKind kind) {
        return switch (kind) {
            case CONNECTION, TIMEOUT, SERVER_ERROR, CREDENTIAL -> true;
            default -> false;
        };
    }

    // What the planner asks.

    /**
     * The usable targets of {@code pool} in the order to try them.
     *
     * @param members    the pool's targets usable now, in configured order
     * @param name       a member's target name, {@code connection/model}
     * @param weight     a member's configured weight
     * @param sessionKey the caller's key for {@link Balance#STICKY}, or {@code null}
     */
    public <T> List<T> order(Balance balance, Pool pool, List<T> members, Function<T, String> name,
                             ToIntFunction<T> weight, String sessionKey) {
        if (balance == Balance.PRIORITY || members.isEmpty()) {
            return members;
        }
        List<String> names = members.stream().map(name).toList();
        names.forEach(n -> load(n).keepOutcomes());
        return switch (balance) {
            case LEAST_BUSY -> leastBusy(members, names);
            case STICKY -> sessionKey == null ? weighted(members, applied(pool, balance, names,
                    normalise(weights(members, weight)))) : sticky(members, names, weight, sessionKey);
            case WEIGHTED -> weighted(members, applied(pool, balance, names, normalise(weights(members, weight))));
            case ADAPTIVE -> weighted(members, applied(pool, balance, names, adaptiveShares(pool, members, names, weight)));
            case PRIORITY -> members;
        };
    }

    /** Every pool's shares as last applied (weighted, adaptive, and sticky without a key); a target not usable then has 0. */
    public List<Share> shares() {
        long now = ticker.nanos();
        List<Share> result = new ArrayList<>();
        pools.forEach((pool, state) -> {
            Map<String, Double> shares = state.shares;
            for (String target : state.seen) {
                TargetLoad.Window w = load(target).window(now);
                result.add(new Share(pool, state.balance, target, shares.getOrDefault(target, 0.0), w.errorRate(),
                        w.meanLatency() < 0 ? -1 : w.meanLatency() / 1_000_000));
            }
        });
        result.sort(Comparator.comparing((Share s) -> s.pool().toString()).thenComparing(Share::target));
        return result;
    }

    /** Attempts in flight on {@code target}. */
    public int inFlight(String target) {
        TargetLoad load = loads.get(target);
        return load == null ? 0 : load.inFlight();
    }

    // The strategies.

    private <T> List<T> leastBusy(List<T> members, List<String> names) {
        // Shuffled first, so that ties (an idle pool) spread instead of all going to the first target.
        List<Integer> indices = shuffledIndices(members.size());
        indices.sort(Comparator.comparingInt(i -> load(names.get(i)).inFlight()));
        return indices.stream().map(members::get).toList();
    }

    /**
     * Weighted rendezvous hashing: every target scores {@code -weight / ln(hash(key, target))} and
     * the highest wins. A key keeps its target while that target is usable; when it is not, only
     * the keys it held move, and they come back when it does. The hash is the same in every JVM,
     * so every instance of an application sends a key to the same target.
     */
    private <T> List<T> sticky(List<T> members, List<String> names, ToIntFunction<T> weight, String key) {
        List<Integer> indices = new ArrayList<>();
        double[] scores = new double[members.size()];
        for (int i = 0; i < members.size(); i++) {
            indices.add(i);
            scores[i] = rendezvousScore(key, names.get(i), weight.applyAsInt(members.get(i)));
        }
        indices.sort(Comparator.comparingDouble((Integer i) -> scores[i]).reversed());
        return indices.stream().map(members::get).toList();
    }

    static double rendezvousScore(String key, String target, int weight) {
        long h = mix(fnv1a(key + '\u0000' + target));
        double unit = ((h >>> 11) + 0.5) / (1L << 53); // in (0, 1)
        return -weight / Math.log(unit);
    }

    /** A permutation drawn without replacement in proportion to {@code shares}: the pick, then the rest. */
    private <T> List<T> weighted(List<T> members, double[] shares) {
        List<T> order = new ArrayList<>(members.size());
        List<Integer> left = new ArrayList<>();
        for (int i = 0; i < members.size(); i++) {
            left.add(i);
        }
        while (!left.isEmpty()) {
            double total = 0;
            for (int i : left) {
                total += shares[i];
            }
            double r = random.nextDouble() * total;
            int chosen = left.get(left.size() - 1);
            for (int i : left) {
                r -= shares[i];
                if (r < 0) {
                    chosen = i;
                    break;
                }
            }
            order.add(members.get(chosen));
            left.remove(Integer.valueOf(chosen));
        }
        return order;
    }

    /**
     * The adaptive shares of {@code members}: each target's weight times an error factor and a
     * latency factor, recomputed at most once per interval, then the minimum share for every one.
     * The error rate is the first signal: 1 − 4 × (its rate − the best peer's), so 20 points worse
     * keeps a fifth, 25 points worse only the minimum. Latency then costs a target
     * (1.2 × fastest peer / its own)², when that is below 1: three times slower keeps about a sixth.
     */
    private <T> double[] adaptiveShares(Pool pool, List<T> members, List<String> names, ToIntFunction<T> weight) {
        PoolState state = state(pool, Balance.ADAPTIVE);
        long now = ticker.nanos();
        double[] scores = new double[members.size()];
        synchronized (state) {
            boolean stale = now - state.computedAt >= settings.interval().toNanos() || state.scores.isEmpty()
                    || !state.scores.keySet().containsAll(names);
            if (stale) {
                state.scores = scores(members, names, weight, now);
                state.computedAt = now;
            }
            for (int i = 0; i < names.size(); i++) {
                scores[i] = state.scores.get(names.get(i));
            }
        }
        return withMinimum(normalise(scores), settings.minShare());
    }

    private <T> Map<String, Double> scores(List<T> members, List<String> names, ToIntFunction<T> weight, long now) {
        List<TargetLoad.Window> windows = names.stream().map(n -> load(n).window(now)).toList();
        double bestRate = windows.stream().mapToDouble(TargetLoad.Window::errorRate).filter(r -> r >= 0).min().orElse(0);
        long fastest = windows.stream().mapToLong(TargetLoad.Window::meanLatency).filter(l -> l > 0).min().orElse(-1);
        Map<String, Double> scores = new LinkedHashMap<>();
        for (int i = 0; i < members.size(); i++) {
            TargetLoad.Window w = windows.get(i);
            double errors = w.errorRate() < 0 ? 1 : Math.max(0, 1 - 4 * (w.errorRate() - bestRate));
            double latency = 1;
            if (fastest > 0 && w.meanLatency() > 0) {
                double ratio = Math.min(1, 1.2 * fastest / w.meanLatency());
                latency = ratio * ratio;
            }
            scores.put(names.get(i), weight.applyAsInt(members.get(i)) * errors * latency);
        }
        return scores;
    }

    /** Shares summing to 1 (equal ones when every value is 0). */
    static double[] normalise(double[] values) {
        double total = 0;
        for (double v : values) {
            total += v;
        }
        double[] shares = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            shares[i] = total > 0 ? values[i] / total : 1.0 / values.length;
        }
        return shares;
    }

    /**
     * Raises every share below {@code min} to it and takes the difference from the others in
     * proportion to theirs, so every usable target keeps being measured. Equal shares when the
     * minimums alone would fill the whole.
     */
    static double[] withMinimum(double[] shares, double min) {
        int n = shares.length;
        if (n * min >= 1) {
            double[] equal = new double[n];
            java.util.Arrays.fill(equal, 1.0 / n);
            return equal;
        }
        double[] result = shares.clone();
        boolean[] floored = new boolean[n];
        for (int round = 0; round < n; round++) {
            int count = 0;
            double rest = 0;
            for (int i = 0; i < n; i++) {
                if (floored[i] || result[i] < min) {
                    floored[i] = true;
                    count++;
                } else {
                    rest += result[i];
                }
            }
            double left = 1 - count * min;
            boolean changed = false;
            for (int i = 0; i < n; i++) {
                double next = floored[i] ? min : rest > 0 ? result[i] / rest * left : left / (n - count);
                changed |= next < min && !floored[i];
                result[i] = next;
            }
            if (!changed) {
                break;
            }
        }
        return result;
    }

    private <T> double[] weights(List<T> members, ToIntFunction<T> weight) {
        double[] w = new double[members.size()];
        for (int i = 0; i < w.length; i++) {
            w[i] = weight.applyAsInt(members.get(i));
        }
        return w;
    }

    /** Notes the shares applied in {@code pool}, for operators; returns them. */
    private double[] applied(Pool pool, Balance balance, List<String> names, double[] shares) {
        PoolState state = state(pool, balance);
        Map<String, Double> now = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            now.put(names.get(i), shares[i]);
        }
        if (!now.equals(state.shares)) {
            state.seen.addAll(names);
            state.shares = Map.copyOf(now);
        }
        return shares;
    }

    private List<Integer> shuffledIndices(int n) {
        List<Integer> indices = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            indices.add(i);
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            indices.set(j, indices.set(i, indices.get(j)));
        }
        return indices;
    }

    private TargetLoad load(String target) {
        return loads.computeIfAbsent(target, t -> {
            long bucket = settings.interval().toNanos();
            int buckets = (int) Math.max(1, (settings.window().toNanos() + bucket - 1) / bucket);
            return new TargetLoad(bucket, buckets);
        });
    }

    private PoolState state(Pool pool, Balance balance) {
        PoolState state = pools.computeIfAbsent(pool, p -> new PoolState(balance));
        state.balance = balance;
        return state;
    }

    private static long fnv1a(String s) {
        long h = 0xcbf29ce484222325L;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return h;
    }

    /** SplitMix64's finaliser: spreads FNV's weak low bits over the whole word. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /** A pool's last shares; adaptive pools also their scores and when they were computed. */
    private static final class PoolState {
        volatile Balance balance;
        volatile Map<String, Double> shares = Map.of();
        final Set<String> seen = ConcurrentHashMap.newKeySet();
        Map<String, Double> scores = Map.of();
        long computedAt;

        PoolState(Balance balance) {
            this.balance = balance;
        }
    }
}
