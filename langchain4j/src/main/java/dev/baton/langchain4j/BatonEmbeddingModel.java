package dev.baton.langchain4j;

import dev.baton.EmbeddingResponse;
import dev.baton.FailoverEmbeddingService;
import dev.baton.exception.FailoverException;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.request.EmbeddingInput;
import dev.langchain4j.model.embedding.request.EmbeddingRequest;
import dev.langchain4j.model.embedding.response.EmbeddingResponseMetadata;
import dev.langchain4j.model.output.TokenUsage;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.spi.JsonProvider;

import java.util.List;
import java.util.Objects;

/**
 * A LangChain4j {@link EmbeddingModel} over one Baton model or route of one model: each call fails over between the
 * accounts that serve it, never to another model (vectors of two models do not mix). Vectors are fetched as base64,
 * a quarter of the floats' text. Failures are LangChain4j's exception types with Baton's {@link FailoverException}
 * as the cause. Calls block the caller's thread. Thread-safe.
 */
public final class BatonEmbeddingModel implements EmbeddingModel {

    private static final JsonProvider JSON = JsonProvider.provider();

    private final FailoverEmbeddingService service;
    private final String model;
    private final Integer dimensions;

    private BatonEmbeddingModel(FailoverEmbeddingService service, String model, Integer dimensions) {
        this.service = Objects.requireNonNull(service, "service");
        this.model = Objects.requireNonNull(model, "model");
        if (dimensions != null && dimensions <= 0) {
            throw new IllegalArgumentException("dimensions must be > 0 but was " + dimensions);
        }
        this.dimensions = dimensions;
    }

    /** A model for {@code model} (a model name or a route of one model), with the provider's default dimensions. */
    public static BatonEmbeddingModel of(FailoverEmbeddingService service, String model) {
        return new BatonEmbeddingModel(service, model, null);
    }

    /** A model for {@code model} whose vectors have {@code dimensions} (for models that can shorten them). */
    public static BatonEmbeddingModel of(FailoverEmbeddingService service, String model, int dimensions) {
        return new BatonEmbeddingModel(service, model, dimensions);
    }

    @Override
    public dev.langchain4j.model.embedding.response.EmbeddingResponse doEmbed(EmbeddingRequest request) {
        JsonArrayBuilder input = JSON.createArrayBuilder();
        for (EmbeddingInput item : request.inputs()) {
            input.add(item.text());
        }
        JsonObjectBuilder body = JSON.createObjectBuilder().add("model", model).add("input", input)
                .add("encoding_format", "base64");
        Integer wanted = request.dimensions() != null ? request.dimensions() : dimensions;
        if (wanted != null) {
            body.add("dimensions", wanted);
        }
        EmbeddingResponse answer;
        try {
            answer = service.embed(dev.baton.EmbeddingRequest.fromJson(body.build()));
        } catch (FailoverException e) {
            throw BatonExceptions.toLangChain4j(e);
        }
        List<Embedding> embeddings = answer.vectors().stream().map(Embedding::from).toList();
        TokenUsage usage = answer.usage().map(BatonEmbeddingModel::tokenUsage).orElse(null);
        return dev.langchain4j.model.embedding.response.EmbeddingResponse.builder()
                .embeddings(embeddings)
                .metadata(EmbeddingResponseMetadata.builder().modelName(answer.servedBy().model())
                        .tokenUsage(usage).build())
                .build();
    }

    private static TokenUsage tokenUsage(JsonObject usage) {
        return usage.get("prompt_tokens") instanceof JsonNumber n ? new TokenUsage(n.intValue(), 0) : null;
    }

    @Override
    public String modelName() {
        return model;
    }

    @Override
    public String toString() {
        return "BatonEmbeddingModel[" + model + (dimensions == null ? "" : ", dimensions=" + dimensions) + "]";
    }
}
