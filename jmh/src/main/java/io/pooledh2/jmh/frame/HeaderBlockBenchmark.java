/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.frame;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.Http2EventAdapter;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameReader;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.pooledh2.codec.PooledHttp2FrameListener;
import io.pooledh2.codec.PooledHttp2FrameReader;
import io.pooledh2.jmh.EventLoopBenchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What the header benchmarks share: one HEADERS frame read per op by {@link #reader}, and its headers handed to
 * {@link #use}. {@code stock}: {@code DefaultHttp2FrameReader}, whose listener gets a new
 * {@code DefaultHttp2Headers}; {@code pooledFrame}: the pooled reader's frame API, the frame released after
 * {@code use}, so that its headers container (and the entries its iterator hands out) is reused.
 */
@State(Scope.Thread)
public abstract class HeaderBlockBenchmark extends FrameInputBenchmark {

    /** The reader; {@code stock} is the baseline. */
    public enum Reader {
        stock, pooledFrame
    }

    @Param
    public Reader reader;

    Blackhole bh;

    private final Http2EventAdapter stockListener = new Http2EventAdapter() {
        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                                  boolean endOfStream) {
            use(headers);
        }
    };

    private final PooledHttp2FrameListener pooledListener = (ctx, frame) -> {
        try {
            use(((Http2HeadersFrame) frame).headers());
        } finally {
            frame.release();
        }
    };

    /** What the op does with the frame's headers. */
    abstract void use(Http2Headers headers);

    /** Readies the channel, the input (the frame's bytes, read from the start every op) and the reader. */
    final void init(Blackhole bh, ByteBuf input) {
        this.bh = bh;
        open(input);
        frameReader = reader == Reader.stock ? new DefaultHttp2FrameReader() : new PooledHttp2FrameReader();
    }

    /** One read of the whole input. */
    final void parse() throws Http2Exception {
        input.readerIndex(0);
        if (reader == Reader.stock) {
            frameReader.readFrame(ctx, input, stockListener);
        } else {
            ((PooledHttp2FrameReader) frameReader).readFrame(ctx, input, pooledListener);
        }
    }

    /** Whether the last read left bytes of the input unread. */
    final boolean inputLeft() {
        return input.isReadable();
    }

    @Override
    String variant() {
        return getClass().getSimpleName() + " with " + reader;
    }
}
