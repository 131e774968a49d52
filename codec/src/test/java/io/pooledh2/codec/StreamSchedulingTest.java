/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2RemoteFlowController;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.UniformStreamByteDistributor;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The builders' {@code streamPriorities} option, against a peer written frame by frame: which scheduler the
 * connection gets, that in the RFC 9113 mode ({@code false}) every stream with a window makes progress whatever its
 * window and whatever priorities the peer sends, and that a peer's PRIORITY frames and prioritized HEADERS are
 * served without an error in both modes.
 */
@ExtendWith(LeakDetectionExtension.class)
class StreamSchedulingTest {

    private static final int STREAMS = 16;
    private static final int BODY = 24 * 1024;

    @Test
    void defaultIsNettysWeightedFairQueue() throws ReflectiveOperationException {
        assertEquals("WeightedFairQueueByteDistributor", distributor(PooledHttp2FrameCodecBuilder.forServer()
                .build()).getClass().getSimpleName());
        assertEquals("WeightedFairQueueByteDistributor", distributor(new PooledHttp2ConnectionHandlerBuilder()
                .server(true).frameListener(new Http2FrameAdapter()).build()).getClass().getSimpleName());
        assertInstanceOf(RoundRobinStreamByteDistributor.class, distributor(PooledHttp2FrameCodecBuilder.forClient()
                .streamPriorities(false).build()));
        assertInstanceOf(RoundRobinStreamByteDistributor.class, distributor(new PooledHttp2ConnectionHandlerBuilder()
                .server(false).streamPriorities(false).frameListener(new Http2FrameAdapter()).build()));
    }

    @Test
    void givenConnectionWithAFlowControllerRefusesTheRfc9113Mode() {
        Http2Connection connection = new DefaultHttp2Connection(true);
        connection.remote().flowController(new DefaultHttp2RemoteFlowController(connection,
                new UniformStreamByteDistributor(connection)));
        assertThrows(IllegalStateException.class, () -> new PooledHttp2ConnectionHandlerBuilder()
                .connection(connection).streamPriorities(false).frameListener(new Http2FrameAdapter()).build());
        // Without the option the connection's own scheduling is kept, as with Netty's builder.
        new PooledHttp2ConnectionHandlerBuilder().connection(new DefaultHttp2Connection(true))
                .frameListener(new Http2FrameAdapter()).build();
    }

    private static Object distributor(Http2ConnectionHandler handler) throws ReflectiveOperationException {
        Field field = DefaultHttp2RemoteFlowController.class.getDeclaredField("streamByteDistributor");
        field.setAccessible(true);
        return field.get(handler.connection().remote().flowController());
    }

    /**
     * Sixteen responses of 24 KiB, stream windows from 1 KiB to 61 KiB, and the connection window given 16 KiB at a
     * time: in every round each stream that still has DATA and window gets some, until all complete.
     */
    @ParameterizedTest(name = "{0}, priorities sent: {1}")
    @CsvSource({"frameCodec, false", "frameCodec, true", "listener, false", "listener, true"})
    void rfc9113ModeStarvesNoStream(String path, boolean sendPriorities) throws Http2Exception {
        try (Peer peer = new Peer(server(path, false))) {
            peer.openStreams(sendPriorities, false);
            int[] windows = new int[STREAMS];
            for (int i = 0; i < STREAMS; i++) {
                windows[i] = 1024 + i * 4000;
            }
            // The initial stream window is 0: each stream gets its own window by WINDOW_UPDATE.
            for (int i = 0; i < STREAMS; i++) {
                peer.windowUpdate(streamId(i), windows[i]);
            }
            peer.exchange();
            for (int round = 0; !peer.allEnded(); round++) {
                assertTrue(round < 100, "responses do not complete: " + peer);
                int[] before = peer.received.clone();
                peer.windowUpdate(0, 16 * 1024);
                peer.exchange();
                for (int i = 0; i < STREAMS; i++) {
                    boolean sendable = before[i] < BODY && before[i] < windows[i];
                    if (sendable) {
                        assertTrue(peer.received[i] > before[i], "round " + round + ": stream " + streamId(i)
                                + " got nothing; " + peer);
                    }
                }
                // Windows run out at different times; refill each stream as it does.
                for (int i = 0; i < STREAMS; i++) {
                    if (peer.received[i] == windows[i] && windows[i] < BODY) {
                        int more = Math.min(4096 + i * 1000, BODY - windows[i]);
                        windows[i] += more;
                        peer.windowUpdate(streamId(i), more);
                    }
                }
            }
            peer.assertNoErrors();
        }
    }

