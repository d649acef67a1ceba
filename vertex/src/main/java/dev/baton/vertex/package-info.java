/**
 * Provider {@code vertex}: Claude and Gemini models on Google Cloud's Vertex AI, with OAuth access tokens that a
 * background refresher keeps current. Internal: not API, may change without notice.
 */
package dev.baton.vertex;
