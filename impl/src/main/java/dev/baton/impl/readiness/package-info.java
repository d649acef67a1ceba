/**
 * MicroProfile Health readiness of each route. Internal: not API, may change without notice.
 */
package dev.baton.impl.readiness;
