package dev.baton.impl.servlet;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The SDKs' retry count: only a small whole number above 0 says the caller retried; anything else is ignored. */
class CallerRetriedTest {

    @ParameterizedTest
    @CsvSource(nullValues = "null", value = {
            "null, false", "'', false", "0, false", "000, false", "1, true", "2, true", "999, true", "1000, false",
            "-1, false", "1.0, false", "' 1', false", "abc, false", "١, false"})
    void readsTheHeader(String header, boolean retried) {
        assertEquals(retried, ChatEndpointServlet.callerRetried(header));
    }
}
