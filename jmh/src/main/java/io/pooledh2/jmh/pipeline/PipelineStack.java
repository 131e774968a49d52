/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.pipeline;

import io.netty.handler.codec.http2.DefaultHttp2ConnectionEncoder;
import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.DefaultHttp2FrameWriter;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.pooledh2.codec.PooledHttp2ConnectionEncoder;
import io.pooledh2.codec.PooledHttp2FrameCodecBuilder;
import io.pooledh2.codec.PooledHttp2FrameReader;
import io.pooledh2.codec.PooledHttp2FrameWriter;

/**
 * The variants every pipeline benchmark runs, as its {@code stack} parameter. A name starting with
 * {@code stock} is the baseline of the {@code pooled} name with the same rest ({@code stockListener} for
 * {@code pooledListener}, {@code stockFrameCodec} for {@code pooledFrameCodec}); the report pairs them that way.
 */
public enum PipelineStack {
    /**
     * {@code Http2ConnectionHandler} with {@code DefaultHttp2ConnectionDecoder} around {@code DefaultHttp2FrameReader},
     * {@code DefaultHttp2ConnectionEncoder} around {@code DefaultHttp2FrameWriter}.
     */
    stockListener {
        @Override
        public Http2Stack newStack() {
            return new ListenerStack(DefaultHttp2FrameReader::new, DefaultHttp2FrameWriter::new,
                    DefaultHttp2ConnectionEncoder::new);
        }
    },
    /**
     * The same with pooledh2's drop-ins: the decoder around {@code PooledHttp2FrameReader} (its
     * {@code Http2FrameListener} adapter, defaults), {@code PooledHttp2ConnectionEncoder} around
     * {@code PooledHttp2FrameWriter}.
     */
    pooledListener {
        @Override
        public Http2Stack newStack() {
            return new ListenerStack(PooledHttp2FrameReader::new, PooledHttp2FrameWriter::new,
                    PooledHttp2ConnectionEncoder::new);
        }
    },
    /** {@code Http2FrameCodecBuilder.forServer()} / {@code forClient()}; an {@code Http2Frame} handler after it. */
    stockFrameCodec {
        @Override
        public Http2Stack newStack() {
            return new FrameCodecStack(Http2FrameCodecBuilder::forServer, Http2FrameCodecBuilder::forClient);
        }
    },
    /** The same with {@code PooledHttp2FrameCodecBuilder.forServer()} / {@code forClient()}, defaults. */
    pooledFrameCodec {
        @Override
        public Http2Stack newStack() {
            return new FrameCodecStack(PooledHttp2FrameCodecBuilder::forServer,
                    PooledHttp2FrameCodecBuilder::forClient);
        }
    };

    public abstract Http2Stack newStack();
}
