import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * What the benchmark's fake OpenAI answers, shared by {@link FakeUpstream}, which sends it over its own HTTP, and
 * {@code Floor}, which writes it from the app server with no upstream call: both then send the same bytes. Plain
 * strings built once, no dependencies, Java 17 (the floor is compiled for the app server's JDK).
 *
 * <p>Three operations: a chat completion ({@code /chat/completions}), a response of the Responses API
 * ({@code /responses}) and an embedding ({@code /embeddings}). Streams are arrays of whole SSE events, so a caller
 * can send them in one write or drip them one by one.
 */
final class Answers {

    /** The answer's text, in the chat completion and the response alike. */
    private static final String TEXT =
            "A short fixed answer from the fake upstream, about as long as a one-line reply.";

    static final String CHAT_COMPLETION = "{\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion\","
            + "\"created\":1767225600,\"model\":\"gpt-5.4-mini\",\"choices\":[{\"index\":0,\"message\":{\"role\":"
            + "\"assistant\",\"content\":\"" + TEXT + "\",\"refusal\":null},\"logprobs\":null,"
            + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":16,"
            + "\"total_tokens\":28},\"system_fingerprint\":null}";

    /** The index of a chat stream's first content event (after the role event). */
    static final int CHAT_FIRST_CONTENT = 1;

    /** A response object of the Responses API, completed, with one message. */
    static final String RESPONSE = response("completed", "[" + message(TEXT, "completed") + "]", usage(16));

    /**
     * The index of a Responses stream's first {@code response.output_text.delta}: after created, in_progress, the
     * message item and its content part. Baton commits its answer there.
     */
    static final int RESPONSE_FIRST_DELTA = 4;

    /** Dimensions of text-embedding-3-small's vectors. */
    static final int EMBEDDING_DIMENSIONS = 1536;

    /**
     * One embedding of {@value #EMBEDDING_DIMENSIONS} floats as the API writes them in JSON (about 20 KB): the size
     * of the answer, which the gateway copies or parses, is what this case measures.
     */
    static final String EMBEDDINGS = "{\"object\":\"list\",\"data\":[{\"object\":\"embedding\",\"index\":0,"
            + "\"embedding\":" + vector(EMBEDDING_DIMENSIONS) + "}],\"model\":\"text-embedding-3-small\","
            + "\"usage\":{\"prompt_tokens\":6,\"total_tokens\":6}}";

    private Answers() {
    }

    /** The role event, {@code chunks} content events, the finish event, maybe usage, and [DONE]. */
    static String[] chatEvents(int chunks, boolean usage) {
        String head = "data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\",\"created\":1767225600,"
                + "\"model\":\"gpt-5.4-mini\",\"system_fingerprint\":null,\"choices\":[{\"index\":0,\"delta\":";
        String[] events = new String[chunks + (usage ? 4 : 3)];
        int i = 0;
        events[i++] = head + "{\"role\":\"assistant\",\"content\":\"\",\"refusal\":null},\"logprobs\":null,"
                + "\"finish_reason\":null}]}\n\n";
        for (int c = 0; c < chunks; c++) {
            events[i++] = head + "{\"content\":\"token" + c + " \"},\"logprobs\":null,\"finish_reason\":null}]}\n\n";
        }
        events[i++] = head + "{},\"logprobs\":null,\"finish_reason\":\"stop\"}]}\n\n";
        if (usage) {
            events[i++] = "data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\","
                    + "\"created\":1767225600,\"model\":\"gpt-5.4-mini\",\"choices\":[],\"usage\":{"
                    + "\"prompt_tokens\":12,\"completion_tokens\":" + chunks + ",\"total_tokens\":" + (12 + chunks)
                    + "}}\n\n";
        }
        events[i] = "data: [DONE]\n\n";
        return events;
    }

    /**
     * A Responses stream of typed events: {@code response.created}, {@code response.in_progress}, the message item
     * and its content part added, {@code chunks} text deltas, the text, part and item done, and
     * {@code response.completed} with the usage. Each event's {@code sequence_number} is its index; no [DONE], as
     * the API sends none.
     */
    static String[] responseEvents(int chunks) {
        StringBuilder text = new StringBuilder();
        for (int c = 0; c < chunks; c++) {
            text.append("token").append(c).append(' ');
        }
        String part = "\"item_id\":\"msg_bench\",\"output_index\":0,\"content_index\":0,";
        String started = "\"response\":" + response("in_progress", "[]", "null");
        List<String> events = new ArrayList<>(chunks + 9);
        add(events, "response.created", started);
        add(events, "response.in_progress", started);
        add(events, "response.output_item.added", "\"output_index\":0,\"item\":" + message(null, "in_progress"));
        add(events, "response.content_part.added", part + "\"part\":" + outputText(""));
        for (int c = 0; c < chunks; c++) {
            add(events, "response.output_text.delta", part + "\"delta\":\"token" + c + " \",\"logprobs\":[]");
        }
        add(events, "response.output_text.done", part + "\"text\":\"" + text + "\",\"logprobs\":[]");
        add(events, "response.content_part.done", part + "\"part\":" + outputText(text.toString()));
        add(events, "response.output_item.done",
                "\"output_index\":0,\"item\":" + message(text.toString(), "completed"));
        add(events, "response.completed", "\"response\":"
                + response("completed", "[" + message(text.toString(), "completed") + "]", usage(chunks)));
        return events.toArray(new String[0]);
    }

    /** Appends one typed event, its sequence number being its index in the stream. */
    private static void add(List<String> events, String type, String fields) {
        events.add("event: " + type + "\ndata: {\"type\":\"" + type + "\",\"sequence_number\":" + events.size()
                + "," + fields + "}\n\n");
    }

    /** The response object with the defaults the API echoes for a request that set none of them. */
    private static String response(String status, String output, String usage) {
        return "{\"id\":\"resp_bench\",\"object\":\"response\",\"created_at\":1767225600,\"status\":\"" + status
                + "\",\"background\":false,\"error\":null,\"incomplete_details\":null,\"instructions\":null,"
                + "\"max_output_tokens\":null,\"model\":\"gpt-5.4-mini\",\"output\":" + output
                + ",\"parallel_tool_calls\":true,\"previous_response_id\":null,\"reasoning\":{\"effort\":null,"
                + "\"summary\":null},\"store\":true,\"temperature\":1.0,\"text\":{\"format\":{\"type\":\"text\"}},"
                + "\"tool_choice\":\"auto\",\"tools\":[],\"top_p\":1.0,\"truncation\":\"disabled\",\"usage\":" + usage
                + ",\"user\":null,\"metadata\":{}}";
    }

    /** A message item; null text: no content part yet. */
    private static String message(String text, String status) {
        return "{\"id\":\"msg_bench\",\"type\":\"message\",\"status\":\"" + status + "\",\"role\":\"assistant\","
                + "\"content\":[" + (text == null ? "" : outputText(text)) + "]}";
    }

    private static String outputText(String text) {
        return "{\"type\":\"output_text\",\"annotations\":[],\"logprobs\":[],\"text\":\"" + text + "\"}";
    }

    private static String usage(int outputTokens) {
        return "{\"input_tokens\":12,\"input_tokens_details\":{\"cached_tokens\":0},\"output_tokens\":" + outputTokens
                + ",\"output_tokens_details\":{\"reasoning_tokens\":0},\"total_tokens\":" + (12 + outputTokens) + "}";
    }

    /** A unit vector of fixed pseudo-random floats, ten decimals each, as a JSON array. */
    private static String vector(int dimensions) {
        Random random = new Random(dimensions); // the same vector every run
        double[] v = new double[dimensions];
        double norm = 0;
        for (int i = 0; i < dimensions; i++) {
            v[i] = random.nextGaussian();
            norm += v[i] * v[i];
        }
        norm = Math.sqrt(norm);
        StringBuilder json = new StringBuilder(dimensions * 14).append('[');
        for (int i = 0; i < dimensions; i++) {
            json.append(i == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.10f", v[i] / norm));
        }
        return json.append(']').toString();
    }
}
