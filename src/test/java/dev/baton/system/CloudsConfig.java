package dev.baton.system;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The configuration {@link CloudFailoverIT} adds to the sample: Claude as {@code anthropic/claude-sonnet-4-5} on an
 * Anthropic account, a Bedrock account (signed with SigV4) and a Vertex AI account (a service-account key), all on the
 * test JVM's simulator, in that order of priority; and a Bedrock account whose secret key is wrong.
 */
public class CloudsConfig extends DeploymentConfig {

    /** Written into the WAR by the test: where it put the Vertex AI service-account key. */
    static final String RESOURCE = "baton-it-clouds.properties";
    static final String KEY_FILE = "vertex.credentials-file";
    static final String MODEL = "anthropic/claude-sonnet-4-5";
    /** Bedrock's id for it in the US inference profile. */
    static final String BEDROCK_ID = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
    static final String ACCESS_KEY_ID = "AKIAIOSFODNN7EXAMPLE";
    static final String SECRET_ACCESS_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    static final String WRONG_SECRET_ACCESS_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYWRONGSECRET";
    /** A route that tries the Bedrock account with the wrong secret first, then Anthropic. */
    static final String WRONG_SIGNATURE_ROUTE = "wrong-signature";

    public CloudsConfig() {
        super("baton-clouds-tests", values());
    }

    private static Map<String, String> values() {
        String sim = "http://127.0.0.1:" + Ports.simulator();
        Map<String, String> v = new HashMap<>();
        v.put("baton.connections.anthropic-prod.provider", "anthropic");
        v.put("baton.connections.anthropic-prod.base-url", sim + "/anthropic-prod/v1");

        for (String bedrock : new String[] {"bedrock-standby", "bedrock-wrong"}) {
            v.put("baton.connections." + bedrock + ".provider", "bedrock");
            v.put("baton.connections." + bedrock + ".base-url", sim + "/" + bedrock);
            v.put("baton.connections." + bedrock + ".region", "us-east-1");
            v.put("baton.connections." + bedrock + ".inference-profile", "us");
            v.put("baton.connections." + bedrock + ".access-key-id", ACCESS_KEY_ID);
        }
        v.put("baton.connections.bedrock-standby.secret-access-key", SECRET_ACCESS_KEY);
        v.put("baton.connections.bedrock-standby.priority", "1");
        v.put("baton.connections.bedrock-wrong.secret-access-key", WRONG_SECRET_ACCESS_KEY);
        v.put("baton.connections.bedrock-wrong.vendors", "none"); // only its route reaches it, by Bedrock's own id
        v.put("baton.connections.bedrock-wrong.models", BEDROCK_ID);

        v.put("baton.connections.vertex-standby.provider", "vertex");
        v.put("baton.connections.vertex-standby.base-url", sim + "/vertex-standby/v1/projects/sim-project/locations/us-east5");
        v.put("baton.connections.vertex-standby.project", "sim-project");
        v.put("baton.connections.vertex-standby.region", "us-east5");
        v.put("baton.connections.vertex-standby.credentials-file", keyFile());
        v.put("baton.connections.vertex-standby.priority", "2");

        // The sample's own Anthropic account stays out of anthropic/… requests; its OpenAI account serves openai/….
        v.put("baton.connections.claude.vendors", "none");
        v.put("baton.connections.primary.vendors", "openai");
        v.put("baton.connections.primary.model-ids.openai/gpt-5.4-mini", "gpt-5.4-mini");

        v.put("baton.routes." + WRONG_SIGNATURE_ROUTE + ".targets", "bedrock-wrong/" + BEDROCK_ID + ", anthropic-prod/" + MODEL);
        v.put("baton.defaults.first-token-timeout", "2s");
        v.put("baton.endpoint.allowed-models", "demo,mixed,gpt-5.4-mini,openai/gpt-5.4-mini,moonshot/kimi-k2.6,"
                + MODEL + "," + WRONG_SIGNATURE_ROUTE);
        return v;
    }

    private static String keyFile() {
        try (InputStream in = CloudsConfig.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the test's WAR");
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty(KEY_FILE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
