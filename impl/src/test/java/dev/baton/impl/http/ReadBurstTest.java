package dev.baton.impl.http;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReadBurstTest {

    private final List<String> ran = new ArrayList<>();

    @Test
    void outsideAReadNothingIsDeferred() {
        assertFalse(ReadBurst.defer(() -> ran.add("flush")));
        assertEquals(List.of(), ran);
    }

    @Test
    void whatIsDeferredRunsOnceTheReadEndsInOrder() {
        try (ReadBurst.Read ignored = ReadBurst.read()) {
            assertTrue(ReadBurst.defer(() -> ran.add("first")));
            assertTrue(ReadBurst.defer(() -> ran.add("second")));
            ran.add("read");
        }
        assertEquals(List.of("read", "first", "second"), ran);
        assertFalse(ReadBurst.defer(() -> ran.add("late")), "the read is over");
    }

    @Test
    void aReadInsideAnotherIsPartOfIt() {
        try (ReadBurst.Read outer = ReadBurst.read()) {
            try (ReadBurst.Read inner = ReadBurst.read()) {
                ReadBurst.defer(() -> ran.add("flush"));
            }
            ran.add("inner ended");
        }
        assertEquals(List.of("inner ended", "flush"), ran);
    }

    @Test
    void aFailingReadStillRunsWhatItDeferredAndTheNextReadStartsClean() {
        assertThrows(IllegalStateException.class, () -> {
            try (ReadBurst.Read ignored = ReadBurst.read()) {
                ReadBurst.defer(() -> ran.add("flush"));
                throw new IllegalStateException("parse failed");
            }
        });
        assertEquals(List.of("flush"), ran);
        try (ReadBurst.Read ignored = ReadBurst.read()) {
            ran.add("next");
        }
        assertEquals(List.of("flush", "next"), ran);
    }

    @Test
    void aReadOnAnotherThreadIsNotThisOne() throws InterruptedException {
        List<Boolean> deferredThere = new ArrayList<>();
        try (ReadBurst.Read ignored = ReadBurst.read()) {
            Thread other = new Thread(() -> deferredThere.add(ReadBurst.defer(() -> { })));
            other.start();
            other.join();
        }
        assertEquals(List.of(false), deferredThere);
    }
}
