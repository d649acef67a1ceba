package dev.baton.impl.engine;

import dev.baton.impl.config.ModelProfile;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;

/**
 * Whether a model can serve a request as configured ({@code baton.models.<model>.*}): the plan stage skips a
 * target that cannot, with the reason, instead of letting it fail in a new way. Pure.
 */
final class Eligibility {

    /** The input modalities a request can need, in the order a missing one is reported. */
    private static final List<String> MODALITIES = List.of("audio", "image", "text");
    /** Each set of them, indexed by its bits in {@link #MODALITIES} order: a request's is one of these, not a new one. */
    private static final List<Set<String>> MODALITY_SETS = IntStream.range(0, 1 << MODALITIES.size())
            .mapToObj(bits -> Set.copyOf(IntStream.range(0, MODALITIES.size()).filter(i -> (bits & 1 << i) != 0)
                    .mapToObj(MODALITIES::get).toList()))
            .toList();
    private static final int AUDIO = 1;
    private static final int IMAGE = 2;
    private static final int TEXT = 4;

    private Eligibility() {
    }

    /**
     * What a request needs of a model.
     *
     * @param tools           whether it sends a non-empty {@code tools} array
     * @param modalities      the input modalities of its message contents ({@code text}, {@code image}, {@code audio})
     * @param estimatedTokens its prompt size: the characters of every message's text content / 4, rounded up
     */
    record Needs(boolean tools, Set<String> modalities, long estimatedTokens) {

        Needs {
            modalities = Set.copyOf(modalities);
        }

        static Needs of(JsonObject body) {
            boolean tools = body.get("tools") instanceof JsonArray a && !a.isEmpty();
            int modalities = 0;
            long chars = 0;
            if (body.get("messages") instanceof JsonArray messages) {
                for (JsonValue message : messages) {
                    JsonValue content = message instanceof JsonObject m ? m.get("content") : null;
                    if (content instanceof JsonString s) {
                        modalities |= TEXT;
                        chars += s.getString().length();
                    } else if (content instanceof JsonArray parts) {
                        for (JsonValue part : parts) {
                            if (!(part instanceof JsonObject p) || !(p.get("type") instanceof JsonString type)) {
                                continue;
                            }
                            switch (type.getString()) {
                                case "text" -> {
                                    modalities |= TEXT;
                                    if (p.get("text") instanceof JsonString text) {
                                        chars += text.getString().length();
                                    }
                                }
                                case "image_url" -> modalities |= IMAGE;
                                case "input_audio" -> modalities |= AUDIO;
                                default -> { }
                            }
                        }
                    }
                }
            }
            return new Needs(tools, MODALITY_SETS.get(modalities), (chars + 3) / 4);
        }
    }

    /** Why {@code model} cannot serve {@code body} as configured, or {@code null} when it can. */
    static String reasonToSkip(ModelProfile model, JsonObject body) {
        return reasonToSkip(model, Needs.of(body));
    }

    /** Why {@code model} cannot serve a request that needs {@code needs}, or {@code null} when it can. */
    static String reasonToSkip(ModelProfile model, Needs needs) {
        String key = "baton.models." + model.model() + ".";
        if (needs.tools() && !model.tools()) {
            return model.model() + " cannot call tools (" + key + "tools=false)";
        }
        for (String modality : MODALITIES) {
            if (needs.modalities().contains(modality) && !model.modalities().contains(modality)) {
                return model.model() + " cannot read " + modality + " input (" + key + "modalities="
                        + String.join(",", new TreeSet<>(model.modalities())) + ")";
            }
        }
        if (model.contextWindow() > 0 && needs.estimatedTokens() > model.contextWindow()) {
            return model.model() + " has too small a context window for an estimated " + needs.estimatedTokens()
                    + " prompt tokens (" + key + "context-window=" + model.contextWindow() + ")";
        }
        return null;
    }
}
