package dev.baton.testkit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Runs a {@link ProviderSimulator} from the command line until the process is killed.
 *
 * <p>Not meant to be used from code; single-threaded start-up.
 */
public final class SimulatorMain {

    private static final String USAGE = """
            usage: java -jar baton-testkit-standalone.jar [--port N] [--accounts a,b,c]
                                                          [--serves account=model1,model2]...
                                                          [--google-key-file PATH] [--token-lifetime SECONDS]
              --port      port on 127.0.0.1 (default 8089, 0 for any free port)
              --accounts  accounts to create up front (others are created on first request)
              --serves    restrict an account to these models; repeatable
              --google-key-file  write a service-account key for the Vertex AI paths there
                                 (its token_uri is this simulator; point credentials-file at it)
              --token-lifetime   seconds an access token lives (default 3600)""";

    private SimulatorMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        int port = 8089;
        List<String> accounts = new ArrayList<>();
        List<String[]> serves = new ArrayList<>();
        String googleKeyFile = null;
        long tokenLifetime = 0;
        try {
            for (int i = 0; i < args.length; i++) {
                String option = args[i];
                if (option.equals("--help") || option.equals("-h")) {
                    System.out.println(USAGE);
                    return;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(option + " needs a value");
                }
                String value = args[++i];
                switch (option) {
                    case "--port" -> port = Integer.parseInt(value);
                    case "--accounts" -> accounts.addAll(Arrays.asList(value.split(",")));
                    case "--serves" -> {
                        String[] accountAndModels = value.split("=", 2);
                        if (accountAndModels.length != 2 || accountAndModels[1].isBlank()) {
                            throw new IllegalArgumentException("--serves wants account=model1,model2, got " + value);
                        }
                        serves.add(accountAndModels);
                    }
                    case "--google-key-file" -> googleKeyFile = value;
                    case "--token-lifetime" -> tokenLifetime = Long.parseLong(value);
                    default -> throw new IllegalArgumentException("unknown option " + option);
                }
            }
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
        }

        ProviderSimulator simulator = ProviderSimulator.start(port);
        Runtime.getRuntime().addShutdownHook(new Thread(simulator::close, "baton-sim-shutdown"));
        accounts.forEach(simulator::account);
        for (String[] s : serves) {
            simulator.account(s[0]).serves(s[1].split(","));
        }

        if (tokenLifetime > 0) {
            simulator.google().tokenLifetime(java.time.Duration.ofSeconds(tokenLifetime));
        }
        if (googleKeyFile != null) {
            simulator.google().writeServiceAccountKey(java.nio.file.Path.of(googleKeyFile));
        }
        String base = "http://127.0.0.1:" + simulator.port();
        System.out.println("Baton provider simulator listening on " + base);
        System.out.println("OpenAI base URL of any account:    " + base + "/<account>/v1");
        System.out.println("Anthropic base URL of any account: " + base + "/<account>  (SDKs append /v1/messages)");
        System.out.println("Vertex AI base URL of any account: " + base
                + "/<account>/v1/projects/<project>/locations/<region>  (needs an access token)");
        System.out.println("Gemini API base URL of any account: " + base + "/<account>/v1beta/openai");
        System.out.println("Google token endpoint:             " + simulator.google().tokenUri()
                + (googleKeyFile != null ? "  (key file: " + googleKeyFile + ")" : "  (--google-key-file writes a key)"));
        for (String account : accounts) {
            System.out.println("  " + simulator.baseUrl(account) + "  " + simulator.anthropicBaseUrl(account));
        }
        System.out.println("Control API:");
        String accountApi = base + "/__sim/accounts/<account>";
        System.out.println("  POST " + accountApi + "/script    {\"behaviors\":[{\"type\":\"overloaded\"}]}");
        System.out.println("  PUT  " + accountApi + "/default   {\"type\":\"ok\"}");
        System.out.println("  POST " + accountApi + "/fail-for  {\"duration_ms\":10000,\"behavior\":{\"type\":\"server_error\"}}");
        System.out.println("  GET  " + accountApi + "/requests");
        System.out.println("  POST " + base + "/__sim/reset");
        System.out.println("  POST " + base + "/__sim/google/expire-tokens");
        System.out.println("  POST " + base + "/__sim/google/fail-token-requests  {\"count\":3,\"status\":503}");
        System.out.println("  PUT  " + base + "/__sim/google/token-lifetime       {\"seconds\":60}");
        System.out.println("Behavior types and fields: docs/testkit.md");
        new CountDownLatch(1).await();
    }
}
