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
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The RFC 9113 distributor schedules exactly as Netty's {@code UniformStreamByteDistributor}: Netty's remote flow
 * controller around each, given the same random streams, frames, windows, closes and priority updates, writes the
 * same bytes of the same streams in the same order.
 */
class RoundRobinStreamByteDistributorTest {

    @Test
    void writesAsNettysUniformDistributor() throws Http2Exception {
        for (long seed = 0; seed < 300; seed++) {
            List<String> uniform = run(seed, UniformStreamByteDistributor::new);
            List<String> roundRobin = run(seed, RoundRobinStreamByteDistributor::new);
            assertEquals(uniform, roundRobin, "seed " + seed);
        }
    }

    /** What one random run writes: a line per frame write and per call that completes or fails a frame. */
    private static List<String> run(long seed, Function<Http2Connection, StreamByteDistributor> distributors)
            throws Http2Exception {
        Random random = new Random(seed);
        List<String> log = new ArrayList<>();
        Http2Connection connection = new DefaultHttp2Connection(false);
        DefaultHttp2RemoteFlowController controller =
                new DefaultHttp2RemoteFlowController(connection, distributors.apply(connection));
        connection.remote().flowController(controller);
        EmbeddedChannel channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
        try {
            controller.channelHandlerContext(channel.pipeline().firstContext());
            List<Http2Stream> streams = new ArrayList<>();
            int nextId = 1;
            for (int step = 0; step < 400; step++) {
                int op = random.nextInt(100);
                if (op < 10 || streams.isEmpty()) {
                    Http2Stream stream = connection.local().createStream(nextId, false);
                    nextId += 2;
                    streams.add(stream);
                    if (random.nextBoolean()) {
                        controller.incrementWindowSize(stream, random.nextInt(3) == 0 ? -random.nextInt(70000)
                                : random.nextInt(20000));
                    }
                } else if (op < 45) {
                    Http2Stream stream = streams.get(random.nextInt(streams.size()));
                    int size = random.nextInt(4) == 0 ? 0 : random.nextInt(30000);
                    controller.addFlowControlled(stream, new Frame(log, stream.id(), size));
                } else if (op < 65) {
                    boolean connectionWindow = random.nextInt(3) == 0;
                    Http2Stream stream = connectionWindow ? connection.connectionStream()
                            : streams.get(random.nextInt(streams.size()));
                    controller.incrementWindowSize(stream, random.nextInt(40000) + 1);
                } else if (op < 70) {
                    Http2Stream stream = streams.remove(random.nextInt(streams.size()));
                    stream.close();
                } else if (op < 75) {
                    Http2Stream stream = streams.get(random.nextInt(streams.size()));
                    controller.updateDependencyTree(stream.id(), 0, (short) (1 + random.nextInt(256)),
                            random.nextBoolean());
                } else if (op < 78) {
                    controller.initialWindowSize(random.nextInt(100000));
                } else {
                    controller.writePendingBytes();
                    log.add("flush");
                }
            }
        } finally {
            channel.finishAndReleaseAll();
        }
        return log;
    }

    private static final class Frame implements Http2RemoteFlowController.FlowControlled {
        private final List<String> log;
        private final int streamId;
        private int size;

        Frame(List<String> log, int streamId, int size) {
            this.log = log;
            this.streamId = streamId;
            this.size = size;
        }

        @Override
        public int size() {
            return size;
        }

        @Override
        public void error(ChannelHandlerContext ctx, Throwable cause) {
            log.add("error " + streamId);
        }

        @Override
        public void writeComplete() {
            log.add("complete " + streamId);
        }

        @Override
        public void write(ChannelHandlerContext ctx, int allowedBytes) {
            int written = Math.min(size, allowedBytes);
            size -= written;
            log.add("write " + streamId + " " + written);
        }

        @Override
        public boolean merge(ChannelHandlerContext ctx, Http2RemoteFlowController.FlowControlled next) {
            return false;
        }
    }
}
