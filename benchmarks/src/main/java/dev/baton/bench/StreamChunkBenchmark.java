package dev.baton.bench;

import dev.baton.spi.ProviderTransport.Event;
import dev.baton.wire.Lines;
import dev.baton.wire.OpenAiShape;
import dev.baton.wire.RawJsonObject;
import dev.baton.wire.SseParser;
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

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * What Baton reads from one OpenAI stream chunk on its way through: the text checked, the error member looked up
 * (the adapter), the finish reason (adapter and engine), the usage and, until the commit point, whether it carries
 * output (engine). A content chunk as OpenAI sends most of them, and the last one with a finish reason; and a whole
 * stream as the end-to-end benchmark's fake upstream sends it, from its bytes to the bytes of the caller's events.
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

    /** The fake upstream's stream of 20 content chunks: a role chunk, the content, the finish, {@code [DONE]}. */
    private static final byte[] BENCH_STREAM = benchStream(20);

    private static byte[] benchStream(int chunks) {
        String head = "data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\",\"created\":1767225600,"
                + "\"model\":\"gpt-5.4-mini\",\"system_fingerprint\":null,\"choices\":[{\"index\":0,\"delta\":";
        StringBuilder stream = new StringBuilder(head).append("{\"role\":\"assistant\",\"content\":\"\",\"refusal\":null},"
                + "\"logprobs\":null,\"finish_reason\":null}]}\n\n");
        for (int c = 0; c < chunks; c++) {
            stream.append(head).append("{\"content\":\"token").append(c)
                    .append(" \"},\"logprobs\":null,\"finish_reason\":null}]}\n\n");
        }
        stream.append(head).append("{},\"logprobs\":null,\"finish_reason\":\"stop\"}]}\n\n").append("data: [DONE]\n\n");
        return stream.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * What a stream costs Baton's reading of it, per stream: the bytes split into lines and events, each chunk checked
     * and asked what the adapter and the engine ask (output only until the first that has it), then encoded for the
     * caller's event.
     */
    @Benchmark
    public void benchUpstreamStream(Blackhole out) {
        Lines lines = new Lines(1 << 20);
        SseParser parser = new SseParser(1 << 20);
        boolean[] committed = {false};
        lines.feed(ByteBuffer.wrap(BENCH_STREAM), (bytes, start, end) -> {
            Event event = parser.line(bytes, start, end);
            if (event == null || event.data().startsWith("[DONE]")) {
                return;
            }
            RawJsonObject chunk = readAfterCommit(event.data().strip(), out);
            if (!committed[0]) {
                committed[0] = OpenAiShape.hasOutput(chunk);
            }
            out.consume(chunk.toString().getBytes(StandardCharsets.UTF_8));
        });
        out.consume(committed[0]);
    }

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
