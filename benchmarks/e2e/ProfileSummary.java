import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Where the server's CPU went: each sample is charged to the nearest frame (from the top of its stack) that is not the
 * JDK's own or native code, and counted by component. A sample entirely inside the JDK (or native code) counts as
 * such. Then the top methods charged to Baton.
 *
 * <p>From JFR recordings of the runs through Baton: {@code ProfileSummary recording.jfr...}. From async-profiler's
 * collapsed stacks of the runs through Baton and through the Netty relay, named {@code <round>-<case>-<side>.collapsed},
 * each with the requests its run served: {@code ProfileSummary 1-closed-sse-baton.collapsed=141931 ...}; then each
 * case's samples per 1,000 requests, Baton and the relay side by side.
 */
public class ProfileSummary {

    /** Package prefixes, first match wins. */
    private static final Map<String, String> COMPONENTS = new LinkedHashMap<>();

    static {
        COMPONENTS.put("dev.baton.impl.http.", "Baton HTTP client code");
        COMPONENTS.put("dev.baton.impl.servlet.", "Baton servlet");
        COMPONENTS.put("dev.baton.impl.engine.", "Baton engine");
        COMPONENTS.put("dev.baton.", "Baton, other");
        COMPONENTS.put("org.eclipse.parsson.", "Parsson (JSON-P)");
        COMPONENTS.put("io.netty.", "Netty (the HTTP client)");
        COMPONENTS.put("org.jboss.weld.", "Weld (CDI)");
        COMPONENTS.put("com.ibm.", "Open Liberty");
        COMPONENTS.put("io.openliberty.", "Open Liberty");
        COMPONENTS.put("org.eclipse.osgi.", "OSGi (Liberty class loading)");
        COMPONENTS.put("io.undertow.", "Undertow (WildFly)");
        COMPONENTS.put("org.xnio.", "XNIO (WildFly)");
        COMPONENTS.put("org.jboss.", "JBoss/WildFly");
        COMPONENTS.put("org.wildfly.", "JBoss/WildFly");
        COMPONENTS.put("io.smallrye.", "SmallRye");
        COMPONENTS.put("io.opentelemetry.", "OpenTelemetry");
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].contains(".collapsed=")) {
            collapsed(args);
            return;
        }
        Map<String, Integer> byComponent = new TreeMap<>();
        Map<String, Integer> batonMethods = new TreeMap<>();
        int total = 0;
        List<RecordedEvent> events = new ArrayList<>();
        for (String file : args) {
            events.addAll(RecordingFile.readAllEvents(Path.of(file)));
        }
        for (RecordedEvent event : events) {
            if (!event.getEventType().getName().equals("jdk.ExecutionSample") || event.getStackTrace() == null) {
                continue;
            }
            total++;
            String component = "JDK";
            for (RecordedFrame frame : event.getStackTrace().getFrames()) {
                String type = frame.getMethod().getType().getName();
                if (isJdk(type)) {
                    continue;
                }
                component = componentOf(type);
                if (type.startsWith("dev.baton.")) {
                    batonMethods.merge(type.substring(type.lastIndexOf('.') + 1) + "." + frame.getMethod().getName(),
                            1, Integer::sum);
                }
                break;
            }
            byComponent.merge(component, 1, Integer::sum);
        }
        System.out.printf("%d execution samples%n%n| where | samples | share |%n|---|---:|---:|%n", total);
        print(byComponent, total, 12);
        System.out.printf("%n| Baton method (nearest non-JDK frame) | samples | share |%n|---|---:|---:|%n");
        print(batonMethods, total, 12);
    }

    /** Samples per 1,000 requests by component and by Baton method, for each case: Baton's runs beside the relay's. */
    private static void collapsed(String[] args) throws IOException {
        // case -> side (baton, nettyrelay) -> its samples over every round
        Map<String, Map<String, Side>> cases = new TreeMap<>();
        for (String arg : args) {
            String file = arg.substring(0, arg.lastIndexOf('='));
            String name = Path.of(file).getFileName().toString().replace(".collapsed", "");
            String side = name.substring(name.lastIndexOf('-') + 1);
            String kase = name.substring(name.indexOf('-') + 1, name.lastIndexOf('-'));
            Side s = cases.computeIfAbsent(kase, k -> new TreeMap<>()).computeIfAbsent(side, k -> new Side());
            s.requests += Long.parseLong(arg.substring(arg.lastIndexOf('=') + 1));
            for (String line : Files.readAllLines(Path.of(file))) {
                int space = line.lastIndexOf(' ');
                if (space < 0) {
                    continue;
                }
                String[] frames = line.substring(0, space).split(";");
                long samples = Long.parseLong(line.substring(space + 1));
                String component = "JDK or native";
                for (int i = frames.length - 1; i >= 0; i--) { // innermost last
                    // Java frames name their package with slashes; the relay's classes have none
                    boolean relay = frames[i].startsWith("NettyRelay") || frames[i].startsWith("RelayServlet");
                    String frame = frames[i].replace('/', '.');
                    int dot = frame.lastIndexOf('.');
                    if (!relay && (!frames[i].contains("/") || isJdk(frame))) {
                        continue; // native code, a stub or the JDK
                    }
                    String type = frame.substring(0, dot);
                    component = componentOf(type);
                    if (type.startsWith("dev.baton.")) {
                        s.batonMethods.merge(type.substring(type.lastIndexOf('.') + 1) + frame.substring(dot), samples,
                                Long::sum);
                    }
                    break;
                }
                s.components.merge(component, samples, Long::sum);
                s.total += samples;
            }
        }
        System.out.println("async-profiler CPU samples (1 ms of a thread's CPU each) per 1,000 requests, each charged to"
                + " the nearest frame that is neither the JDK's nor native code.");
        cases.forEach((kase, sides) -> {
            Side baton = sides.getOrDefault("baton", new Side());
            Side relay = sides.getOrDefault("nettyrelay", new Side());
            System.out.printf("%n### %s (Baton %,d requests, the relay %,d)%n%n| where | Baton | relay | Baton − relay |"
                    + "%n|---|---:|---:|---:|%n", kase, baton.requests, relay.requests);
            Set<String> where = new TreeSet<>(baton.components.keySet());
            where.addAll(relay.components.keySet());
            where.stream().sorted(Comparator.comparingDouble(k -> relay.per(k) - baton.per(k)))
                    .forEach(k -> System.out.printf("| %s | %.2f | %.2f | %+.2f |%n", k, baton.per(k), relay.per(k),
                            baton.per(k) - relay.per(k)));
            System.out.printf("| all | %.2f | %.2f | %+.2f |%n", baton.perRequest(baton.total),
                    relay.perRequest(relay.total), baton.perRequest(baton.total) - relay.perRequest(relay.total));
            System.out.printf("%n| Baton method (nearest non-JDK frame) | per 1,000 requests |%n|---|---:|%n");
            baton.batonMethods.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                    .limit(15).forEach(e -> System.out.printf("| %s | %.2f |%n", e.getKey(),
                            baton.perRequest(e.getValue())));
        });
    }

    /** One side's samples in one case, over all rounds. */
    private static final class Side {
        final Map<String, Long> components = new TreeMap<>();
        final Map<String, Long> batonMethods = new TreeMap<>();
        long total;
        long requests;

        double per(String component) {
            return perRequest(components.getOrDefault(component, 0L));
        }

        double perRequest(long samples) {
            return requests == 0 ? 0 : samples * 1000.0 / requests;
        }
    }

    private static String componentOf(String type) {
        return COMPONENTS.entrySet().stream().filter(e -> type.startsWith(e.getKey())).map(Map.Entry::getValue)
                .findFirst().orElse(type.contains(".") ? "other: " + packageOf(type) : "the relay's own code");
    }

    private static void print(Map<String, Integer> counts, int total, int limit) {
        List<Map.Entry<String, Integer>> sorted = counts.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(limit).toList();
        for (var e : sorted) {
            System.out.printf("| %s | %d | %.0f %% |%n", e.getKey(), e.getValue(), 100.0 * e.getValue() / total);
        }
    }

    private static boolean isJdk(String type) {
        return type.startsWith("java.") || type.startsWith("javax.") || type.startsWith("jdk.")
                || type.startsWith("sun.") || type.startsWith("com.sun.");
    }

    private static String packageOf(String type) {
        String[] parts = type.split("\\.");
        return parts.length > 2 ? parts[0] + "." + parts[1] + "." + parts[2] : type;
    }
}
