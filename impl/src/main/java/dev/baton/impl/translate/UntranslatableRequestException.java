package dev.baton.impl.translate;

import java.util.Objects;

/**
 * An OpenAI request asks for something a provider's API cannot honour faithfully (for example
 * {@code n:2} or a {@code json_schema} response format for Anthropic's Messages API or Bedrock's Converse). The message names the field and
 * never echoes request content. The adapter fails the attempt as {@code invalid_request}, so the
 * engine moves to a different provider or model.
 */
public final class UntranslatableRequestException extends RuntimeException {

    private final String field;

    public UntranslatableRequestException(String field, String reason) {
        // No stack trace: an expected outcome, like ProviderException.
        super(Objects.requireNonNull(field, "field") + ": " + reason, null, false, false);
        this.field = field;
    }

    /** The OpenAI field that cannot be translated, as a path: {@code n}, {@code messages[2].content[0]}. */
    public String field() {
        return field;
    }
}