    /**
     * A peer that makes every stream depend exclusively on the one before, and leaves windows open: with
     * priorities honoured (Netty's scheduler) the first connection window goes to the head of the chain only;
     * in the RFC 9113 mode it is shared by all.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"frameCodec", "listener"})
    void prioritiesDecideOnlyWhenHonoured(String path) throws Http2Exception {
        for (boolean honoured : new boolean[] {true, false}) {
            try (Peer peer = new Peer(server(path, honoured))) {
                peer.openStreams(true, true);
                peer.exchange();
                // The default connection window, 65,535 bytes, and stream windows as large.
                int served = 0;
                for (int i = 0; i < STREAMS; i++) {
                    if (peer.received[i] > 0) {
                        served++;
                    }
                }
                if (honoured) {
                    assertEquals(BODY, peer.received[0], peer.toString());
                    assertTrue(served <= 3, "the chain's head first: " + peer);
                } else {
                    assertEquals(STREAMS, served, peer.toString());
                }
                for (int round = 0; !peer.allEnded(); round++) {
                    assertTrue(round < 100, "responses do not complete: " + peer);
                    peer.windowUpdate(0, 64 * 1024);
                    peer.exchange();
                }
                peer.assertNoErrors();
            }
        }
    }

    /**
     * PRIORITY frames on idle, open and closed streams and prioritized HEADERS, in both modes: no error, every
     * response complete.
     */
    @ParameterizedTest(name = "{0}, priorities honoured: {1}")
    @CsvSource({"frameCodec, true", "frameCodec, false", "listener, true", "listener, false"})
    void priorityFramesAreServedWithoutError(String path, boolean honoured) throws Http2Exception {
        servePriorities(path, honoured, false);
    }

