import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where the server's CPU went, from a JFR recording: each execution sample is charged to the nearest frame (from
 * the top of its stack) that is not the JDK's own, and counted by component. A sample entirely inside the JDK counts
 * as "JDK". Then the top methods charged to Baton. Usage: java ProfileSummary.java recording.jfr...
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
        COMPONENTS.put("io.netty.", "Netty (Baton's HTTP client)");
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
                component = COMPONENTS.entrySet().stream().filter(e -> type.startsWith(e.getKey()))
                        .map(Map.Entry::getValue).findFirst().orElse("other: " + packageOf(type));
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
