/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.DefaultHttp2ConnectionEncoder;
import io.netty.handler.codec.http2.DefaultHttp2FrameWriter;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2RemoteFlowController;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2LifecycleManager;
import io.netty.handler.codec.http2.Http2RemoteFlowController;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@link PooledHttp2ConnectionEncoder} against the {@code DefaultHttp2ConnectionEncoder} of the Netty on the class
 * path: the same random writes (HEADERS, trailers, DATA of every size with padding, split by the flow controller and
 * merged in it, on streams this end or the peer opened), window updates, stream closes, write promises completed,
 * failed or cancelled in any order, and buffers consumed or released behind the encoder's back, each through Netty's
 * own frame writer and remote flow controller. Both must write the same bytes, complete the same promises the same
 * way in the same order, make the same lifecycle-manager calls, return the same futures, leave the streams in the
 * same states and release the same buffers. Runs on an event-loop thread, so that recycled frames are reused.
 */
class EncoderDifferentialTest {

    private static final int RUNS = Integer.getInteger("encoderDifferential.runs", 80);
    private static final int STEPS = 300;

    /**
     * With Netty's weighted fair queue, without failed writes and buffers broken elsewhere: those make a frame
     * count bytes it never wrote (Netty's encoder reports an emptied frame as consumed), which trips the queue's
     * own assertions on its accounting (with {@code -ea}) whichever encoder is used.
     */
    @ParameterizedTest(name = "server {0}, RFC 9113 scheduling {1}")
    @CsvSource({"true, false", "true, true", "false, false", "false, true"})
    void sameAsNettysEncoder(boolean server, boolean roundRobin) throws Exception {
        boolean failures = roundRobin;
        EventLoopThread.run(() -> {
            int withMerges = 0;
            for (long seed = 0; seed < RUNS; seed++) {
                Run netty = new Run(seed, server, roundRobin, failures, false);
                Run pooled = new Run(seed, server, roundRobin, failures, true);
                List<String> expected = netty.play();
                List<String> actual = pooled.play();
                for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
                    if (!expected.get(i).equals(actual.get(i))) {
                        fail("seed " + seed + ", event " + i + ": expected " + expected.get(i) + " but was "
                                + actual.get(i) + "\n... after " + expected.subList(Math.max(0, i - 12), i));
                    }
                }
                assertEquals(expected.size(), actual.size(), "seed " + seed + ": events");
                if (netty.merges > 0) {
                    withMerges++;
                }
            }
            assertTrue(withMerges > RUNS / 4, "runs with merged DATA: " + withMerges);
        });
    }

    /** One encoder, Netty's or the pooled one, driven by a seed; {@link #play} returns what it did. */
    private static final class Run extends Http2LifecycleManagerRecorder {
        private final Random random;
        private final boolean server;
        private final boolean failures;
        private final Http2Connection connection;
        private final DefaultHttp2ConnectionEncoder encoder;
        private final EmbeddedChannel channel;
        private final ChannelHandlerContext ctx;
        private final Http2RemoteFlowController flowController;
        /** Writes that reached the channel, with their promises, not yet completed. */
        private final List<ChannelPromise> heldWrites = new ArrayList<>();
        private final List<ChannelPromise> userPromises = new ArrayList<>();
        private final List<ByteBuf> dataBuffers = new ArrayList<>();
        private final List<Integer> streamIds = new ArrayList<>();
        private int nextLocalId;
        private int nextRemoteId;
        int merges;

        Run(long seed, boolean server, boolean roundRobin, boolean failures, boolean pooled) throws Http2Exception {
            random = new Random(seed);
            this.server = server;
            this.failures = failures;
            connection = new DefaultHttp2Connection(server);
            if (roundRobin) {
                connection.remote().flowController(new DefaultHttp2RemoteFlowController(connection,
                        new RoundRobinStreamByteDistributor(connection)));
            }
            DefaultHttp2FrameWriter writer = new DefaultHttp2FrameWriter();
            encoder = pooled ? new PooledHttp2ConnectionEncoder(connection, writer)
                    : new DefaultHttp2ConnectionEncoder(connection, writer);
            encoder.lifecycleManager(this);
            channel = new EmbeddedChannel(new ChannelOutboundHandlerAdapter() {
                @Override
                public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                    ByteBuf bytes = (ByteBuf) msg;
                    log("write " + name(promise) + " " + bytes.readableBytes() + " "
                            + Integer.toHexString(ByteBufUtil.hashCode(bytes)));
                    bytes.release();
                    heldWrites.add(promise);
                }
            }, new ChannelInboundHandlerAdapter() {
                @Override
                public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                    // A void promise's failure goes down the pipeline.
                    log("exceptionCaught " + cause.getClass().getSimpleName() + ": " + cause.getMessage());
                }
            });
            ctx = channel.pipeline().lastContext();
            flowController = encoder.flowController();
            flowController.channelHandlerContext(ctx);
            nextLocalId = server ? 2 : 1;
            nextRemoteId = server ? 1 : 2;
            if (random.nextBoolean()) {
                // Smaller frames, so that DATA is split more.
                writer.maxFrameSize(16384);
            }
        }

        List<String> play() throws Exception {
            try {
                for (int step = 0; step < STEPS; step++) {
                    step();
                }
                // Let everything out, then report what each stream and buffer ended as.
                flowController.incrementWindowSize(connection.connectionStream(), 1 << 24);
                for (int id : streamIds) {
                    Http2Stream stream = connection.stream(id);
                    if (stream != null && stream.state() != Http2Stream.State.CLOSED) {
                        flowController.incrementWindowSize(stream, 1 << 24);
                    }
                }
                flowController.writePendingBytes();
                completeWrites(heldWrites.size(), false);
                for (int id : streamIds) {
                    Http2Stream stream = connection.stream(id);
                    log("stream " + id + " " + (stream == null ? "gone" : stream.state() + " headersSent="
                            + stream.isHeadersSent() + " trailersSent=" + stream.isTrailersSent()));
                }
                for (int i = 0; i < dataBuffers.size(); i++) {
                    log("data " + i + " refCnt " + dataBuffers.get(i).refCnt());
                }
                for (ChannelPromise promise : userPromises) {
                    if (!promise.isDone()) {
                        log("open " + name(promise));
                    }
                }
            } finally {
                for (ByteBuf buffer : dataBuffers) {
                    if (buffer.refCnt() > 0) {
                        buffer.release(buffer.refCnt());
                    }
                }
                channel.finishAndReleaseAll();
            }
            return events;
        }

        private void step() throws Exception {
            int op = random.nextInt(100);
            if (op < 12 || streamIds.isEmpty()) {
                openStream();
            } else if (op < 22) {
                Http2Stream stream = someStream();
                boolean endStream = random.nextInt(3) == 0;
                ChannelPromise promise = userPromise();
                Http2Headers headers = headers();
                int padding = padding();
                if (random.nextInt(4) == 0) {
                    int dependency = random.nextInt(3);
                    boolean exclusive = random.nextBoolean();
                    call("headers " + stream.id(), () -> encoder.writeHeaders(ctx, stream.id(), headers, dependency,
                            (short) 16, exclusive, padding, endStream, promise));
                } else {
                    call("headers " + stream.id(), () -> encoder.writeHeaders(ctx, stream.id(), headers, padding,
                            endStream, promise));
                }
            } else if (op < 55) {
                Http2Stream stream = someStream();
                ByteBuf data = data();
                int padding = padding();
                boolean endStream = random.nextInt(5) == 0;
                ChannelPromise promise = userPromise();
                if (stream.id() != 0 && flowController.hasFlowControlled(stream)) {
                    merges++; // most likely behind DATA, which it then merges with
                }
                call("data " + stream.id(), () -> encoder.writeData(ctx, stream.id(), data, padding, endStream,
                        promise));
                if (failures && random.nextInt(40) == 0 && data.refCnt() > 0) {
                    // A bug elsewhere: the queued buffer is consumed or released behind the encoder's back.
                    if (random.nextBoolean()) {
                        data.skipBytes(data.readableBytes() / 2);
                    } else {
                        data.release();
                    }
                }
            } else if (op < 68) {
                boolean whole = random.nextInt(4) == 0;
                flowController.incrementWindowSize(whole ? connection.connectionStream() : someStream(),
                        1 + random.nextInt(whole ? 60000 : 20000));
            } else if (op < 78) {
                flowController.writePendingBytes();
                log("flushed");
            } else if (op < 90) {
                completeWrites(1 + random.nextInt(4), failures && random.nextInt(6) == 0);
            } else if (op < 93) {
                if (!userPromises.isEmpty()) {
                    ChannelPromise promise = userPromises.get(random.nextInt(userPromises.size()));
                    log("cancel " + name(promise) + " " + promise.cancel(false));
                }
            } else if (op < 96) {
                Http2Stream stream = someStream();
                if (stream.id() != 0 && stream.state() != Http2Stream.State.CLOSED) {
                    log("close " + stream.id());
                    stream.close();
                }
            } else if (op < 98) {
                flowController.initialWindowSize(random.nextInt(70000));
            } else {
                // A write on a stream id that was never opened, or on one long gone.
                int id = random.nextBoolean() ? 1001 : streamIds.get(0);
                ByteBuf data = data();
                ChannelPromise promise = userPromise();
                call("data " + id, () -> encoder.writeData(ctx, id, data, 0, false, promise));
            }
        }

        private void openStream() throws Http2Exception {
            if (random.nextBoolean()) {
                // The peer's request, half-closed or not: this end answers on it.
                int id = nextRemoteId;
                nextRemoteId += 2;
                connection.remote().createStream(id, random.nextBoolean());
                streamIds.add(id);
                log("peer opened " + id);
            } else {
                int id = nextLocalId;
                nextLocalId += 2;
                streamIds.add(id);
                Http2Headers headers = headers();
                int padding = padding();
                boolean endStream = random.nextInt(4) == 0;
                ChannelPromise promise = userPromise();
                call("headers " + id, () -> encoder.writeHeaders(ctx, id, headers, padding, endStream, promise));
            }
        }

        private Http2Stream someStream() {
            for (int i = 0; i < 4; i++) {
                Http2Stream stream = connection.stream(streamIds.get(random.nextInt(streamIds.size())));
                if (stream != null) {
                    return stream;
                }
            }
            return connection.connectionStream();
        }

        private Http2Headers headers() {
            Http2Headers headers = new DefaultHttp2Headers();
            if (server) {
                headers.status(random.nextInt(8) == 0 ? "103" : "200");
            } else {
                headers.method("GET").path("/" + random.nextInt(100)).scheme("http").authority("a");
            }
            if (random.nextBoolean()) {
                headers.add("x-n", Integer.toString(random.nextInt()));
            }
            return headers;
        }

        private int padding() {
            int p = random.nextInt(10);
            return p < 6 ? 0 : p < 9 ? random.nextInt(256) : -1;
        }

        private ByteBuf data() {
            int kind = random.nextInt(10);
            int length = kind < 3 ? 0 : kind < 8 ? random.nextInt(2000) : random.nextInt(40000);
            ByteBuf data;
            if (random.nextInt(8) == 0 && length > 1) {
                CompositeByteBuf composite = Unpooled.compositeBuffer();
                composite.addComponent(true, filled(length / 2));
                composite.addComponent(true, filled(length - length / 2));
                data = composite;
            } else {
                data = filled(length);
            }
            dataBuffers.add(data);
            return data;
        }

        private ByteBuf filled(int length) {
            byte[] bytes = new byte[length];
            random.nextBytes(bytes);
            return Unpooled.wrappedBuffer(bytes);
        }

        private ChannelPromise userPromise() {
            if (random.nextInt(12) == 0) {
                return channel.voidPromise();
            }
            ChannelPromise promise = channel.newPromise();
            String name = name(promise);
            userPromises.add(promise);
            promise.addListener((ChannelFutureListener) f -> log(name + " " + outcome(f)));
            return promise;
        }

        private void completeWrites(int count, boolean fail) {
            for (int i = 0; i < count && !heldWrites.isEmpty(); i++) {
                ChannelPromise write = heldWrites.remove(random.nextInt(Math.min(3, heldWrites.size())));
                log("complete " + name(write) + (fail ? " failed" : ""));
                if (fail) {
                    write.tryFailure(new IOException("write failed"));
                } else {
                    write.trySuccess();
                }
            }
        }

        /** An encoder call, and what it returned or threw. */
        private void call(String what, Write write) {
            ChannelFuture future;
            try {
                future = write.write();
            } catch (Throwable t) {
                log(what + " threw " + t.getClass().getSimpleName() + ": " + t.getMessage());
                return;
            }
            log(what + " returned " + name(future) + " " + (future.isDone() ? outcome(future) : "pending"));
        }
    }

    private interface Write {
        ChannelFuture write();
    }

    /**
     * The lifecycle manager of the encoder under test: records every call, and closes streams as Netty's
     * {@code Http2ConnectionHandler} does, once the future of the last write on them completes.
     */
    private abstract static class Http2LifecycleManagerRecorder implements Http2LifecycleManager {
        final List<String> events = new ArrayList<>();
        private final Map<Object, String> names = new IdentityHashMap<>();

        void log(String event) {
            events.add(event);
        }

        String name(Object promise) {
            return names.computeIfAbsent(promise, p -> "#" + names.size());
        }

        static String outcome(ChannelFuture future) {
            if (future.isSuccess()) {
                return "success";
            }
            if (future.isCancelled()) {
                return "cancelled";
            }
            Throwable cause = future.cause();
            return "failed " + cause.getClass().getSimpleName() + ": " + cause.getMessage();
        }

        @Override
        public void closeStreamLocal(Http2Stream stream, ChannelFuture future) {
            log("closeStreamLocal " + stream.id() + " " + name(future));
            switch (stream.state()) {
                case HALF_CLOSED_LOCAL:
                case OPEN:
                    stream.closeLocalSide();
                    break;
                default:
                    closeStream(stream, future);
                    break;
            }
        }

        @Override
        public void closeStreamRemote(Http2Stream stream, ChannelFuture future) {
            log("closeStreamRemote " + stream.id() + " " + name(future));
        }

        @Override
        public void closeStream(Http2Stream stream, ChannelFuture future) {
            if (future.isDone()) {
                stream.close();
            } else {
                future.addListener(f -> {
                    log("closed " + stream.id());
                    stream.close();
                });
            }
        }

        @Override
        public ChannelFuture resetStream(ChannelHandlerContext ctx, int streamId, long errorCode,
                                         ChannelPromise promise) {
            log("resetStream " + streamId + " " + errorCode);
            return promise.setSuccess();
        }

        @Override
        public ChannelFuture goAway(ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData,
                                    ChannelPromise promise) {
            ReferenceCountUtil.release(debugData);
            log("goAway " + lastStreamId + " " + errorCode);
            return promise.setSuccess();
        }

        @Override
        public void onError(ChannelHandlerContext ctx, boolean outbound, Throwable cause) {
            log("onError " + outbound + " " + cause.getClass().getSimpleName() + ": " + cause.getMessage());
        }
    }
}
