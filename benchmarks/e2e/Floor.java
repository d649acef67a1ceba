import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The app server's floor: a plain synchronous servlet, deployed beside the sample as {@code floor.war}, that reads
 * the request and answers what the fake upstream would, from memory, with no upstream call. It is the most the server
 * itself serves on the machine; a gateway in it that calls an upstream cannot reach it. Measured in the same rounds,
 * it shows how much of the gap to the direct runs is the server's own and how much is Baton's.
 */
@WebServlet("/v1/chat/completions")
public class Floor extends HttpServlet {

    private static final byte[] COMPLETION = ("{\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion\","
            + "\"created\":1767225600,\"model\":\"gpt-5.4-mini\",\"choices\":[{\"index\":0,\"message\":{\"role\":"
            + "\"assistant\",\"content\":\"A short fixed answer from the fake upstream, about as long as a one-line "
            + "reply.\",\"refusal\":null},\"logprobs\":null,\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":12,"
            + "\"completion_tokens\":16,\"total_tokens\":28},\"system_fingerprint\":null}")
            .getBytes(StandardCharsets.UTF_8);

    private static final byte[] STREAM = stream(20);

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String body = new String(req.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean stream = body.contains("\"stream\":true");
        resp.setContentType(stream ? "text/event-stream" : "application/json");
        if (!stream) {
            resp.setContentLength(COMPLETION.length);
        }
        resp.getOutputStream().write(stream ? STREAM : COMPLETION);
    }

    private static byte[] stream(int chunks) {
        String head = "data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\",\"created\":1767225600,"
                + "\"model\":\"gpt-5.4-mini\",\"system_fingerprint\":null,\"choices\":[{\"index\":0,\"delta\":";
        StringBuilder events = new StringBuilder(head).append("{\"role\":\"assistant\",\"content\":\"\",\"refusal\":"
                + "null},\"logprobs\":null,\"finish_reason\":null}]}\n\n");
        for (int c = 0; c < chunks; c++) {
            events.append(head).append("{\"content\":\"token").append(c)
                    .append(" \"},\"logprobs\":null,\"finish_reason\":null}]}\n\n");
        }
        events.append(head).append("{},\"logprobs\":null,\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n");
        return events.toString().getBytes(StandardCharsets.UTF_8);
    }
}
