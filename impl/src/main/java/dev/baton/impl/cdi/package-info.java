/**
 * CDI wiring: the extension that reads the configuration at deployment, the beans and the interceptor. Internal: not API, may change without notice.
 */
package dev.baton.impl.cdi;
