package dev.baton.impl.contract;

/** Gemini on Vertex AI: the OpenAI wire through endpoints/openapi/chat/completions. */
class VertexGeminiContractTest extends VertexContract {

    @Override
    String model() {
        return "gemini-2.5-flash";
    }
}
