/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.frame;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.Http2EventAdapter;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameReader;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.pooledh2.codec.PooledHttp2FrameListener;
import io.pooledh2.codec.PooledHttp2FrameReader;
import io.pooledh2.jmh.EventLoopBenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

import java.util.Map;

/**
 * One op: read a HEADERS frame of {@link FrameSample#HEADERS_10} and walk its headers' entries, handing each entry to
 * the blackhole, as a consumer does that converts or copies headers (Netty's own decoder walks every block's
 * pseudo-headers). {@code stock}: {@code DefaultHttp2FrameReader}, whose {@code DefaultHttp2Headers} hands out its
 * stored entries; {@code pooledFrame}: the pooled reader's frame API, the frame released after the walk, so that its
 * headers container is reused, and with it the entries its iterator hands out.
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar HeadersIterationBenchmark -prof gc
 * </pre>
 */
@State(Scope.Thread)
public class HeadersIterationBenchmark extends EventLoopBenchmark {

    /** The reader; {@code stock} is the baseline. */
    public enum Reader {
        stock, pooledFrame
    }

    @Param
    public Reader reader;

    private EmbeddedChannel channel;
    private ChannelHandlerContext ctx;
    private ByteBuf input;
    private Http2FrameReader frameReader;
    private Blackhole bh;
    private int entriesSeen;

    private final Http2EventAdapter stockListener = new Http2EventAdapter() {
        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                                  boolean endOfStream) {
            walk(headers);
        }
    };

    private final PooledHttp2FrameListener pooledListener = (ctx, frame) -> {
        try {
            walk(((Http2HeadersFrame) frame).headers());
        } finally {
            frame.release();
        }
    };

    private void walk(Http2Headers headers) {
        for (Map.Entry<CharSequence, CharSequence> entry : headers) {
            bh.consume(entry);
            entriesSeen++;
        }
    }

    @Setup
    public void setUp(Blackhole bh) throws Exception {
        requireEventLoopThread();
        this.bh = bh;
        channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
        channel.config().setAllocator(ALLOC);
        ctx = channel.pipeline().firstContext();
        input = FrameSample.HEADERS_10.encode(ALLOC);
        frameReader = reader == Reader.stock ? new DefaultHttp2FrameReader() : new PooledHttp2FrameReader();
        parse();
        if (entriesSeen == 0 || input.isReadable()) {
            throw new IllegalStateException(reader + ": no entries walked, or input left");
        }
    }

    @Benchmark
    public void parseAndWalk() throws Http2Exception {
        parse();
    }

    private void parse() throws Http2Exception {
        input.readerIndex(0);
        if (reader == Reader.stock) {
            frameReader.readFrame(ctx, input, stockListener);
        } else {
            ((PooledHttp2FrameReader) frameReader).readFrame(ctx, input, pooledListener);
        }
    }

    @TearDown
    public void tearDown() {
        frameReader.close();
        input.release();
        channel.finishAndReleaseAll();
    }
}
