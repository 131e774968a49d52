/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.DefaultHttp2RemoteFlowController;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2RemoteFlowController;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.codec.http2.StreamByteDistributor;
import io.netty.handler.codec.http2.UniformStreamByteDistributor;
import io.netty.handler.codec.http2.WeightedFairQueueByteDistributor;
import io.pooledh2.jmh.EventLoopBenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The scheduler alone, inside Netty's {@code DefaultHttp2RemoteFlowController}: one op opens {@code streams}
 * streams, queues a 1 KiB DATA frame on each, lets the flow controller write them all, and closes the streams.
 * {@code weightedFairQueue} is Netty's default (the RFC 7540 priority tree), {@code uniform} Netty's
 * {@code UniformStreamByteDistributor}, {@code roundRobin} the one {@code streamPriorities(false)} installs. In this
 * package because that distributor is package-private.
 * Run: {@code java -jar jmh/target/benchmarks.jar StreamByteDistributorBenchmark -prof gc}.
 */
@State(Scope.Thread)
public class StreamByteDistributorBenchmark extends EventLoopBenchmark {

    @Param({"weightedFairQueue", "uniform", "roundRobin"})
    public String distributor;

    @Param({"1", "16"})
    public int streams;

    private Http2Connection connection;
    private Http2RemoteFlowController flowController;
    private EmbeddedChannel channel;
    private final Frame[] frames = new Frame[16];
    private int nextStreamId = 1;

    @Setup
    public void setUp() throws Http2Exception {
        requireEventLoopThread();
        connection = new DefaultHttp2Connection(false);
        StreamByteDistributor scheduler;
        switch (distributor) {
            case "weightedFairQueue":
                scheduler = new WeightedFairQueueByteDistributor(connection);
                break;
            case "uniform":
                scheduler = new UniformStreamByteDistributor(connection);
                break;
            case "roundRobin":
                scheduler = new RoundRobinStreamByteDistributor(connection);
                break;
            default:
                throw new IllegalArgumentException(distributor);
        }
        flowController = new DefaultHttp2RemoteFlowController(connection, scheduler);
        connection.remote().flowController(flowController);
        channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
        flowController.channelHandlerContext(channel.pipeline().firstContext());
        for (int i = 0; i < frames.length; i++) {
            frames[i] = new Frame();
        }
    }

    @Benchmark
    public int lifecycle() throws Http2Exception {
        Http2Stream[] opened = new Http2Stream[streams];
        for (int i = 0; i < streams; i++) {
            if (nextStreamId > 1 << 30) {
                throw new IllegalStateException("stream ids used up; run shorter iterations");
            }
            opened[i] = connection.local().createStream(nextStreamId, false);
            nextStreamId += 2;
            Frame frame = frames[i];
            frame.size = 1024;
            flowController.addFlowControlled(opened[i], frame);
        }
        flowController.writePendingBytes();
        int written = 0;
        for (int i = 0; i < streams; i++) {
            written += frames[i].written;
            frames[i].written = 0;
            opened[i].close();
        }
        // What was written goes back to the connection window, as the peer's WINDOW_UPDATE would give it.
        flowController.incrementWindowSize(connection.connectionStream(), written);
        return written;
    }

    @TearDown
    public void tearDown() {
        channel.finishAndReleaseAll();
    }

    /** A DATA frame that only counts what the flow controller lets it write. */
    private static final class Frame implements Http2RemoteFlowController.FlowControlled {
        int size;
        int written;

        @Override
        public int size() {
            return size;
        }

        @Override
        public void error(ChannelHandlerContext ctx, Throwable cause) {
            throw new IllegalStateException(cause);
        }

        @Override
        public void writeComplete() {
        }

        @Override
        public void write(ChannelHandlerContext ctx, int allowedBytes) {
            int bytes = Math.min(size, allowedBytes);
            size -= bytes;
            written += bytes;
        }

        @Override
        public boolean merge(ChannelHandlerContext ctx, Http2RemoteFlowController.FlowControlled next) {
            return false;
        }
    }
}