    /**
     * Reprioritizations RFC 7540 allows (section 5.3.3) that Netty's weighted fair queue fails its own assertion on
     * (with {@code -ea}) while streams have DATA queued: a stream made to depend exclusively on one of its
     * dependents, and an exclusive dependency between two closed streams. The RFC 9113 mode keeps no tree.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"frameCodec", "listener"})
    void rfc9113ModeServesAnyReprioritization(String path) throws Http2Exception {
        servePriorities(path, false, true);
    }

    private static void servePriorities(String path, boolean honoured, boolean reparentDependents)
            throws Http2Exception {
        try (Peer peer = new Peer(server(path, honoured))) {
            // Idle streams, before they open: Netty's scheduler keeps state for some.
            peer.priority(41, 0, 200, false);
            peer.priority(43, 41, 10, true);
            // Each stream depends exclusively on the one before.
            peer.openStreams(true, true);
            if (reparentDependents) {
                peer.priority(streamId(3), streamId(5), 1, true);
            }
            peer.priority(streamId(5), 0, 256, false);
            peer.exchange();
            for (int round = 0; !peer.allEnded(); round++) {
                assertTrue(round < 100, "responses do not complete: " + peer);
                peer.windowUpdate(0, 64 * 1024);
                // On streams that have closed by now, and on one never opened.
                if (reparentDependents) {
                    peer.priority(streamId(0), streamId(1), 7, true);
                }
                peer.priority(45, streamId(2), 16, false);
                peer.exchange();
            }
            peer.assertNoErrors();
        }
    }

    private static int streamId(int index) {
        return 1 + 2 * index;
    }

    /** A server answering every request with HEADERS and {@link #BODY} bytes of DATA, built with the option. */
    private static ChannelHandler[] server(String path, boolean streamPriorities) {
        Http2Settings settings = new Http2Settings().maxConcurrentStreams(100);
        if ("frameCodec".equals(path)) {
            return new ChannelHandler[] {
                PooledHttp2FrameCodecBuilder.forServer().initialSettings(settings).streamPriorities(streamPriorities)
                        .build(),
                new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        try {
                            if (msg instanceof Http2HeadersFrame && ((Http2HeadersFrame) msg).isEndStream()) {
                                Http2HeadersFrame request = (Http2HeadersFrame) msg;
                                ctx.write(new DefaultHttp2HeadersFrame(response()).stream(request.stream()));
                                ctx.write(new DefaultHttp2DataFrame(body(), true).stream(request.stream()));
                            }
                        } finally {
                            ReferenceCountUtil.release(msg);
                        }
                    }
                }
            };
        }
        ResponderListener listener = new ResponderListener();
        Http2ConnectionHandler handler = new PooledHttp2ConnectionHandlerBuilder().server(true)
                .initialSettings(settings).streamPriorities(streamPriorities).frameListener(listener).build();
        listener.handler = handler;
        return new ChannelHandler[] {handler};
    }

    private static Http2Headers response() {
        return new DefaultHttp2Headers().status("200");
    }

    private static ByteBuf body() {
        ByteBuf body = Unpooled.buffer(BODY);
        for (int i = 0; i < BODY; i++) {
            body.writeByte(i);
        }
        return body;
    }

    private static final class ResponderListener extends Http2FrameAdapter {
        Http2ConnectionHandler handler;

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                                  boolean endOfStream) {
            if (endOfStream) {
                handler.encoder().writeHeaders(ctx, streamId, response(), 0, false, ctx.newPromise());
                handler.encoder().writeData(ctx, streamId, body(), 0, true, ctx.newPromise());
            }
        }

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int dependency,
                                  short weight, boolean exclusive, int padding, boolean endOfStream) {
            onHeadersRead(ctx, streamId, headers, padding, endOfStream);
        }
    }

    /** The client: writes raw frames into the server's channel and reads back what the server sends. */
    private static final class Peer extends Http2FrameAdapter implements AutoCloseable {
        final EmbeddedChannel channel;
        final int[] received = new int[STREAMS];
        final boolean[] ended = new boolean[STREAMS];
        final List<String> errors = new ArrayList<>();
        private final DefaultHttp2FrameReader reader = new DefaultHttp2FrameReader(false);
        private final ByteBuf in = Unpooled.buffer();

        Peer(ChannelHandler... server) {
            channel = new EmbeddedChannel();
            // Flow control, not channel writability, is what limits the server here.
            channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(8 << 20, 16 << 20));
            channel.pipeline().addLast(server);
            in.writeBytes(Http2CodecUtil.connectionPrefaceBuf());
            // SETTINGS: INITIAL_WINDOW_SIZE 0 unless priorities decide, then the default.
            RawFrames.header(in, 6, 0x4, 0, 0);
            in.writeShort(0x4).writeInt(0);
            RawFrames.header(in, 0, 0x4, Http2Flags.ACK, 0);
        }

        /**
         * Opens the streams; with priorities, each HEADERS depends exclusively on the stream before. With
         * {@code openWindows}, a SETTINGS frame then gives every stream a window of 65,535 bytes.
         */
        void openStreams(boolean priorities, boolean openWindows) throws Http2Exception {
            for (int i = 0; i < STREAMS; i++) {
                byte[] block = RawFrames.requestHeaders("/" + i);
                int flags = Http2Flags.END_HEADERS | Http2Flags.END_STREAM;
                if (priorities) {
                    RawFrames.header(in, 5 + block.length, 0x1, flags | Http2Flags.PRIORITY, streamId(i));
                    in.writeInt(i == 0 ? 0 : 0x80000000 | streamId(i - 1)).writeByte(i == 0 ? 255 : 15);
                    in.writeBytes(block);
                } else {
                    RawFrames.frame(in, 0x1, flags, streamId(i), block);
                }
            }
            if (openWindows) {
                // Windows wide open for every stream: only priorities (and the connection window) decide.
                RawFrames.header(in, 6, 0x4, 0, 0);
                in.writeShort(0x4).writeInt(65535);
            }
        }

        void windowUpdate(int streamId, int increment) {
            RawFrames.header(in, 4, 0x8, 0, streamId);
            in.writeInt(increment);
        }

        void priority(int streamId, int dependency, int weight, boolean exclusive) {
            RawFrames.header(in, 5, 0x2, 0, streamId);
            in.writeInt(exclusive ? 0x80000000 | dependency : dependency).writeByte(weight - 1);
        }

        /** Sends what was written so far and reads everything the server answers. */
        void exchange() throws Http2Exception {
            channel.writeInbound(in.retainedDuplicate());
            in.clear();
            channel.runPendingTasks();
            ChannelHandlerContext ctx = channel.pipeline().firstContext();
            for (ByteBuf out; (out = channel.readOutbound()) != null; ) {
                try {
                    reader.readFrame(ctx, out, this);
                    assertEquals(0, out.readableBytes(), "a frame split across writes");
                } finally {
                    out.release();
                }
            }
            assertTrue(channel.isOpen(), "server closed the connection: " + errors);
        }

        boolean allEnded() {
            for (boolean e : ended) {
                if (!e) {
                    return false;
                }
            }
            return true;
        }

        void assertNoErrors() {
            assertEquals(List.of(), errors);
            for (int i = 0; i < STREAMS; i++) {
                assertEquals(BODY, received[i], "stream " + streamId(i));
            }
        }

        @Override
        public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding,
                              boolean endOfStream) {
            int i = (streamId - 1) / 2;
            for (int j = data.readerIndex(); j < data.writerIndex(); j++) {
                assertEquals((byte) (received[i] + j - data.readerIndex()), data.getByte(j), "stream " + streamId);
            }
            received[i] += data.readableBytes();
            ended[i] |= endOfStream;
            return data.readableBytes() + padding;
        }

        @Override
        public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
            errors.add("RST_STREAM " + streamId + " " + errorCode);
        }

        @Override
        public void onGoAwayRead(ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData) {
            errors.add("GOAWAY " + errorCode + " " + debugData.toString(java.nio.charset.StandardCharsets.UTF_8));
        }

        @Override
        public String toString() {
            return "received " + java.util.Arrays.toString(received) + ", errors " + errors;
        }

        @Override
        public void close() {
            in.release();
            reader.close();
            channel.finishAndReleaseAll();
        }
    }
}
