/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The HPACK decoder against Netty's on random header block sequences ({@link HpackDifferential}): a short run in
 * the build, from a fresh seed (named in any failure; {@code src/fuzz/run.sh --hpack} runs it for long). The run
 * must reach every kind of outcome the comparison is meant to cover.
 */
class HpackDifferentialTest {

    private static final long TIME_BUDGET_NANOS = 4_000_000_000L;
    private static final String[] MUST_REACH = {
        "headers",
        "connection: HPACK - Bad Encoding",
        "connection: HPACK - illegal index value",
        "connection: HPACK - int overflow",
        "connection: HPACK - invalid max dynamic table size",
        "connection: HPACK - max dynamic table size change required",
        "connection: Incomplete header block fragment.",
        "connection: Dynamic table size update must happen at the beginning of the header block",
        "connection: Error decoding headers: decode only works with an entire header block! UnpooledHeapByteBuf",
        "connection: Error decoding headers: decode only works with an entire header block! CompositeByteBuf",
        "stream: Header size exceeded max allowed size",
        "stream: Validation failed for header",
        "stream: Illegal value specified for the",
        "stream: Mix of request and response pseudo-headers.",
        "stream: Pseudo-header field",
        "stream: invalid header name",
    };

    @Test
    void decodesAsNettysDecoderDoes() {
        HpackDifferential differential = new HpackDifferential();
        long seed = ThreadLocalRandom.current().nextLong();
        long deadline = System.nanoTime() + TIME_BUDGET_NANOS;
        // At least 500 sequences however slow the machine, more while the time budget lasts.
        while (differential.sequences < 500 || System.nanoTime() < deadline && differential.sequences < 20_000) {
            differential.run(seed++);
        }
        assertTrue(differential.blocks > 2000, "blocks: " + differential.blocks);
        for (String kind : MUST_REACH) {
            assertTrue(differential.outcomes.getOrDefault(kind, 0L) > 0, "not reached: " + kind + " in "
                    + differential.outcomes.keySet());
        }
        long errors = 0;
        for (Map.Entry<String, Long> e : differential.outcomes.entrySet()) {
            errors += e.getKey().equals("headers") ? 0 : e.getValue();
        }
        assertTrue(errors < differential.blocks * 3 / 4, errors + " errors of " + differential.blocks);
    }
}
