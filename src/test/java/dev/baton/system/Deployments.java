package dev.baton.system;

import java.io.File;

import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The archives the system tests deploy: the sample WAR exactly as {@code war-sample} builds it, under a name of its
 * own so it never collides with a {@code baton-sample.war} deployed by hand.
 */
final class Deployments {

    /** Set by failsafe to the WAR that maven-dependency-plugin copied into the module's {@code target/}. */
    private static final String WAR_PROPERTY = "baton.sample.war";

    private Deployments() {
    }

    /** The sample WAR, renamed. Under Arquillian the context root may follow the name; use the injected URL. */
    static WebArchive sample(String name) {
        String path = System.getProperty(WAR_PROPERTY, "../../war-sample/target/baton-sample.war");
        File war = new File(path);
        if (!war.isFile()) {
            throw new IllegalStateException("The sample WAR is missing at " + war.getAbsolutePath()
                    + "; build it first (mvn -pl system-tests/liberty -am verify builds it) or set -D"
                    + WAR_PROPERTY);
        }
        return ShrinkWrap.create(WebArchive.class, name).merge(ShrinkWrap.createFromZipFile(WebArchive.class, war));
    }
}
