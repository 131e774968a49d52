/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.frame;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2EventAdapter;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameReader;
import io.netty.handler.codec.http2.Http2FrameTypes;
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
 * One op: read the HEADERS frame of a request with a body and do to its headers what Netty's
 * {@code DefaultHttp2ConnectionDecoder} does to every such request, then what an application that copies or
 * converts them does: walk the entries ({@code validatePseudoHeadersDirection}), {@code getAll(content-length)},
 * {@code HttpUtil.normalizeAndGetContentLength} and {@code setLong(content-length, n)}, then walk the entries
 * again. {@link #contentLength} puts the content-length header last or among the other regular headers (a
 * {@code set} moves it to the end in {@code DefaultHttp2Headers}).
 *
 * <p>{@code stock}: {@code DefaultHttp2FrameReader} and its {@code DefaultHttp2Headers}; {@code pooledFrame}: the
 * pooled reader's frame API, the frame released after the walk so that its headers container is reused.
 */
@State(Scope.Thread)
public class ContentLengthBenchmark extends EventLoopBenchmark {

    /** The reader; {@code stock} is the baseline. */
    public enum Reader {
        stock, pooledFrame
    }

    /** Where the request has its content-length header among the regular ones. */
    public enum Position {
        last, middle
    }

    @Param
    public Reader reader;

    @Param
    public Position contentLength;

    private EmbeddedChannel channel;
    private ChannelHandlerContext ctx;
    private ByteBuf input;
    private Http2FrameReader frameReader;
    private Blackhole bh;
    private long length;

    private final Http2EventAdapter stockListener = new Http2EventAdapter() {
        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                                  boolean endOfStream) {
            decodeAndUse(headers);
        }
    };

    private final PooledHttp2FrameListener pooledListener = (ctx, frame) -> {
        try {
            decodeAndUse(((Http2HeadersFrame) frame).headers());
        } finally {
            frame.release();
        }
    };

    private void decodeAndUse(Http2Headers headers) {
        for (Map.Entry<CharSequence, CharSequence> entry : headers) {
            bh.consume(entry.getKey());
        }
        length = HttpUtil.normalizeAndGetContentLength(headers.getAll(HttpHeaderNames.CONTENT_LENGTH), false, true);
        headers.setLong(HttpHeaderNames.CONTENT_LENGTH, length);
        for (Map.Entry<CharSequence, CharSequence> entry : headers) {
            bh.consume(entry);
        }
    }

    @Setup
    public void setUp(Blackhole bh) throws Exception {
        requireEventLoopThread();
        this.bh = bh;
        channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
        channel.config().setAllocator(ALLOC);
        ctx = channel.pipeline().firstContext();
        Http2Headers request = new DefaultHttp2Headers()
                .method("POST").scheme("https").path("/echo").authority("www.example.com")
                .add("content-type", "application/octet-stream");
        if (contentLength == Position.middle) {
            request.add("content-length", "16384");
        }
        request.add("user-agent", "h2load nghttp2/1.52.0").add("accept", "*/*");
        if (contentLength == Position.last) {
            request.add("content-length", "16384");
        }
        byte[] block = StaticHeaderBlocks.encode(request);
        input = ALLOC.directBuffer(Http2CodecUtil.FRAME_HEADER_LENGTH + block.length);
        input.writeMedium(block.length);
        input.writeByte(Http2FrameTypes.HEADERS);
        input.writeByte(Http2Flags.END_HEADERS);
        input.writeInt(FrameSample.STREAM);
        input.writeBytes(block);
        frameReader = reader == Reader.stock ? new DefaultHttp2FrameReader() : new PooledHttp2FrameReader();
        parse();
        if (length != 16384 || input.isReadable()) {
            throw new IllegalStateException(reader + ": content-length " + length + ", or input left");
        }
    }

    @Benchmark
    public void parseAndSetContentLength() throws Http2Exception {
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
