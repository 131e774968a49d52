/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2FrameReader;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.util.IllegalReferenceCountException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The {@code Http2FrameListener} path: a standard listener may keep what it is given, so whatever the pooled
 * frame reuses is copied for it, unless the caller declares that it keeps nothing.
 */
class FrameListenerAdapterTest {

    private EmbeddedChannel channel;
    private ChannelHandlerContext ctx;

    @BeforeEach
    void setUp() {
        channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
        channel.config().setAllocator(PooledByteBufAllocator.DEFAULT);
        ctx = channel.pipeline().firstContext();
    }

    @AfterEach
    void tearDown() {
        channel.finishAndReleaseAll();
    }

    /** Keeps every object it is given, as Netty's Http2FrameCodec does (retaining buffers). */
    private static final class KeepingListener extends Http2FrameAdapter {
        final List<Http2Settings> settings = new ArrayList<>();
        final List<Http2Flags> flags = new ArrayList<>();
        final List<ByteBuf> buffers = new ArrayList<>();
        final List<Http2Headers> headers = new ArrayList<>();

        @Override
        public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings s) {
            settings.add(s);
        }

        @Override
        public void onUnknownFrame(ChannelHandlerContext ctx, byte type, int stream, Http2Flags f, ByteBuf payload) {
            flags.add(f);
            buffers.add(payload.retain());
        }

        @Override
        public void onGoAwayRead(ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData) {
            buffers.add(debugData.retain());
        }

