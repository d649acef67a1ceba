import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The app server's floor: a plain synchronous servlet, deployed beside the sample as {@code floor.war}, that reads
 * the request and answers what the fake upstream would ({@link Answers}), from memory, with no upstream call. It is
 * the most the server itself serves on the machine; a gateway in it that calls an upstream cannot reach it. Measured
 * in the same rounds, it shows how much of the gap to the direct runs is the server's own and how much is Baton's.
 */
@WebServlet("/v1/*")
public class Floor extends HttpServlet {

    private static final byte[] COMPLETION = bytes(Answers.CHAT_COMPLETION);
    private static final byte[] RESPONSE = bytes(Answers.RESPONSE);
    private static final byte[] EMBEDDINGS = bytes(Answers.EMBEDDINGS);

    /** Whole streams, by operation and the body's {@code chunks=N}, as the fake upstream sends them fast. */
    private static final Map<String, byte[]> STREAMS = new ConcurrentHashMap<>();

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String body = new String(req.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean stream = body.contains("\"stream\":true");
        String path = String.valueOf(req.getPathInfo());
        byte[] answer;
        if (path.equals("/chat/completions")) {
            answer = stream ? stream("chat", chunks(body)) : COMPLETION;
        } else if (path.equals("/responses")) {
            answer = stream ? stream("responses", chunks(body)) : RESPONSE;
        } else if (path.equals("/embeddings")) {
            answer = EMBEDDINGS;
            stream = false;
        } else {
            resp.sendError(404);
            return;
        }
        resp.setContentType(stream ? "text/event-stream" : "application/json");
        if (!stream) {
            resp.setContentLength(answer.length);
        }
        resp.getOutputStream().write(answer);
    }

    /** The body's {@code chunks=N} marker, 20 without one, as the fake upstream reads it. */
    private static int chunks(String body) {
        int at = body.indexOf("chunks=");
        if (at < 0) {
            return 20;
        }
        int i = at + "chunks=".length();
        int end = i;
        while (end < body.length() && Character.isDigit(body.charAt(end))) {
            end++;
        }
        return end > i ? Integer.parseInt(body.substring(i, end)) : 20;
    }

    private static byte[] stream(String operation, int chunks) {
        return STREAMS.computeIfAbsent(operation + "/" + chunks, k -> bytes(String.join("",
                operation.equals("chat") ? Answers.chatEvents(chunks, false) : Answers.responseEvents(chunks))));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
