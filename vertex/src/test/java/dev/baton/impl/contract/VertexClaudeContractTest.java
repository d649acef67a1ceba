package dev.baton.impl.contract;

/** Claude on Vertex AI: Anthropic's wire through rawPredict and streamRawPredict. */
class VertexClaudeContractTest extends VertexContract {

    @Override
    String model() {
        return "claude-sonnet-4-5@20250929";
    }
}
