/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.frame;

import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;
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
public class HeadersIterationBenchmark extends HeaderBlockBenchmark {

    private int entriesSeen;

    @Override
    void use(Http2Headers headers) {
        for (Map.Entry<CharSequence, CharSequence> entry : headers) {
            bh.consume(entry);
            entriesSeen++;
        }
    }

    @Setup
    public void setUp(Blackhole bh) throws Exception {
        init(bh, FrameSample.HEADERS_10.encode(ALLOC));
        parse();
        if (entriesSeen == 0 || inputLeft()) {
            throw new IllegalStateException(reader + ": no entries walked, or input left");
        }
    }

    @Benchmark
    public void parseAndWalk() throws Http2Exception {
        parse();
    }
}
