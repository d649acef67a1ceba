package dev.baton.system;

import java.io.File;
import java.util.Set;
import java.util.stream.Collectors;

import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The archives the system tests deploy, exactly as the reactor builds them, each under a name of its own so it never
 * collides with one deployed by hand: the sample WAR ({@code war-sample}) and the minimal application of a user's own
 * ({@code example-app}).
 */
final class Deployments {

    /** Set by failsafe to the WAR that maven-dependency-plugin copied into the module's {@code target/}. */
    private static final String WAR_PROPERTY = "baton.sample.war";

    private Deployments() {
    }

    /** The sample WAR, renamed. Under Arquillian the context root may follow the name; use the injected URL. */
    static WebArchive sample(String name) {
        return renamed(name, WAR_PROPERTY, "../../war-sample/target/baton-sample.war");
    }

    /**
     * {@code war} with the optional cloud provider modules ({@code baton-bedrock}, {@code baton-vertex}) and what they
     * need in {@code WEB-INF/lib}, as an application adds them: the jars the build copied beside the tests, less the
     * artifacts the WAR already holds (in whatever version, as Maven would pick one).
     */
    static WebArchive withCloudModules(WebArchive war) {
        File[] jars = new File(System.getProperty("baton.cloud.libs", "target/cloud-libs"))
                .listFiles((dir, name) -> name.endsWith(".jar"));
        if (jars == null || jars.length == 0) {
            throw new IllegalStateException("No cloud module jars found; build them first (mvn -pl system-tests/liberty "
                    + "-am verify copies them) or set -Dbaton.cloud.libs");
        }
        Set<String> held = war.getContent(path -> path.get().startsWith("/WEB-INF/lib/")).keySet().stream()
                .map(path -> artifact(path.get().substring("/WEB-INF/lib/".length())))
                .collect(Collectors.toSet());
        for (File jar : jars) {
            if (!held.contains(artifact(jar.getName()))) {
                war.addAsLibrary(jar);
            }
        }
        return war;
    }

    /** A jar's artifact, its file name without the version: one copy of each, whatever the versions. */
    private static String artifact(String jarName) {
        return jarName.replaceFirst("-\\d.*$", "");
    }

    /** The example application ({@code example-app}), renamed. */
    static WebArchive example(String name) {
        return renamed(name, "baton.example.war", "../../example-app/target/baton-example.war");
    }

    private static WebArchive renamed(String name, String property, String fallback) {
        File war = new File(System.getProperty(property, fallback));
        if (!war.isFile()) {
            throw new IllegalStateException("The WAR is missing at " + war.getAbsolutePath()
                    + "; build it first (mvn -pl system-tests/liberty -am verify builds it) or set -D" + property);
        }
        return ShrinkWrap.create(WebArchive.class, name).merge(ShrinkWrap.createFromZipFile(WebArchive.class, war));
    }
}
