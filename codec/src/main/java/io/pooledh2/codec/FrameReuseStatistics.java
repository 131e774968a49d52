/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.util.internal.SystemPropertyUtil;

import java.util.concurrent.atomic.LongAdder;

/**
 * Diagnostics: how many frames of each type the readers of this JVM parsed into a frame object kept for reuse,
 * and how many of those objects had to be made new (the first of a type on a thread, or a pool that was empty
 * because consumers kept its frames). Off unless {@code -Dio.pooledh2.reuseStats=true}: the switch is a
 * constant, so with it off the JIT removes the counting and it costs nothing.
 *
 * <p>Counts cover the reuse path only: a reader with reuse off or in paranoid mode makes every frame new by
 * design and counts nothing; on the {@code Http2FrameListener} path, frames the listener never sees as objects
 * (PING, WINDOW_UPDATE, RST_STREAM, PRIORITY, SETTINGS ACK, and SETTINGS when copied) are not parsed into a
 * frame at all and count nothing either.
 */
public final class FrameReuseStatistics {

    /** System property: {@code true} turns the counting on. Read once, when this class loads. */
    public static final String REUSE_STATS_PROPERTY = "io.pooledh2.reuseStats";

    static final boolean ENABLED = SystemPropertyUtil.getBoolean(REUSE_STATS_PROPERTY, false);

    /** Index of the frame types above CONTINUATION (extensions). */
    private static final int UNKNOWN = Http2FrameTypes.CONTINUATION + 1;

    private static final LongAdder[] PARSED = adders();
    private static final LongAdder[] CREATED = adders();

    private FrameReuseStatistics() {
    }

    private static LongAdder[] adders() {
        LongAdder[] adders = new LongAdder[UNKNOWN + 1];
        for (int i = 0; i < adders.length; i++) {
            adders[i] = new LongAdder();
        }
        return adders;
    }

    private static int index(byte frameType) {
        return frameType >= 0 && frameType < UNKNOWN ? frameType : UNKNOWN;
    }

    static void countParsed(byte frameType) {
        PARSED[index(frameType)].increment();
    }

    static void countCreated(byte frameType) {
        CREATED[index(frameType)].increment();
    }

    /** {@return whether counting is on ({@value #REUSE_STATS_PROPERTY} was {@code true} when this class loaded)} */
    public static boolean isEnabled() {
        return ENABLED;
    }

    /**
     * Frames of a type parsed into a frame object kept for reuse.
     *
     * @param frameType the frame type, as in {@link Http2FrameTypes}; types above 9 share one count
     * @return the count since this class loaded or since {@link #reset()}; 0 while counting is off
     */
    public static long parsed(int frameType) {
        return PARSED[index((byte) frameType)].sum();
    }

    /**
     * Frame objects of a type made new rather than reused.
     *
     * @param frameType the frame type, as in {@link Http2FrameTypes}; types above 9 share one count
     * @return the count since this class loaded or since {@link #reset()}; 0 while counting is off
     */
    public static long created(int frameType) {
        return CREATED[index((byte) frameType)].sum();
    }

    /** Sets every count to zero, e.g. after a warm-up. */
    public static void reset() {
        for (int i = 0; i <= UNKNOWN; i++) {
            PARSED[i].reset();
            CREATED[i].reset();
        }
    }

    /**
     * A report for logs or a console.
     *
     * @return one line per frame type seen: parsed, new, and the share parsed into a reused object; empty while
     *         nothing was counted
     */
    public static String summary() {
        StringBuilder out = new StringBuilder();
        String[] names = {"DATA", "HEADERS", "PRIORITY", "RST_STREAM", "SETTINGS", "PUSH_PROMISE", "PING",
                "GOAWAY", "WINDOW_UPDATE", "CONTINUATION", "UNKNOWN"};
        for (int i = 0; i <= UNKNOWN; i++) {
            long parsed = PARSED[i].sum();
            if (parsed == 0) {
                continue;
            }
            long created = Math.min(CREATED[i].sum(), parsed);
            out.append(String.format("%-13s parsed %,12d  new %,8d  reused %8.4f%%%n", names[i], parsed, created,
                    100.0 * (parsed - created) / parsed));
        }
        return out.toString();
    }
}
