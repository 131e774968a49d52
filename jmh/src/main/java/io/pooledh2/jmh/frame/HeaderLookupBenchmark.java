/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.frame;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.Http2EventAdapter;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.util.AsciiString;
import io.pooledh2.codec.PooledHttp2Frame;
import io.pooledh2.codec.PooledHttp2FrameReader;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

import java.util.Map;

/**
 * What a server's look-ups on a request's headers cost: {@code DefaultHttp2Headers}' hash table ({@code stock})
 * against the pooled container's scan of its arrays ({@code pooledFrame}), on the headers of
 * {@link FrameSample#HEADERS_10} (four pseudo-headers, ten regular ones). {@link #lookUp}: the look-ups of
 * {@link #lookUps} alone, on headers decoded once; {@link #parseAndLookUp}: read the HEADERS frame, then those
 * look-ups, as for every request (the readers are {@link HeaderBlockBenchmark}'s), so that what each container
 * pays per block to answer them is in the op, and {@code lookUps=none} is the decode alone.
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar HeaderLookupBenchmark -prof gc
 * </pre>
 */
public class HeaderLookupBenchmark extends HeaderBlockBenchmark {

    private static final AsciiString ABSENT = AsciiString.cached("x-forwarded-for");

    /** What the op asks of the headers. */
    public enum LookUps {
        /** None: the decode alone, the baseline of the others. */
        none,
        /** The four request pseudo-headers, as a router and Netty's decoder read them. */
        pseudo,
        /**
         * {@code getAll(content-length)}, which {@code DefaultHttp2ConnectionDecoder} asks of every request, then
         * {@code get} of a header that is there and of one that is not.
         */
        regular,
        /** {@code get} of every regular header of the block, by names that are not the decoder's instances. */
        everyRegular
    }

    @Param
    public LookUps lookUps;

    private AsciiString[] regularNames;
    /** Headers decoded in the setup and kept (with their frame) for {@link #lookUp}. */
    private Http2Headers kept;
    /** The pooled frame whose headers {@link #kept} are; released at the end of the trial. */
    private PooledHttp2Frame keptFrame;

    @Override
    void use(Http2Headers headers) {
        Blackhole bh = this.bh;
        switch (lookUps) {
            case pseudo:
                bh.consume(headers.method());
                bh.consume(headers.scheme());
                bh.consume(headers.authority());
                bh.consume(headers.path());
                break;
            case regular:
                bh.consume(headers.getAll(HttpHeaderNames.CONTENT_LENGTH));
                bh.consume(headers.get(HttpHeaderNames.USER_AGENT));
                bh.consume(headers.get(ABSENT));
                break;
            case everyRegular:
                for (AsciiString name : regularNames) {
                    bh.consume(headers.get(name));
                }
                break;
            default:
                bh.consume(headers);
        }
    }

    @Setup
    public void setUp(Blackhole bh) throws Exception {
        Http2Headers sample = StaticHeaderBlocks.requestTenHeaders();
        regularNames = new AsciiString[sample.size() - 4];
        int next = 0;
        for (Map.Entry<CharSequence, CharSequence> header : sample) {
            if (!Http2Headers.PseudoHeaderName.hasPseudoHeaderFormat(header.getKey())) {
                // New instances: a lookup cannot match the decoder's by identity.
                regularNames[next++] = new AsciiString(header.getKey().toString());
            }
        }
        init(bh, FrameSample.HEADERS_10.encode(ALLOC));
        kept = decodeOnce();
        parse();
        if (inputLeft() || kept.path() == null || kept.get(ABSENT) != null) {
            throw new IllegalStateException(variant() + ": input left, or headers not decoded");
        }
        for (AsciiString name : regularNames) {
            if (kept.get(name) == null) {
                throw new IllegalStateException(variant() + ": no " + name + " in the decoded headers");
            }
        }
    }

    /** The sample's headers, decoded by a reader of the same kind that this benchmark's ops do not touch. */
    private Http2Headers decodeOnce() throws Http2Exception {
        Http2Headers[] decoded = new Http2Headers[1];
        ByteBuf block = input.duplicate();
        if (reader == Reader.stock) {
            DefaultHttp2FrameReader once = new DefaultHttp2FrameReader();
            once.readFrame(ctx, block, new Http2EventAdapter() {
                @Override
                public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers,
                                          int padding, boolean endOfStream) {
                    decoded[0] = headers;
                }
            });
            once.close();
        } else {
            PooledHttp2FrameReader once = new PooledHttp2FrameReader();
            once.readFrame(ctx, block, (ctx, frame) -> {
                keptFrame = frame;
                decoded[0] = ((Http2HeadersFrame) frame).headers();
            });
            once.close();
        }
        return decoded[0];
    }

    @TearDown
    public void releaseKept() {
        if (keptFrame != null) {
            keptFrame.release();
        }
    }

    @Benchmark
    public void parseAndLookUp() throws Http2Exception {
        parse();
    }

    /**
     * The look-ups alone, on headers decoded once in the setup. A name that the decoder takes from an HPACK table
     * is the same instance block after block, so what such an instance caches (its hash) is cached here too.
     */
    @Benchmark
    public void lookUp() {
        use(kept);
    }
}
