/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jcstress;

import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2WindowUpdateFrame;
import io.pooledh2.codec.PooledHttp2Frame;
import io.pooledh2.codec.PooledHttp2FrameReader;
import org.openjdk.jcstress.infra.results.LLL_Result;

/**
 * What an actor saw of a frame, as a short string for the outcome table. Each method reads every field
 * through the frame's public accessors, the way a handler would.
 */
public final class Observed {

    private Observed() {
    }

    /** An exception as an outcome: its class only, so that one kind of failure is one row of the table. */
    public static String error(Throwable t) {
        return "ERROR:" + t.getClass().getSimpleName();
    }

    /** A WINDOW_UPDATE frame's stream and increment. */
    public static String windowUpdate(PooledHttp2Frame frame) {
        return "stream=" + frame.streamId() + " increment=" + ((Http2WindowUpdateFrame) frame).windowSizeIncrement();
    }

    /** A DATA frame's stream, payload, padding and END_STREAM flag. */
    public static String data(PooledHttp2Frame frame) {
        Http2DataFrame data = (Http2DataFrame) frame;
        // hexDump reads the payload without moving its reader index
        return "stream=" + frame.streamId() + " data=" + ByteBufUtil.hexDump(data.content())
                + " padding=" + data.padding() + " endStream=" + data.isEndStream();
    }

    /**
     * The evidence of the retain-race tests, gathered on the reader's thread once the other actor is done: the
     * count {@code first} was left with, then the next WINDOW_UPDATE frame parsed from {@code next}, whether it is
     * {@code first}'s instance ({@code r2}: {@code REUSED} or {@code new}), its values and count, and whether its
     * release is its last ({@code r3}).
     */
    public static void nextParse(PooledHttp2FrameReader reader, PooledHttp2Frame first, byte[] next, LLL_Result r)
            throws Http2Exception {
        String left = "left=" + first.refCnt();
        WireFrames.read(reader, next, (ctx, frame) -> {
            r.r2 = frame == first ? "REUSED" : "new";
            String seen = " next=" + windowUpdate(frame) + " count=" + frame.refCnt();
            r.r3 = left + seen + " released=" + (frame.release() && frame.refCnt() == 0);
        });
    }
}
