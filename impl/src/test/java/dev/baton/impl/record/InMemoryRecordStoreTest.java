package dev.baton.impl.record;

import dev.baton.record.RequestRecord;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InMemoryRecordStoreTest {

    private static RequestRecord record(String id, int status) {
        return new RequestRecord(id, Instant.EPOCH, status == 200, status, null, "m", "m", null, List.of(), List.of(),
                false, false, null, 0, null, false, null, null, RequestRecord.REQUEST);
    }

    @Test
    void evictsTheOldestOnceFull() {
        InMemoryRecordStore store = new InMemoryRecordStore(3);
        for (int i = 1; i <= 5; i++) {
            store.save(record("req_" + i, 200));
        }
        assertEquals(3, store.size());
        assertFalse(store.find("req_1").isPresent());
        assertFalse(store.find("req_2").isPresent());
        assertTrue(store.find("req_3").isPresent());
        assertTrue(store.find("req_5").isPresent());
    }

    @Test
    void savingAgainShowsTheNewestRecordOnce() {
        InMemoryRecordStore store = new InMemoryRecordStore(3);
        store.save(record("req_a", 502));
        store.save(record("req_b", 200));
        store.save(record("req_a", 200)); // the same request's record, completed
        assertEquals(200, store.find("req_a").orElseThrow().httpStatus());
        List<RequestRecord> all = store.search(new RecordQuery(null, null, null, null, 10));
        assertEquals(2, all.size(), "one record a request: " + all);
        assertEquals(200, all.stream().filter(r -> r.id().equals("req_a")).findFirst().orElseThrow().httpStatus());
        store.save(record("req_c", 200));
        store.save(record("req_d", 200));
        assertFalse(store.find("req_b").isPresent(), "the last three saves are kept: req_a, req_c, req_d");
        assertEquals(200, store.find("req_a").orElseThrow().httpStatus());
    }

    @Test
    void concurrentSaversNeverLeaveMoreThanTheCapacity() throws Exception {
        int capacity = 64;
        InMemoryRecordStore store = new InMemoryRecordStore(capacity);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> savers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                savers.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < 20_000; i++) {
                        store.save(record("req_" + thread + "_" + i, 200));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> saver : savers) {
                saver.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(capacity, store.size(), "every eviction removed its record: none leaked, none lost");
        assertEquals(capacity, store.search(new RecordQuery(null, null, null, null, 1000)).size());
    }

    @Test
    void capacityMustBePositive() {
        assertEquals("capacity must be > 0 but was 0",
                assertThrows(IllegalArgumentException.class, () -> new InMemoryRecordStore(0)).getMessage());
    }
}
