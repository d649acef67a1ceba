/**
 * Baton inside LangChain4j: {@link dev.baton.langchain4j.BatonChatModel} and
 * {@link dev.baton.langchain4j.BatonStreamingChatModel} send LangChain4j chat requests through a Baton
 * route, and {@link dev.baton.langchain4j.BatonModelsExtension} makes every route a named CDI bean of
 * both types. See docs/langchain4j.md.
 */
package dev.baton.langchain4j;
