package dev.baton.bench;

import dev.baton.wire.OpenAiShape;
import dev.baton.wire.RawJsonObject;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.util.concurrent.TimeUnit;

/**
 * What Baton reads from one OpenAI stream chunk on its way through: the text checked, the error member looked up
 * (the adapter), the finish reason (adapter and engine), the usage and, until the commit point, whether it carries
 * output (engine). A content chunk as OpenAI sends most of them, and the last one with a finish reason.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class StreamChunkBenchmark {

    private static final String CONTENT = "{\"id\":\"chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT\",\"object\":\"chat.completion"
            + ".chunk\",\"created\":1741570283,\"model\":\"gpt-4o-2024-08-06\",\"service_tier\":\"default\","
            + "\"system_fingerprint\":\"fp_44709d6fcb\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" reply\"},"
            + "\"logprobs\":null,\"finish_reason\":null}],\"usage\":null}";

    private static final String LAST = "{\"id\":\"chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT\",\"object\":\"chat.completion"
            + ".chunk\",\"created\":1741570283,\"model\":\"gpt-4o-2024-08-06\",\"service_tier\":\"default\","
            + "\"system_fingerprint\":\"fp_44709d6fcb\",\"choices\":[{\"index\":0,\"delta\":{},\"logprobs\":null,"
            + "\"finish_reason\":\"stop\"}],\"usage\":null}";

    /** A content chunk as the end-to-end benchmark's fake upstream sends it: the same members, shorter strings. */
    private static final String BENCH_UPSTREAM = "{\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\","
            + "\"created\":1767225600,\"model\":\"gpt-5.4-mini\",\"system_fingerprint\":null,\"choices\":[{\"index\":0,"
            + "\"delta\":{\"content\":\"token1 \"},\"logprobs\":null,\"finish_reason\":null}]}";

    @Benchmark
    public void benchUpstreamChunkAfterCommit(Blackhole out) {
        out.consume(readAfterCommit(BENCH_UPSTREAM, out));
    }

    @Benchmark
    public void contentChunk(Blackhole out) {
        read(CONTENT, out);
    }

    @Benchmark
    public void finishChunk(Blackhole out) {
        read(LAST, out);
    }

    /** Most chunks of a stream: after the commit point the engine no longer asks whether one carries output. */
    @Benchmark
    public void contentChunkAfterCommit(Blackhole out) {
        out.consume(readAfterCommit(CONTENT, out));
    }

    private static void read(String data, Blackhole out) {
        out.consume(OpenAiShape.hasOutput(readAfterCommit(data, out)));
    }

    private static RawJsonObject readAfterCommit(String data, Blackhole out) {
        RawJsonObject chunk = RawJsonObject.parse(data);
        out.consume(chunk.member("error"));
        out.consume(OpenAiShape.finishReason(chunk));
        out.consume(OpenAiShape.finishReason(chunk));
        out.consume(OpenAiShape.usage(chunk));
        return chunk;
    }
}
