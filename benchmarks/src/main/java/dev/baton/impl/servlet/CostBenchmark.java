package dev.baton.impl.servlet;

import dev.baton.ChatResponse;
import dev.baton.Cost;
import dev.baton.ServedBy;
import dev.baton.impl.config.ModelPrice;
import dev.baton.wire.OpenAiShape;
import dev.baton.wire.RawJsonObject;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * What the cost estimate adds to an answer on its way to the caller. A whole answer: the served-by splice it always
 * had, against the same splice with the cost put into {@code usage}. A stream's usage chunk: reading its usage, as
 * the engine always did, against reading it, pricing it and splicing the cost in. Each invocation starts from the
 * provider's text, as each request does.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CostBenchmark {

    /** A short OpenAI answer, about 700 bytes, as the provider sends it. */
    private static final String ANSWER = "{\"id\":\"chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG\",\"object\":\"chat.completion\","
            + "\"created\":1741570283,\"model\":\"gpt-4o-2024-08-06\",\"choices\":[{\"index\":0,\"message\":{\"role\":"
            + "\"assistant\",\"content\":\"The image shows a wooden boardwalk path running through a lush green field"
            + " or meadow. The sky is bright blue with some scattered clouds.\",\"refusal\":null,\"annotations\":[]},"
            + "\"logprobs\":null,\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":1117,\"completion_tokens\":46,"
            + "\"total_tokens\":1163,\"prompt_tokens_details\":{\"cached_tokens\":0,\"audio_tokens\":0},"
            + "\"completion_tokens_details\":{\"reasoning_tokens\":0,\"audio_tokens\":0,\"accepted_prediction_tokens\":0,"
            + "\"rejected_prediction_tokens\":0}},\"service_tier\":\"default\",\"system_fingerprint\":\"fp_fc9f1d7035\"}";
    /** The last chunk of a stream whose caller asked for usage. */
    private static final String USAGE_CHUNK = "{\"id\":\"chatcmpl-123\",\"object\":\"chat.completion.chunk\","
            + "\"created\":1694268190,\"model\":\"gpt-4o-mini\",\"system_fingerprint\":\"fp_44709d6fcb\",\"choices\":[],"
            + "\"usage\":{\"prompt_tokens\":1117,\"completion_tokens\":46,\"total_tokens\":1163,"
            + "\"prompt_tokens_details\":{\"cached_tokens\":1024}}}";

    private ServedBy servedBy;
    private ModelPrice price;
    private Cost cost;

    @Setup
    public void setUp() {
        servedBy = new ServedBy("gpt-4o", "openai", "primary", "primary", "demo");
        price = new ModelPrice(new BigDecimal("2.50"), new BigDecimal("1.25"), new BigDecimal("10.00"), "USD", "list");
        cost = price.cost(OpenAiShape.usage(RawJsonObject.of(ANSWER)));
    }

    @Benchmark
    public byte[] answerWithServedByOnly() {
        RawJsonObject raw = RawJsonObject.of(ANSWER);
        JsonObject members = new ChatResponse(JsonValue.EMPTY_JSON_OBJECT, servedBy, "req_1", null, null).toJson();
        return raw.with(members).getBytes(StandardCharsets.UTF_8);
    }

    @Benchmark
    public byte[] answerWithServedByAndCost() {
        return Responses.body(new ChatResponse(RawJsonObject.of(ANSWER), servedBy, "req_1", null, cost));
    }

    @Benchmark
    public JsonObject usageChunkRead() {
        return OpenAiShape.usage(RawJsonObject.of(USAGE_CHUNK));
    }

    @Benchmark
    public JsonObject usageChunkReadPricedAndSpliced() {
        RawJsonObject chunk = RawJsonObject.of(USAGE_CHUNK);
        return OpenAiShape.withCost(chunk, price.cost(OpenAiShape.usage(chunk)));
    }
}
