/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.ChannelFuture;
import io.netty.handler.codec.http2.DefaultHttp2FrameWriter;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2Frame;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.NettyBuilderHooks;
import io.netty.handler.codec.http2.StreamBufferingEncoder;
import io.netty.handler.codec.http2.Http2PingFrame;
import io.netty.handler.codec.http2.Http2PriorityFrame;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.Http2SettingsFrame;
import io.netty.handler.codec.http2.Http2StreamFrame;
import io.netty.handler.codec.http2.Http2UnknownFrame;
import io.netty.handler.codec.http2.Http2WindowUpdateFrame;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The pooled frame codec against Netty's: same frames up the pipeline, same bytes on the wire, same limits. */
class PooledHttp2FrameCodecTest {

    /** Renders every message the codec fires, and releases it. */
    @ChannelHandler.Sharable
    private static final class Recorder extends ChannelInboundHandlerAdapter {
        final List<String> seen = new ArrayList<>();
        int pooled;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                seen.add(render(msg));
                if (msg instanceof PooledHttp2Frame) {
                    pooled++;
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        /** Both codecs fire connection errors up the pipeline: part of what must match. */
        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            seen.add("EXCEPTION " + cause.getClass().getSimpleName() + ": " + cause.getMessage());
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            // Stream state events carry no frame; the outbound bytes cover their effect.
        }
    }

    static String render(Object msg) {
        if (!(msg instanceof Http2Frame)) {
            return msg.getClass().getSimpleName();
        }
        StringBuilder out = new StringBuilder(((Http2Frame) msg).name().replace("(ACK)", "_ACK"));
        if (msg instanceof Http2StreamFrame) {
            Http2StreamFrame f = (Http2StreamFrame) msg;
            out.append(" stream=").append(f.stream() == null ? "none" : String.valueOf(f.stream().id()));
        }
        if (msg instanceof Http2DataFrame) {
            Http2DataFrame f = (Http2DataFrame) msg;
            out.append(" data=").append(ListenerTranscript.hex(f.content())).append(" pad=").append(f.padding())
                    .append(" eos=").append(f.isEndStream()).append(" fc=").append(f.initialFlowControlledBytes());
        } else if (msg instanceof Http2HeadersFrame) {
            Http2HeadersFrame f = (Http2HeadersFrame) msg;
            out.append(" headers=").append(ListenerTranscript.render(f.headers())).append(" pad=").append(f.padding())
                    .append(" eos=")
                    .append(f.isEndStream());
        } else if (msg instanceof Http2PriorityFrame) {
            Http2PriorityFrame f = (Http2PriorityFrame) msg;
            out.append(" dep=").append(f.streamDependency()).append(" w=").append(f.weight()).append(" x=")
                    .append(f.exclusive());
        } else if (msg instanceof Http2ResetFrame) {
            out.append(" error=").append(((Http2ResetFrame) msg).errorCode());
        } else if (msg instanceof Http2SettingsFrame) {
            out.append(' ').append(new TreeMap<>(((Http2SettingsFrame) msg).settings()));
        } else if (msg instanceof Http2PingFrame) {
            out.append(' ').append(((Http2PingFrame) msg).content())
                    .append(" ack=").append(((Http2PingFrame) msg).ack());
        } else if (msg instanceof Http2GoAwayFrame) {
            Http2GoAwayFrame f = (Http2GoAwayFrame) msg;
            out.append(" last=").append(f.lastStreamId()).append(" error=").append(f.errorCode())
                    .append(" debug=").append(ListenerTranscript.hex(f.content()));
        } else if (msg instanceof Http2WindowUpdateFrame) {
            out.append(" inc=").append(((Http2WindowUpdateFrame) msg).windowSizeIncrement());
        } else if (msg instanceof Http2UnknownFrame) {
            Http2UnknownFrame f = (Http2UnknownFrame) msg;
            out.append(" type=").append(f.frameType()).append(" flags=").append(f.flags().value())
                    .append(" payload=").append(ListenerTranscript.hex(f.content()));
        }
        return out.toString();
    }

    /** What one server codec made of the client's bytes: the frames it fired and the bytes it wrote back. */
    private static final class Run {
        final List<String> frames;
        final String written;
        final int pooled;
        final boolean open;

        Run(List<String> frames, String written, int pooled, boolean open) {
            this.frames = frames;
            this.written = written;
            this.pooled = pooled;
            this.open = open;
        }
    }

