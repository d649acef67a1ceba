/** The record of a request and its attempts. Stable. */
package dev.baton.record;
