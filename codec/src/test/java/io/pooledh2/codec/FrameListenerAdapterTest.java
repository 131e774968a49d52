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
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

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
    void keptGoAwayDebugDataIsACopyUnchangedByLaterFrames() throws Exception {
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
