/**
 * OpenTelemetry metrics and spans, when MicroProfile Telemetry is present. Internal: not API, may change without notice.
 */
package dev.baton.impl.telemetry;