    private static Run serve(Http2FrameCodec codec, Consumer<ByteBuf> client) {
        Recorder recorder = new Recorder();
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.config().setAllocator(PooledByteBufAllocator.DEFAULT);
        channel.pipeline().addLast(codec, recorder);
        try {
            ByteBuf in = PooledByteBufAllocator.DEFAULT.buffer();
            in.writeBytes(Http2CodecUtil.connectionPrefaceBuf());
            RawFrames.header(in, 0, 0x4, 0, 0);        // client SETTINGS
            RawFrames.header(in, 0, 0x4, 0x1, 0);      // ACK of the server's SETTINGS
            client.accept(in);
            channel.writeInbound(in);
            channel.runPendingTasks();
            ByteBuf written = Unpooled.buffer();
            for (Object out; (out = channel.readOutbound()) != null; ) {
                written.writeBytes((ByteBuf) out);
                ((ByteBuf) out).release();
            }
            String hex = ByteBufUtil.hexDump(written);
            written.release();
            return new Run(recorder.seen, hex, recorder.pooled, channel.isOpen());
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    /** Runs the same client bytes against Netty's codec and the pooled one and compares everything. */
    private static Run assertSameAsNetty(Consumer<ByteBuf> client) {
        Run stock = serve(Http2FrameCodecBuilder.forServer().build(), client);
        Run pooled = serve(PooledHttp2FrameCodecBuilder.forServer().build(), client);
        assertEquals(stock.frames, pooled.frames, "frames fired up the pipeline");
        assertEquals(stock.written, pooled.written, "bytes written back to the client");
        assertEquals(stock.open, pooled.open, "channel left open");
        return pooled;
    }

    @Test
    void requestOfEveryFrameTypeMatchesNettysCodec() throws Exception {
        Run run = assertSameAsNetty(in -> {
            try {
                RawFrames.frame(in, 0x1, Http2Flags.END_HEADERS, 1, RawFrames.requestHeaders("/a"));
                RawFrames.frame(in, 0x0, 0, 1, RawFrames.bytes("hello"));
                in.writeMedium(1 + 3 + 2).writeByte(0x0).writeByte(Http2Flags.PADDED).writeInt(1).writeByte(2)
                        .writeBytes(RawFrames.bytes("abc")).writeZero(2);
                RawFrames.header(in, 4, 0x8, 0, 1);
                in.writeInt(1000);
                RawFrames.header(in, 4, 0x8, 0, 0);
                in.writeInt(2000);
                RawFrames.header(in, 5, 0x2, 0, 1);
                in.writeInt(0).writeByte(99);
                RawFrames.header(in, 8, 0x6, 0, 0);
                in.writeLong(42);
                RawFrames.header(in, 6, 0x4, 0, 0);
                in.writeShort(0x3).writeInt(50);
                RawFrames.frame(in, 0x21, 0x5, 1, RawFrames.bytes("ext"));
                RawFrames.frame(in, 0x0, Http2Flags.END_STREAM, 1, RawFrames.bytes("bye"));
                RawFrames.frame(in, 0x1, Http2Flags.END_HEADERS, 3, RawFrames.requestHeaders("/b"));
                RawFrames.header(in, 4, 0x3, 0, 3);
                in.writeInt(8);
                RawFrames.header(in, 8 + 4, 0x7, 0, 0);
                in.writeInt(3).writeInt(0).writeBytes(RawFrames.bytes("done"));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        assertTrue(run.pooled >= 12, "the pooled codec fired the reader's frames: " + run.pooled + " " + run.frames);
    }

    @Test
    void protocolErrorGetsTheSameGoAwayAsNettysCodec() {
        Run run = assertSameAsNetty(in -> RawFrames.frame(in, 0x0, 0, 0, RawFrames.bytes("data on stream 0")));
        assertFalse(run.written.isEmpty());
    }

    @Test
    void dataOnAnIdleStreamMatchesNettysCodec() {
        assertSameAsNetty(in -> RawFrames.frame(in, 0x0, 0, 5, RawFrames.bytes("no such stream")));
    }

    @Test
    void emptyDataFloodIsStoppedAsByNettysCodec() {
        Run run = assertSameAsNetty(RawFrames::emptyDataFlood);
        // ENHANCE_YOUR_CALM (0xb) in the GOAWAY the protection sends.
        assertTrue(run.written.contains("0000000b"), run.written);
    }

    @Test
    void rstFloodIsStoppedAsByNettysCodec() {
        Run run = assertSameAsNetty(in -> {
            try {
                byte[] block = RawFrames.requestHeaders("/rst");
                for (int stream = 1; stream < 2 * 250; stream += 2) {
                    RawFrames.frame(in, 0x1, Http2Flags.END_HEADERS, stream, block);
                    RawFrames.header(in, 4, 0x3, 0, stream);
                    in.writeInt(8);
                }
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        assertFalse(run.open, "the connection was closed for the flood");
        assertTrue(run.written.contains("0000000b"), "ENHANCE_YOUR_CALM");
    }

    /** Child channels of Http2MultiplexHandler get the pooled frames, and releasing them lets the reader reuse them. */
    @Test
    void multiplexedChildChannelsReceivePooledFramesThatAreReused() throws Exception {
        EventLoopThread.run(() -> {
            List<Object> headersFrames = new ArrayList<>();
            List<String> streams = new ArrayList<>();
            EmbeddedChannel channel = multiplexedServer(msg -> {
                assertTrue(msg instanceof PooledHttp2Frame, "a pooled frame: " + msg);
                if (msg instanceof Http2HeadersFrame) {
                    headersFrames.add(msg);
                    Http2HeadersFrame h = (Http2HeadersFrame) msg;
                    assertNotNull(h.stream());
                    streams.add(h.stream().id() + " " + h.headers().path());
                }
            });
            try {
                ByteBuf in = prefaceAndSettings();
                // Not stream 1: with no server parent channel, the multiplexer takes stream 1 for an upgrade.
                RawFrames.frame(in, 0x1, Http2Flags.END_HEADERS | Http2Flags.END_STREAM, 3,
                        RawFrames.requestHeaders("/one"));
                RawFrames.frame(in, 0x1, Http2Flags.END_HEADERS | Http2Flags.END_STREAM, 5,
                        RawFrames.requestHeaders("/two"));
                channel.writeInbound(in);
                channel.runPendingTasks();
                assertEquals(List.of("3 /one", "5 /two"), streams);
                assertSame(headersFrames.get(0), headersFrames.get(1),
                        "the frame released by stream 3's child was reused for stream 5");
            } finally {
                channel.finishAndReleaseAll();
            }
        });
    }

    /**
     * A frame released in its child channel's read keeps its stream (and through it the child channel), and a
     * HEADERS frame its block's names and values, for its next parse; when the connection closes, the frames of
     * the thread drop them, so that an idle event loop keeps no closed connection, nor its last request's headers,
     * reachable.
     */
    @Test
    void aClosedConnectionIsNotKeptByTheThreadsFrames() throws Exception {
        EventLoopThread.run(() -> {
            List<Object> frames = new ArrayList<>();
            EmbeddedChannel channel = multiplexedServer(frames::add);
            try {
                ByteBuf in = prefaceAndSettings();
                RawFrames.frame(in, 0x1, Http2Flags.END_HEADERS, 3, RawFrames.requestHeaders("/one"));
                RawFrames.frame(in, 0x0, Http2Flags.END_STREAM, 3, new byte[] {1, 2, 3});
                channel.writeInbound(in);
                channel.runPendingTasks();
                assertEquals(2, frames.size(), "HEADERS and DATA: " + frames);
                for (Object frame : frames) {
                    assertNotNull(streamField(frame), "kept for the next parse: " + frame.getClass());
                }
                PooledHttp2Headers headers = (PooledHttp2Headers) ((HeaderBlockFrame) frames.get(0)).headers;
                assertTrue(headers.referencesHeld() > 0, "the request's names and values, out of reach");
                assertTrue(channel.close().isSuccess());
                channel.runPendingTasks();
                for (Object frame : frames) {
                    assertNull(streamField(frame), frame.getClass().getName());
                }
                assertEquals(0, headers.referencesHeld());
            } finally {
                channel.finishAndReleaseAll();
            }
        });
    }

    /**
     * A server channel with the pooled frame codec and {@link Http2MultiplexHandler}, whose child channels share one
     * handler: it gives each frame to {@code onRead}, then releases it.
     */
    private static EmbeddedChannel multiplexedServer(Consumer<Object> onRead) {
        ChannelHandler child = new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                try {
                    onRead.accept(msg);
                } finally {
                    ReferenceCountUtil.release(msg);
                }
            }

            @Override
            public boolean isSharable() {
                return true;
            }
        };
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.config().setAllocator(PooledByteBufAllocator.DEFAULT);
        channel.pipeline().addLast(PooledHttp2FrameCodecBuilder.forServer().build(), new Http2MultiplexHandler(child));
        return channel;
    }

    /** The client's connection preface and an empty SETTINGS frame. */
    private static ByteBuf prefaceAndSettings() {
        ByteBuf in = PooledByteBufAllocator.DEFAULT.buffer();
        in.writeBytes(Http2CodecUtil.connectionPrefaceBuf());
        RawFrames.header(in, 0, 0x4, 0, 0);
        return in;
    }

    private static Object streamField(Object frame) throws ReflectiveOperationException {
        Field stream = StreamFrame.class.getDeclaredField("stream");
        stream.setAccessible(true);
        return stream.get(frame);
    }

    /** A frame writer that records which control frames went through it. */
    private static final class RecordingWriter extends DefaultHttp2FrameWriter {
        final List<String> written = new ArrayList<>();

        @Override
        public ChannelFuture writeSettings(ChannelHandlerContext ctx, Http2Settings settings, ChannelPromise promise) {
            written.add("SETTINGS");
            return super.writeSettings(ctx, settings, promise);
        }

        @Override
        public ChannelFuture writeSettingsAck(ChannelHandlerContext ctx, ChannelPromise promise) {
            written.add("SETTINGS_ACK");
            return super.writeSettingsAck(ctx, promise);
        }

        @Override
        public ChannelFuture writePing(ChannelHandlerContext ctx, boolean ack, long data, ChannelPromise promise) {
            written.add("PING ack=" + ack + " " + data);
            return super.writePing(ctx, ack, data, promise);
        }
    }

    /**
     * Netty's own codec tests give the builder a mock frame writer through Netty's package-private
     * {@code frameWriter(..)}: the pooled codec writes through it as Netty's does, and still reads with the pooled
     * reader.
     */
    @Test
    void frameWriterGivenThroughNettysTestHookIsUsedAsByNettysBuilder() {
        Consumer<ByteBuf> ping = in -> {
            RawFrames.header(in, 8, 0x6, 0, 0);
            in.writeLong(42);
        };
        RecordingWriter nettyWriter = new RecordingWriter();
        Run stock = serve(NettyBuilderHooks.frameWriter(Http2FrameCodecBuilder.forServer(), nettyWriter).build(), ping);
        RecordingWriter pooledWriter = new RecordingWriter();
        Run pooled = serve(NettyBuilderHooks.frameWriter(PooledHttp2FrameCodecBuilder.forServer(), pooledWriter)
                .build(), ping);
        assertEquals(List.of("SETTINGS", "SETTINGS_ACK", "PING ack=true 42"), nettyWriter.written);
        assertEquals(nettyWriter.written, pooledWriter.written);
        assertEquals(stock.frames, pooled.frames);
        assertEquals(stock.written, pooled.written);
        assertTrue(pooled.pooled >= 2, "the pooled reader's frames: " + pooled.frames);
    }

    /**
     * With that hook Netty's builder makes a bare connection: a server may buffer streams over the peer's limit and
     * the encoder has no flood limits. Without it, both refuse the buffering server and limit control frames.
     */
    @Test
    void nettysTestHookBuildsTheConnectionNettysBuilderBuildsWithIt() {
        assertThrows(IllegalArgumentException.class,
                () -> Http2FrameCodecBuilder.forServer().encoderEnforceMaxConcurrentStreams(true).build());
        assertThrows(IllegalArgumentException.class,
                () -> PooledHttp2FrameCodecBuilder.forServer().encoderEnforceMaxConcurrentStreams(true).build());
        Http2FrameCodec nettyBuffering = NettyBuilderHooks.frameWriter(
                Http2FrameCodecBuilder.forServer().encoderEnforceMaxConcurrentStreams(true),
                new DefaultHttp2FrameWriter()).build();
        Http2FrameCodec pooledBuffering = NettyBuilderHooks.frameWriter(
                PooledHttp2FrameCodecBuilder.forServer().encoderEnforceMaxConcurrentStreams(true),
                new DefaultHttp2FrameWriter()).build();
        assertSame(StreamBufferingEncoder.class, nettyBuffering.encoder().getClass());
        assertSame(StreamBufferingEncoder.class, pooledBuffering.encoder().getClass());
        Http2FrameCodec pooledBare = NettyBuilderHooks.frameWriter(PooledHttp2FrameCodecBuilder.forServer(),
                new DefaultHttp2FrameWriter()).build();
        assertSame(PooledHttp2ConnectionEncoder.class, pooledBare.encoder().getClass());
        assertSame(EncoderFloodLimits.class, PooledHttp2FrameCodecBuilder.forServer().build().encoder().getClass());
    }
}
