package dev.baton.system;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.ShouldThrowException;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A deployment whose {@code @FailoverPolicy} holds an invalid value is refused by the server, and
 * the server's log names the annotation, the member and the value.
 */
@ExtendWith(ArquillianExtension.class)
class InvalidPolicyIT {

    // Any exception: the adapters report a refused deployment differently (Liberty's carries Weld's exception,
    // WildFly's a management failure). What it says is checked in the server's log below.
    @Deployment(testable = false)
    @ShouldThrowException
    static WebArchive deployment() {
        return Deployments.sample("baton-it-invalid-policy.war").addClasses(ForeverDrafts.class);
    }

    @Test
    void theServerLogNamesTheBadValue() throws IOException {
        String log = ServerLog.read();
        assertTrue(log.contains("@FailoverPolicy on " + ForeverDrafts.class.getName() + ".chat, member deadline: "),
                "the server log should name the annotation member; log tail:\n" + tail(log));
    }

    private static String tail(String log) {
        return log.substring(Math.max(0, log.length() - 4000));
    }
}
