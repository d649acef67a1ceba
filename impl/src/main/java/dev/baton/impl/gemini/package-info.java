/**
 * The gemini provider adapter (the Gemini API's OpenAI-compatible endpoint with an API key) and the reading of
 * Google's error shape, which the vertex adapter shares. Internal: not API, may change without notice.
 */
package dev.baton.impl.gemini;
