/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Settings;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static io.pooledh2.codec.ServerUnderTest.rst;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stream-state checks on a client, where they concern the streams the server opens: the ones it promises
 * with PUSH_PROMISE.
 */
class ClientStreamStateChecksTest {

    /**
     * RFC 9113 5.1: a PUSH_PROMISE reserves its stream even when the associated stream was reset. Netty's client
     * ignores a PUSH_PROMISE on a stream it reset and reserves nothing; once the server has promised a higher id,
     * its HEADERS on the ignored promise's id are not on an id it skipped, and get Netty's RST_STREAM, not a
     * connection error (found by RandomizedCodecDifferentialTest's client paths).
     */
    @Test
    void aPromiseOnAStreamThisClientResetStillReservesItsId() {
        Http2Settings settings = new Http2Settings().pushEnabled(true);
        List<String> netty = exchange(false, () -> new Http2ConnectionHandlerBuilder().server(false)
                .initialSettings(settings).frameListener(new Http2FrameAdapter()).build());
        // The client's own reset, Netty's answer to the ignored promise (the reset stream is gone), and to stream 2.
        assertEquals(List.of(rst(3, Http2Error.CANCEL), rst(3, Http2Error.STREAM_CLOSED),
                rst(2, Http2Error.STREAM_CLOSED)), errors(netty), "Netty's answer: " + netty);
        assertTrue(netty.get(netty.size() - 1).startsWith("open"), netty.toString());
        assertEquals(netty, exchange(false, () -> new PooledHttp2ConnectionHandlerBuilder().server(false)
                .initialSettings(settings).frameListener(new Http2FrameAdapter()).build()));
    }

    /**
     * The same when the reader refuses the PUSH_PROMISE's header block (here: its header list is over the
     * client's limit) with a stream error: the promise still used its id. Found by RandomizedCodecDifferentialTest's
     * client paths.
     */
    @Test
    void aPromiseWhoseHeaderBlockWasRefusedStillReservesItsId() {
        Http2Settings settings = new Http2Settings().pushEnabled(true).maxHeaderListSize(170);
        List<String> netty = exchange(true, () -> new Http2ConnectionHandlerBuilder().server(false)
                .initialSettings(settings).frameListener(new Http2FrameAdapter()).build());
        assertTrue(errors(netty).contains(rst(3, Http2Error.PROTOCOL_ERROR)), "Netty refused the promise: " + netty);
        assertEquals(rst(2, Http2Error.STREAM_CLOSED), errors(netty).get(errors(netty).size() - 1), netty.toString());
        assertTrue(netty.get(netty.size() - 1).startsWith("open"), netty.toString());
        assertEquals(netty, exchange(true, () -> new PooledHttp2ConnectionHandlerBuilder().server(false)
                .initialSettings(settings).frameListener(new Http2FrameAdapter()).build()));
    }

    /**
     * The client opens a stream, the server promises stream 2 on it (ignored: the client resets the stream first,
     * unless {@code oversized}, where the promise's header list is over the client's limit instead), the client
     * opens another stream, the server promises stream 4 on that one, then sends HEADERS on stream 2. What the
     * client wrote after its preface, as frames, then whether the connection is open.
     */
    private static List<String> exchange(boolean oversized, Supplier<Http2ConnectionHandler> client) {
        Http2ConnectionHandler handler = client.get();
        EmbeddedChannel channel = new EmbeddedChannel(handler);
        ChannelHandlerContext ctx = channel.pipeline().context(handler);
        try {
            ByteBuf settings = Unpooled.buffer();
            RawFrames.header(settings, 0, 0x4, 0, 0);
            RawFrames.header(settings, 0, 0x4, 0x1, 0);
            channel.writeInbound(settings);
            int first = open(handler, ctx);
            if (!oversized) {
                handler.resetStream(ctx, first, Http2Error.CANCEL.code(), ctx.newPromise());
                ctx.flush();
            }
            channel.writeInbound(pushPromise(first, 2, oversized ? "/pushed-with-a-long-path" : "/"));
            channel.writeInbound(pushPromise(open(handler, ctx), 4, "/"));
            ByteBuf headers = Unpooled.buffer();
            RawFrames.frame(headers, 0x1, Http2Flags.END_HEADERS | Http2Flags.END_STREAM, 2,
                    RawFrames.headerBlock(":status", "200"));
            channel.writeInbound(headers);
            channel.runPendingTasks();
            ByteBuf written = Unpooled.buffer();
            for (Object out; (out = channel.readOutbound()) != null; ) {
                written.writeBytes((ByteBuf) out);
                ((ByteBuf) out).release();
            }
            List<String> frames;
            try {
                written.skipBytes(Http2CodecUtil.connectionPrefaceBuf().readableBytes());
                frames = new ArrayList<>(ServerUnderTest.frames(written));
            } finally {
                written.release();
            }
            frames.add(channel.isOpen() ? "open" : "closed");
            return frames;
        } catch (Http2Exception e) {
            throw new AssertionError(e);
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    /** Opens the client's next stream with a request that does not end it. */
    private static int open(Http2ConnectionHandler handler, ChannelHandlerContext ctx) {
        int id = handler.connection().local().incrementAndGetNextStreamId();
        handler.encoder().writeHeaders(ctx, id, new DefaultHttp2Headers().method("POST").scheme("https")
                .authority("example.com").path("/"), 0, false, ctx.newPromise());
        ctx.flush();
        return id;
    }

    /** A PUSH_PROMISE whose header list is 167 octets with the path "/" (RFC 9113 6.5.2's count). */
    private static ByteBuf pushPromise(int streamId, int promisedStreamId, String path) throws Http2Exception {
        byte[] block = RawFrames.headerBlock(":method", "GET", ":scheme", "https", ":authority", "e",
                ":path", path);
        ByteBuf frame = Unpooled.buffer();
        RawFrames.header(frame, 4 + block.length, 0x5, Http2Flags.END_HEADERS, streamId);
        frame.writeInt(promisedStreamId);
        frame.writeBytes(block);
        return frame;
    }

    private static List<String> errors(List<String> frames) {
        return frames.stream().filter(f -> f.startsWith("GOAWAY") || f.startsWith("RST_STREAM")).toList();
    }
}
