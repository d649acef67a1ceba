package dev.baton.vertex;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Vertex AI's ids of the models a request may name as {@code vendor/model}. Claude's are versioned with an {@code @}
 * (Google's "Request predictions with Claude models" lists them); Gemini's are Google's own. Stateless.
 */
final class VertexModels {

    /** Anthropic's ids (aliases, dated ids, Baton's short names) to Vertex AI's: the models Google lists for Vertex AI. */
    static final Map<String, String> CLAUDE = Map.ofEntries(
            Map.entry("claude-opus-4-5", "claude-opus-4-5@20251101"),
            Map.entry("claude-opus-4-5-20251101", "claude-opus-4-5@20251101"),
            Map.entry("claude-sonnet-4-5", "claude-sonnet-4-5@20250929"),
            Map.entry("claude-sonnet-4-5-20250929", "claude-sonnet-4-5@20250929"),
            Map.entry("claude-haiku-4-5", "claude-haiku-4-5@20251001"),
            Map.entry("claude-haiku-4-5-20251001", "claude-haiku-4-5@20251001"),
            Map.entry("claude-opus-4-1", "claude-opus-4-1@20250805"),
            Map.entry("claude-opus-4-1-20250805", "claude-opus-4-1@20250805"),
            Map.entry("claude-opus-4", "claude-opus-4@20250514"),
            Map.entry("claude-opus-4-0", "claude-opus-4@20250514"),
            Map.entry("claude-opus-4-20250514", "claude-opus-4@20250514"),
            Map.entry("claude-sonnet-4", "claude-sonnet-4@20250514"),
            Map.entry("claude-sonnet-4-0", "claude-sonnet-4@20250514"),
            Map.entry("claude-sonnet-4-20250514", "claude-sonnet-4@20250514"),
            Map.entry("claude-3-7-sonnet", "claude-3-7-sonnet@20250219"),
            Map.entry("claude-3-7-sonnet-latest", "claude-3-7-sonnet@20250219"),
            Map.entry("claude-3-7-sonnet-20250219", "claude-3-7-sonnet@20250219"),
            Map.entry("claude-3-5-haiku", "claude-3-5-haiku@20241022"),
            Map.entry("claude-3-5-haiku-latest", "claude-3-5-haiku@20241022"),
            Map.entry("claude-3-5-haiku-20241022", "claude-3-5-haiku@20241022"),
            Map.entry("claude-3-5-sonnet-20241022", "claude-3-5-sonnet-v2@20241022"),
            Map.entry("claude-3-5-sonnet-20240620", "claude-3-5-sonnet@20240620"),
            Map.entry("claude-3-haiku-20240307", "claude-3-haiku@20240307"));

    /** A Vertex AI Claude id as written: {@code claude-…@YYYYMMDD}. */
    private static final Pattern VERTEX_CLAUDE = Pattern.compile("claude-[a-z0-9.-]+@\\d{8}");

    private VertexModels() {
    }

    /** The {@code vendor/model} ids of the table. */
    static Set<String> known() {
        return CLAUDE.keySet().stream().map(model -> "anthropic/" + model).collect(Collectors.toUnmodifiableSet());
    }

    /** Vertex AI's id for {@code model} of {@code vendor}, or empty when this connection cannot serve it. */
    static Optional<String> id(String vendor, String model) {
        return switch (vendor) {
            case "anthropic" -> VERTEX_CLAUDE.matcher(model).matches() ? Optional.of(model)
                    : Optional.ofNullable(CLAUDE.get(model));
            case "google" -> model.startsWith("gemini-") ? Optional.of(model) : Optional.empty();
            default -> Optional.empty();
        };
    }
}
