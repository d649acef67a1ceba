package dev.baton.impl.engine;

/** The OpenAI API a call speaks: what its body is, what its answer is, and what an attempt sends. */
public enum Api {

    /** {@code POST /chat/completions}: every provider speaks it, natively or translated by its adapter. */
    CHAT,
    /** {@code POST /responses}: as it is to targets that speak it, translated through chat completions to the others. */
    RESPONSES,
    /** {@code POST /embeddings}: one model, never a fallback; never streamed. */
    EMBEDDINGS
}
