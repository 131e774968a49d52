/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.pipeline;

import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.DefaultHttp2RemoteFlowController;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.UniformStreamByteDistributor;
import io.pooledh2.codec.PooledHttp2FrameCodecBuilder;
import io.pooledh2.jmh.EventLoopBenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

import java.util.function.Supplier;

/**
 * One op: a stream opened and closed on a live connection, client and server both on the frame codec, in each
 * scheduling mode. {@code priorities}: Netty's default, the RFC 7540 priority tree
 * ({@code WeightedFairQueueByteDistributor}). {@code rfc9113}: no priority tree; for pooledh2 its builder's
 * {@code streamPriorities(false)}, for stock Netty its own {@code UniformStreamByteDistributor}, given to Netty's
 * builder with the connection, which is what a Netty user would do for the same. {@code exchange}: {@code headers}
 * is a GET and its bodiless 200 (the stream's bookkeeping alone), {@code unary} a gRPC-style call with 1 KiB each
 * way and trailers (DATA through the flow controller and its scheduler). B/op counts both ends.
 * Run: {@code java -jar jmh/target/benchmarks.jar StreamLifecycleBenchmark -prof gc}.
 */
@State(Scope.Thread)
public class StreamLifecycleBenchmark extends EventLoopBenchmark {

    /** The frame codec on both ends, Netty's or pooledh2's (named as {@link PipelineStack} names them). */
    @Param({"stockFrameCodec", "pooledFrameCodec"})
    public String stack;

    @Param({"priorities", "rfc9113"})
    public String scheduling;

    @Param({"headers", "unary"})
    public String exchange;

    private InMemoryConnection connection;

    @Setup
    public void setUp(Blackhole bh) {
        requireEventLoopThread();
        boolean rfc9113 = "rfc9113".equals(scheduling);
        Http2Stack ends = "pooledFrameCodec".equals(stack)
                ? new FrameCodecStack(pooled(true, rfc9113), pooled(false, rfc9113))
                : new FrameCodecStack(stock(true, rfc9113), stock(false, rfc9113));
        Scenario scenario = "unary".equals(exchange) ? Scenario.unary(1024) : Scenario.requestResponse(0);
        connection = new InMemoryConnection(ends, scenario, bh);
    }

    private static Supplier<Http2FrameCodecBuilder> pooled(boolean server, boolean rfc9113) {
        return () -> (server ? PooledHttp2FrameCodecBuilder.forServer() : PooledHttp2FrameCodecBuilder.forClient())
                .streamPriorities(!rfc9113);
    }

    private static Supplier<Http2FrameCodecBuilder> stock(boolean server, boolean rfc9113) {
        if (!rfc9113) {
            return server ? Http2FrameCodecBuilder::forServer : Http2FrameCodecBuilder::forClient;
        }
        return () -> new UniformSchedulingBuilder(server);
    }

    @Benchmark
    public void exchange() {
        connection.exchange();
    }

    @TearDown
    public void tearDown() {
        try {
            connection.requireIdle();
        } finally {
            connection.close();
        }
    }

    /**
     * Netty's frame codec builder given a connection whose remote flow controller schedules with Netty's
     * {@code UniformStreamByteDistributor}; the connection says which side it is.
     */
    private static final class UniformSchedulingBuilder extends Http2FrameCodecBuilder {
        UniformSchedulingBuilder(boolean server) {
            Http2Connection connection = new DefaultHttp2Connection(server);
            connection.remote().flowController(new DefaultHttp2RemoteFlowController(connection,
                    new UniformStreamByteDistributor(connection)));
            connection(connection);
            // What forServer() and forClient() also set.
            gracefulShutdownTimeoutMillis(0);
        }
    }
}
