package dev.baton.impl.config;

import java.util.Set;

/**
 * What the configuration says a model can do ({@code baton.models.<model>.*}), so a fallback that
 * cannot serve a request is skipped with a reason instead of failing in a new way.
 *
 * @param model         the model name as connections list it
 * @param tools         whether it can call tools (default true)
 * @param contextWindow its context window in tokens, or 0 when not configured
 * @param modalities    the input modalities it accepts (default {@code text}, {@code image})
 * @param price         its configured price ({@code baton.models.<model>.price.*}), or {@code null}
 * @param maxOutputTokens the most output one answer can hold ({@code max-output-tokens}), or 0 when not configured:
 *                        what a budget holds for a request that sets no {@code max_tokens}
 */
public record ModelProfile(String model, boolean tools, int contextWindow, Set<String> modalities, ModelPrice price,
                           int maxOutputTokens) {

    public ModelProfile {
        modalities = Set.copyOf(modalities);
    }

    /** A profile without a configured price. */
    public ModelProfile(String model, boolean tools, int contextWindow, Set<String> modalities) {
        this(model, tools, contextWindow, modalities, null, 0);
    }

    /** A model nothing is configured for: assumed able, so configuration only ever narrows. */
    public static ModelProfile unknown(String model) {
        return new ModelProfile(model, true, 0, Set.of("text", "image"));
    }

    ModelProfile withPrice(ModelPrice newPrice) {
        return new ModelProfile(model, tools, contextWindow, modalities, newPrice, maxOutputTokens);
    }

    ModelProfile withTools(boolean newTools) {
        return new ModelProfile(model, newTools, contextWindow, modalities, price, maxOutputTokens);
    }

    ModelProfile withContextWindow(int newWindow) {
        return new ModelProfile(model, tools, newWindow, modalities, price, maxOutputTokens);
    }

    ModelProfile withModalities(Set<String> newModalities) {
        return new ModelProfile(model, tools, contextWindow, newModalities, price, maxOutputTokens);
    }

    ModelProfile withMaxOutputTokens(int newMax) {
        return new ModelProfile(model, tools, contextWindow, modalities, price, newMax);
    }
}
