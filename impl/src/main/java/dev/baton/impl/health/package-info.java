/**
 * Connection health: ejection, cool-off and operator actions. Internal: not API, may change without notice.
 */
package dev.baton.impl.health;
