/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.DefaultHttp2ConnectionDecoder;
import io.netty.handler.codec.http2.DefaultHttp2ConnectionEncoder;
import io.netty.handler.codec.http2.DefaultHttp2FrameWriter;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameListener;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The listener path: Netty's Http2ConnectionHandlerBuilder against this one, same calls and same bytes. */
class PooledHttp2ConnectionHandlerBuilderTest {

    /** Records the calls the decoder makes, rendered during the call. */
    private static final class Recording implements Http2FrameListener {
        final List<String> calls = new ArrayList<>();

        @Override
        public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean eos) {
            calls.add("DATA " + streamId + " " + ByteBufUtil.hexDump(data) + " " + padding + " " + eos);
            return data.readableBytes() + padding;
        }

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                                  boolean eos) {
            calls.add("HEADERS " + streamId + " " + ListenerTranscript.render(headers) + " " + padding + " " + eos);
        }

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int dependency,
                                  short weight, boolean exclusive, int padding, boolean eos) {
            calls.add("HEADERS " + streamId + " " + ListenerTranscript.render(headers)
                    + " " + dependency + "/" + weight + "/" + exclusive
                    + " " + padding + " " + eos);
        }

        @Override
        public void onPriorityRead(ChannelHandlerContext ctx, int streamId, int dependency, short weight,
                                   boolean exclusive) {
            calls.add("PRIORITY " + streamId + " " + dependency + "/" + weight + "/" + exclusive);
        }

        @Override
        public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
            calls.add("RST " + streamId + " " + errorCode);
        }

        @Override
        public void onSettingsAckRead(ChannelHandlerContext ctx) {
            calls.add("SETTINGS_ACK");
        }

        @Override
        public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) {
            calls.add("SETTINGS " + new TreeMap<>(settings));
        }

        @Override
        public void onPingRead(ChannelHandlerContext ctx, long data) {
            calls.add("PING " + data);
        }

        @Override
        public void onPingAckRead(ChannelHandlerContext ctx, long data) {
            calls.add("PING_ACK " + data);
        }

        @Override
        public void onPushPromiseRead(ChannelHandlerContext ctx, int streamId, int promisedStreamId,
                                      Http2Headers headers, int padding) {
            calls.add("PUSH_PROMISE " + streamId + " " + promisedStreamId + " " + ListenerTranscript.render(headers)
                    + " " + padding);
        }

        @Override
        public void onGoAwayRead(ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData) {
            calls.add("GOAWAY " + lastStreamId + " " + errorCode + " " + ByteBufUtil.hexDump(debugData));
        }

        @Override
        public void onWindowUpdateRead(ChannelHandlerContext ctx, int streamId, int windowSizeIncrement) {
            calls.add("WINDOW_UPDATE " + streamId + " " + windowSizeIncrement);
        }

        @Override
        public void onUnknownFrame(ChannelHandlerContext ctx, byte frameType, int streamId, Http2Flags flags,
                                   ByteBuf payload) {
            calls.add("UNKNOWN " + frameType + " " + streamId + " " + flags.value()
                    + " " + ByteBufUtil.hexDump(payload));
        }
    }

    private static String serve(Http2ConnectionHandler handler, Recording listener, Consumer<ByteBuf> client) {
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.config().setAllocator(PooledByteBufAllocator.DEFAULT);
        channel.pipeline().addLast(handler);
        try {
            ByteBuf in = PooledByteBufAllocator.DEFAULT.buffer();
            in.writeBytes(Http2CodecUtil.connectionPrefaceBuf());
            RawFrames.header(in, 0, 0x4, 0, 0);
            RawFrames.header(in, 0, 0x4, Http2Flags.ACK, 0);
            client.accept(in);
            try {
                channel.writeInbound(in);
            } catch (Exception e) {
                listener.calls.add("EXCEPTION " + e.getMessage());
            }
            channel.runPendingTasks();
            ByteBuf written = Unpooled.buffer();
            for (Object out; (out = channel.readOutbound()) != null; ) {
                written.writeBytes((ByteBuf) out);
                ((ByteBuf) out).release();
            }
            String hex = ByteBufUtil.hexDump(written) + (channel.isOpen() ? " open" : " closed");
            written.release();
            return hex;
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    private static String assertSameAsNetty(Consumer<ByteBuf> client) {
        Recording stockCalls = new Recording();
        Recording pooledCalls = new Recording();
        String stock = serve(new Http2ConnectionHandlerBuilder().server(true).frameListener(stockCalls).build(),
                stockCalls, client);
        String pooled = serve(
                new PooledHttp2ConnectionHandlerBuilder().server(true).frameListener(pooledCalls).build(),
                pooledCalls, client);
        assertEquals(stockCalls.calls, pooledCalls.calls, "listener calls");
        assertEquals(stock, pooled, "bytes written back");
        assertFalse(pooledCalls.calls.isEmpty());
        return pooled;
    }

    @Test
    void everyFrameTypeReachesTheListenerAsWithNettysBuilder() {
        assertSameAsNetty(in -> {
            try {
                RawFrames.frame(in, 0x1, Http2Flags.END_HEADERS | Http2Flags.PRIORITY, 1,
                        concat(new byte[] {0, 0, 0, 0, 15}, RawFrames.requestHeaders("/a")));
                RawFrames.frame(in, 0x0, 0, 1, RawFrames.bytes("hello"));
                RawFrames.header(in, 4, 0x8, 0, 1);
                in.writeInt(1000);
                RawFrames.header(in, 5, 0x2, 0, 1);
                in.writeInt(0).writeByte(99);
                RawFrames.header(in, 8, 0x6, 0, 0);
                in.writeLong(42);
                RawFrames.header(in, 12, 0x4, 0, 0);
                in.writeShort(0x3).writeInt(50).writeShort(0x4).writeInt(70000);
                RawFrames.frame(in, 0x21, 0x5, 1, RawFrames.bytes("ext"));
                RawFrames.header(in, 4, 0x3, 0, 1);
                in.writeInt(8);
                RawFrames.header(in, 8 + 4, 0x7, 0, 0);
                in.writeInt(1).writeInt(0).writeBytes(RawFrames.bytes("done"));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
    }

    @Test
    void emptyDataFloodIsStoppedAsByNettysBuilder() {
        String written = assertSameAsNetty(RawFrames::emptyDataFlood);
        assertTrue(written.contains("0000000b"), "GOAWAY with ENHANCE_YOUR_CALM: " + written);
    }

    @Test
    void rstFloodIsStoppedAsByNettysBuilder() {
        String written = assertSameAsNetty(in -> {
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
        assertTrue(written.endsWith("closed"), "the connection was closed for the flood");
    }

    @Test
    void decoderReturnsTheListenerItWasGiven() {
        Recording listener = new Recording();
        assertSame(listener, new Http2ConnectionHandlerBuilder().server(true).frameListener(listener).build()
                .decoder().frameListener(), "Netty's");
        Http2ConnectionHandler pooled =
                new PooledHttp2ConnectionHandlerBuilder().server(true).frameListener(listener).build();
        assertSame(listener, pooled.decoder().frameListener());
        Recording later = new Recording();
        pooled.decoder().frameListener(later);
        assertSame(later, pooled.decoder().frameListener());
    }

    /** The limits wrap a listener given after the build too, as Netty's do. */
    @Test
    void listenerGivenAfterTheBuildIsProtectedAsByNettysBuilder() {
        Consumer<ByteBuf> flood = RawFrames::emptyDataFlood;
        Recording stockCalls = new Recording();
        Recording pooledCalls = new Recording();
        // Netty's builder wants a listener to build with; the one that reads is set afterwards.
        Http2ConnectionHandler stockHandler =
                new Http2ConnectionHandlerBuilder().server(true).frameListener(new Recording()).build();
        stockHandler.decoder().frameListener(stockCalls);
        Http2ConnectionHandler pooledHandler =
                new PooledHttp2ConnectionHandlerBuilder().server(true).frameListener(new Recording()).build();
        pooledHandler.decoder().frameListener(pooledCalls);
        String stock = serve(stockHandler, stockCalls, flood);
        String pooled = serve(pooledHandler, pooledCalls, flood);
        assertEquals(stockCalls.calls, pooledCalls.calls, "listener calls");
        assertEquals(stock, pooled, "bytes written back");
        assertTrue(pooled.contains("0000000b") && pooled.endsWith("closed"), "GOAWAY ENHANCE_YOUR_CALM: " + pooled);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** A connection's decoder and encoder made by the caller, the decoder reading with a pooled reader. */
    private record Codec(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder) {
        static Codec of(Http2Connection connection) {
            Http2ConnectionEncoder encoder =
                    new DefaultHttp2ConnectionEncoder(connection, new DefaultHttp2FrameWriter());
            return new Codec(new DefaultHttp2ConnectionDecoder(connection, encoder, new PooledHttp2FrameReader()),
                    encoder);
        }
    }

    /**
     * {@code codec(decoder, encoder)}, public on Netty's builder: the handler is built around them as by Netty's
     * builder (same decorations), reads with the reader the caller put in the decoder, and refuses the options
     * that would make a decoder, as Netty's does.
     */
    @Test
    void codecGivenByTheCallerIsUsedAsByNettysBuilder() {
        Consumer<ByteBuf> client = in -> {
            RawFrames.header(in, 8, 0x6, 0, 0);
            in.writeLong(42);
        };
        Recording stockCalls = new Recording();
        Codec stockCodec = Codec.of(new DefaultHttp2Connection(true));
        Http2ConnectionHandler stock = new Http2ConnectionHandlerBuilder().frameListener(stockCalls)
                .codec(stockCodec.decoder(), stockCodec.encoder()).build();
        Recording pooledCalls = new Recording();
        Codec pooledCodec = Codec.of(new DefaultHttp2Connection(true));
        Http2ConnectionHandler pooled = new PooledHttp2ConnectionHandlerBuilder().frameListener(pooledCalls)
                .codec(pooledCodec.decoder(), pooledCodec.encoder()).build();
        assertSame(pooledCodec.decoder().connection(), pooled.connection());
        assertSame(stock.decoder().getClass(), pooled.decoder().getClass());
        assertSame(stock.encoder().getClass(), pooled.encoder().getClass());
        assertEquals(serve(stock, stockCalls, client), serve(pooled, pooledCalls, client));
        assertEquals(stockCalls.calls, pooledCalls.calls);
        assertTrue(pooledCalls.calls.contains("PING 42"), pooledCalls.calls.toString());

        Codec other = Codec.of(new DefaultHttp2Connection(true));
        assertThrows(IllegalStateException.class,
                () -> new Http2ConnectionHandlerBuilder().codec(other.decoder(), other.encoder()).server(true));
        assertThrows(IllegalStateException.class,
                () -> new PooledHttp2ConnectionHandlerBuilder().codec(other.decoder(), other.encoder()).server(true));
    }
}
