package dev.baton.impl.http;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A request as an adapter builds it, whatever client sends it: method, URI, headers (in order) and body bytes.
 *
 * @param headers names and values; the content type is one of them
 */
public record HttpCall(String method, URI uri, Map<String, String> headers, byte[] body) {

    /** A POST of {@code body} as UTF-8. */
    public static HttpCall post(URI uri, Map<String, String> headers, String body) {
        return new HttpCall("POST", uri, headers, body.getBytes(StandardCharsets.UTF_8));
    }

    /** Method and URI only: the headers carry the provider key and the body the prompt, and neither may reach a log. */
    @Override
    public String toString() {
        return method + " " + uri;
    }
}
