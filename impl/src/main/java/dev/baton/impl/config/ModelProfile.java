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
 */
public record ModelProfile(String model, boolean tools, int contextWindow, Set<String> modalities, ModelPrice price) {

    public ModelProfile {
        modalities = Set.copyOf(modalities);
    }

    /** A profile without a configured price. */
    public ModelProfile(String model, boolean tools, int contextWindow, Set<String> modalities) {
        this(model, tools, contextWindow, modalities, null);
    }

    /** A model nothing is configured for: assumed able, so configuration only ever narrows. */
    public static ModelProfile unknown(String model) {
        return new ModelProfile(model, true, 0, Set.of("text", "image"));
    }

    ModelProfile withPrice(ModelPrice newPrice) {
        return new ModelProfile(model, tools, contextWindow, modalities, newPrice);
    }
}
