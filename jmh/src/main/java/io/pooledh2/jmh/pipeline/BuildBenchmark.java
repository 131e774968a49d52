/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.pipeline;

import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.pooledh2.codec.PooledHttp2ConnectionHandlerBuilder;
import io.pooledh2.codec.PooledHttp2FrameCodecBuilder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * What a new connection costs before its first byte: one server-side {@code build()} of each builder, stock and
 * pooled, with defaults (the pooled ones with their stream-state checks), in ns and B per connection. The handler
 * is not added to a channel, so this is the builder's work alone: the connection, encoder, decoder, reader and
 * HPACK state it makes.
 * Run: {@code java -jar jmh/target/benchmarks.jar BuildBenchmark -f 2 -wi 3 -w 1s -i 5 -r 1s -prof gc}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class BuildBenchmark {

    /** Which builder: Netty's or pooledh2's, of the frame codec or of the listener path's handler. */
    @Param({"stockFrameCodec", "pooledFrameCodec", "stockListener", "pooledListener"})
    public String builder;

    private Supplier<Http2ConnectionHandler> build;

    @Setup
    public void setUp() {
        Http2FrameAdapter listener = new Http2FrameAdapter();
        switch (builder) {
            case "stockFrameCodec":
                build = Http2FrameCodecBuilder.forServer()::build;
                break;
            case "pooledFrameCodec":
                build = PooledHttp2FrameCodecBuilder.forServer()::build;
                break;
            case "stockListener":
                build = new Http2ConnectionHandlerBuilder().server(true).frameListener(listener)::build;
                break;
            case "pooledListener":
                build = new PooledHttp2ConnectionHandlerBuilder().server(true).frameListener(listener)::build;
                break;
            default:
                throw new IllegalArgumentException(builder);
        }
    }

    @Benchmark
    public Http2ConnectionHandler build() {
        return build.get();
    }
}
