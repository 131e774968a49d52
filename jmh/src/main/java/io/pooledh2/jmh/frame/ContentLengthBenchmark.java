/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.frame;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2Headers;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
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
 * The readers are {@link HeaderBlockBenchmark}'s.
 */
public class ContentLengthBenchmark extends HeaderBlockBenchmark {

    /** Where the request has its content-length header among the regular ones. */
    public enum Position {
        last, middle
    }

    @Param
    public Position contentLength;

    private long length;

    @Override
    void use(Http2Headers headers) {
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
        ByteBuf input = ALLOC.directBuffer(Http2CodecUtil.FRAME_HEADER_LENGTH + block.length);
        input.writeMedium(block.length);
        input.writeByte(Http2FrameTypes.HEADERS);
        input.writeByte(Http2Flags.END_HEADERS);
        input.writeInt(FrameSample.STREAM);
        input.writeBytes(block);
        init(bh, input);
        parse();
        if (length != 16384 || inputLeft()) {
            throw new IllegalStateException(reader + ": content-length " + length + ", or input left");
        }
    }

    @Benchmark
    public void parseAndSetContentLength() throws Http2Exception {
        parse();
    }
}
