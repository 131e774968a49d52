/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.frame;

import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2Stream;

/**
 * The {@link Http2FrameStream} that frame consumers attach to stream frames, standing for the one
 * {@code Http2FrameCodec} looks up per frame (that lookup is left out of both variants alike).
 */
final class FixedFrameStream implements Http2FrameStream {

    static final FixedFrameStream INSTANCE = new FixedFrameStream();

    private FixedFrameStream() {
    }

    @Override
    public int id() {
        return FrameSample.STREAM;
    }

    @Override
    public Http2Stream.State state() {
        return Http2Stream.State.OPEN;
    }
}
