package dev.baton.langchain4j;

import dev.baton.Cost;
import dev.baton.ServedBy;
import dev.langchain4j.model.chat.response.ChatResponseMetadata;

import java.util.Objects;
import java.util.Optional;

/**
 * LangChain4j's response metadata plus what Baton knows about the answer: which target served it,
 * Baton's request id (its record is found by it), the estimated provider cost, and whether the answer
 * is a degraded one.
 * {@link #modelName()} is the model that actually served, which may differ from the one requested.
 *
 * <pre>{@code
 * ChatResponse answer = model.chat(request);
 * if (answer.metadata() instanceof BatonResponseMetadata baton) {
 *     baton.servedBy().ifPresent(s -> log.info("served by " + s.connection() + " (" + s.position() + ")"));
 * }
 * }</pre>
 */
public class BatonResponseMetadata extends ChatResponseMetadata {

    private final ServedBy servedBy;
    private final String requestId;
    private final boolean degraded;
    private final Cost cost;

    protected BatonResponseMetadata(Builder builder) {
        super(builder);
        this.servedBy = builder.servedBy;
        this.requestId = builder.requestId;
        this.degraded = builder.degraded;
        this.cost = builder.cost;
    }

    /** The target that answered; empty exactly when the answer is degraded. */
    public Optional<ServedBy> servedBy() {
        return Optional.ofNullable(servedBy);
    }

    /** Baton's id for the request: {@code FailoverChatService.findRecord(id)} and the record store know it. */
    public String requestId() {
        return requestId;
    }

    /** Whether no target served and the text is the policy's degraded answer. */
    public boolean degraded() {
        return degraded;
    }

    /**
     * The estimated provider cost at the served model's rate; empty when the model is unpriced, the
     * provider reported no usage (a stream whose caller did not ask for it), or the answer is degraded.
     */
    public Optional<Cost> cost() {
        return Optional.ofNullable(cost);
    }

    @Override
    public Builder toBuilder() {
        Builder builder = new Builder();
        super.toBuilder(builder);
        return builder.servedBy(servedBy).requestId(requestId).degraded(degraded).cost(cost);
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BatonResponseMetadata other && super.equals(o) && Objects.equals(servedBy, other.servedBy)
                && Objects.equals(requestId, other.requestId) && degraded == other.degraded
                && Objects.equals(cost, other.cost);
    }

    @Override
    public int hashCode() {
        return Objects.hash(super.hashCode(), servedBy, requestId, degraded, cost);
    }

    @Override
    public String toString() {
        return "BatonResponseMetadata{id=" + id() + ", modelName=" + modelName() + ", tokenUsage=" + tokenUsage()
                + ", finishReason=" + finishReason() + ", servedBy=" + servedBy + ", requestId=" + requestId
                + ", degraded=" + degraded + ", cost=" + cost + "}";
    }

    public static class Builder extends ChatResponseMetadata.Builder<Builder> {
        private ServedBy servedBy;
        private String requestId;
        private boolean degraded;
        private Cost cost;

        public Builder servedBy(ServedBy servedBy) {
            this.servedBy = servedBy;
            return this;
        }

        public Builder requestId(String requestId) {
            this.requestId = requestId;
            return this;
        }

        public Builder degraded(boolean degraded) {
            this.degraded = degraded;
            return this;
        }

        public Builder cost(Cost cost) {
            this.cost = cost;
            return this;
        }

        @Override
        public BatonResponseMetadata build() {
            return new BatonResponseMetadata(this);
        }
    }
}