        @Override
        public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean eos) {
            buffers.add(data.retain());
            return data.readableBytes() + padding;
        }

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers h, int padding, boolean eos) {
            headers.add(h);
        }

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers h, int streamDependency,
                                  short weight, boolean exclusive, int padding, boolean eos) {
            headers.add(h);
        }

        void release() {
            buffers.forEach(ByteBuf::release);
        }
    }

    private void read(PooledHttp2FrameReader reader, FrameKind kind, int variant, KeepingListener listener)
            throws Http2Exception {
        ByteBuf in = PooledByteBufAllocator.DEFAULT.directBuffer();
        try {
            kind.write(in, variant);
            reader.readFrame(ctx, in, listener);
        } finally {
            in.release();
        }
    }

    /** Holds every payload it is given without retaining it, as a Mockito argument captor does. */
    private static final class HoldingListener extends Http2FrameAdapter {
        final List<ByteBuf> held = new ArrayList<>();

        @Override
        public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean eos) {
            held.add(data);
            return data.readableBytes() + padding;
        }

        @Override
        public void onGoAwayRead(ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData) {
            held.add(debugData);
        }

        @Override
        public void onUnknownFrame(ChannelHandlerContext ctx, byte type, int stream, Http2Flags f, ByteBuf payload) {
            held.add(payload);
        }
    }

    /** Three DATA frames, a GOAWAY and an unknown frame in one input. */
    private static ByteBuf payloadFrames() throws Http2Exception {
        ByteBuf in = PooledByteBufAllocator.DEFAULT.directBuffer();
        for (int v = 1; v <= 3; v++) {
            FrameKind.DATA.write(in, v);
        }
        FrameKind.GOAWAY.write(in, 1);
        FrameKind.UNKNOWN.write(in, 1);
        return in;
    }

    /** Reads {@code in} (through a duplicate, so that it can be read again) and dumps what the listener held. */
    private List<String> heldAfterTheRead(Http2FrameReader reader, ByteBuf in) throws Http2Exception {
        HoldingListener listener = new HoldingListener();
        reader.readFrame(ctx, in.duplicate(), listener);
        reader.close();
        Set<ByteBuf> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
        distinct.addAll(listener.held);
        assertEquals(listener.held.size(), distinct.size(), "each payload is a buffer of its own");
        List<String> dumps = new ArrayList<>();
        for (ByteBuf payload : listener.held) {
            dumps.add(ByteBufUtil.hexDump(payload));
        }
        return dumps;
    }

    /**
     * A listener that holds DATA, GOAWAY and unknown payloads without retaining them and reads them after the read,
     * as Netty's own reader tests do when Mockito verifies {@code onDataRead(ctx, 1, payload.slice(0, 1), 0, true)}:
     * while the input lives it reads what it reads from the stock reader, every payload its own buffer, in
     * paranoid mode too (these payloads are slices of the input, not parts of a pooled frame). The reader keeps
     * no reference to the input.
     */
    @ParameterizedTest(name = "paranoid={0}")
    @ValueSource(booleans = {false, true})
    void payloadsHeldWithoutRetainingReadAsFromTheStockReader(boolean paranoid) throws Exception {
        ByteBuf in = payloadFrames();
        try {
            List<String> stock = heldAfterTheRead(new DefaultHttp2FrameReader(), in);
            EventLoopThread.run(() -> {
                List<String> pooled = heldAfterTheRead(new PooledHttp2FrameReader().paranoid(paranoid), in);
                assertEquals(stock, pooled);
            });
            assertEquals(5, stock.size());
            assertEquals(ByteBufUtil.hexDump(RawFrames.bytes("data-2")), stock.get(1));
            assertEquals(1, in.refCnt());
        } finally {
            in.release();
        }
    }

    /**
     * The negative control: a listener that declared it keeps nothing gets the frames' own views, which the reader
     * reuses, and one held past the read without retaining it fails loudly instead of showing other bytes.
     */
    @Test
    void payloadsHeldByAListenerThatKeepsNothingFailAfterTheRead() throws Exception {
        ByteBuf in = payloadFrames();
        try {
            EventLoopThread.run(() -> {
                HoldingListener listener = new HoldingListener();
                PooledHttp2FrameReader reader = new PooledHttp2FrameReader().listenerKeepsNothing(true);
                reader.readFrame(ctx, in.duplicate(), listener);
                assertSame(listener.held.get(0), listener.held.get(2), "the DATA frame's view, reused");
                assertInstanceOf(PayloadView.class, listener.held.get(3));
                assertThrows(IllegalReferenceCountException.class, () -> listener.held.get(0).getByte(0));
            });
            assertEquals(1, in.refCnt());
        } finally {
            in.release();
        }
    }

    @Test
    void keptSettingsAreNotChangedByLaterFrames() throws Exception {
        PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
        KeepingListener listener = new KeepingListener();
        read(reader, FrameKind.SETTINGS, 1, listener);
        String first = listener.settings.get(0).toString();
        read(reader, FrameKind.SETTINGS, 2, listener);
        read(reader, FrameKind.SETTINGS, 3, listener);
        assertEquals(first, listener.settings.get(0).toString());
        assertEquals(Long.valueOf(100), listener.settings.get(0).maxConcurrentStreams());
        assertEquals(Integer.valueOf(16386), listener.settings.get(1).maxFrameSize());
        assertNotSame(listener.settings.get(0), listener.settings.get(1));
        reader.close();
    }

    /** The negative control: without the copy, the listener would see the next frame's settings. */
    @Test
    void listenerThatKeepsNothingGetsTheReusedSettings() throws Exception {
        PooledHttp2FrameReader reader = new PooledHttp2FrameReader().listenerKeepsNothing(true);
        KeepingListener listener = new KeepingListener();
        read(reader, FrameKind.SETTINGS, 1, listener);
        read(reader, FrameKind.SETTINGS, 2, listener);
        assertSame(listener.settings.get(0), listener.settings.get(1), "the frame's own map, reused");
        reader.close();
    }

    @Test
    void keptUnknownFlagsAndPayloadAreNotChangedByLaterFrames() throws Exception {
        PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
        KeepingListener listener = new KeepingListener();
        read(reader, FrameKind.UNKNOWN, 1, listener);
        read(reader, FrameKind.UNKNOWN, 2, listener);
        assertEquals(1, listener.flags.get(0).value());
        assertEquals(2, listener.flags.get(1).value());
        assertEquals("ext-1", listener.buffers.get(0).toString(io.netty.util.CharsetUtil.US_ASCII));
        listener.release();
        reader.close();
    }

    @Test
    void keptGoAwayDebugDataIsUnchangedByLaterFrames() throws Exception {
        PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
        KeepingListener listener = new KeepingListener();
        read(reader, FrameKind.GOAWAY, 1, listener);
        read(reader, FrameKind.GOAWAY, 2, listener);
        assertEquals("a long debug message", listener.buffers.get(0).toString(io.netty.util.CharsetUtil.US_ASCII));
        assertEquals("dbg2", listener.buffers.get(1).toString(io.netty.util.CharsetUtil.US_ASCII));
        listener.release();
        reader.close();
    }

    @Test
    void retainedDataIsUnchangedByLaterFrames() throws Exception {
        PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
        KeepingListener listener = new KeepingListener();
        read(reader, FrameKind.DATA, 1, listener);
        read(reader, FrameKind.DATA, 2, listener);
        assertEquals(ByteBufUtil.hexDump(RawFrames.bytes("data-1")), ByteBufUtil.hexDump(listener.buffers.get(0)));
        assertEquals(ByteBufUtil.hexDump(RawFrames.bytes("data-2")), ByteBufUtil.hexDump(listener.buffers.get(1)));
        listener.release();
        reader.close();
    }

    @Test
    void keptHeadersAreUnchangedByLaterFrames() throws Exception {
        PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
        KeepingListener listener = new KeepingListener();
        read(reader, FrameKind.HEADERS, 1, listener);
        read(reader, FrameKind.HEADERS, 2, listener);
        assertEquals("/path-1", listener.headers.get(0).path().toString());
        assertEquals("/path-2", listener.headers.get(1).path().toString());
        reader.close();
    }
}
