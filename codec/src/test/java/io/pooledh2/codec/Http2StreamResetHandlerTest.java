/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * Each stream-level protocol violation is answered with the RFC 9113 error code, even by a stream handler that
 * just closes its channel on the error; without the handler (the negative control) such a stream gets CANCEL or
 * nothing.
 */
class Http2StreamResetHandlerTest {

    private static final int STREAM = 3; // Not 1: without a server parent channel, stream 1 means an upgrade.

    /** A stream handler in the common style: releases what it reads, closes its channel on any error. */
    @ChannelHandler.Sharable
    private static final class ClosingStreamHandler extends ChannelInboundHandlerAdapter {
        final boolean respondWithEndStream;

        ClosingStreamHandler(boolean respondWithEndStream) {
            this.respondWithEndStream = respondWithEndStream;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            boolean endOfRequest = msg instanceof Http2HeadersFrame && ((Http2HeadersFrame) msg).isEndStream();
            ReferenceCountUtil.release(msg);
            if (respondWithEndStream && endOfRequest) {
                ctx.writeAndFlush(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().status("200"), true));
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    /** The RST_STREAM codes the server sent on {@link #STREAM}, in order. */
    private static List<Long> resets(boolean withHandler, boolean respondWithEndStream, Consumer<ByteBuf> client)
            throws Exception {
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.config().setAllocator(PooledByteBufAllocator.DEFAULT);
        // Netty checks for missing pseudo-headers only when asked (from 4.2.16 on); RFC 9113 section 8.3.1 requires
        // them.
        channel.pipeline().addLast(PooledHttp2FrameCodecBuilder.forServer()
                .validateRequiredPseudoHeaders(NettyRelease.atLeast(16)).build());
        if (withHandler) {
            channel.pipeline().addLast(new Http2StreamResetHandler());
        }
        channel.pipeline().addLast(new Http2MultiplexHandler(new ClosingStreamHandler(respondWithEndStream)));
        ByteBuf written = Unpooled.buffer();
        try {
            ByteBuf in = PooledByteBufAllocator.DEFAULT.buffer();
            in.writeBytes(Http2CodecUtil.connectionPrefaceBuf());
            RawFrames.header(in, 0, 0x4, 0, 0);
            RawFrames.header(in, 0, 0x4, Http2Flags.ACK, 0);
            client.accept(in);
            channel.writeInbound(in);
            channel.runPendingTasks();
            for (Object out; (out = channel.readOutbound()) != null; ) {
                written.writeBytes((ByteBuf) out);
                ((ByteBuf) out).release();
            }
        } finally {
            channel.finishAndReleaseAll();
        }
        List<Long> codes = new ArrayList<>();
        DefaultHttp2FrameReader reader = new DefaultHttp2FrameReader();
        EmbeddedChannel parser = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
        try {
            reader.readFrame(parser.pipeline().firstContext(), written, new Http2FrameAdapter() {
                @Override
                public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
                    if (streamId == STREAM) {
                        codes.add(errorCode);
                    }
                }
            });
        } finally {
            reader.close();
            written.release();
            parser.finishAndReleaseAll();
        }
        return codes;
    }

    private static void headers(ByteBuf in, int flags, CharSequence... namesAndValues) {
        try {
            RawFrames.frame(in, 0x1, Http2Flags.END_HEADERS | flags, STREAM, RawFrames.headerBlock(namesAndValues));
        } catch (Http2Exception e) {
            throw new AssertionError(e);
        }
    }

    private static void request(ByteBuf in, int flags, CharSequence... extra) {
        List<CharSequence> all = new ArrayList<>(List.of(":method", "POST", ":scheme", "http", ":authority", "h",
                ":path", "/p"));
        all.addAll(List.of(extra));
        headers(in, flags, all.toArray(new CharSequence[0]));
    }

    private static void data(ByteBuf in, int flags, String payload) {
        RawFrames.frame(in, 0x0, flags, STREAM, RawFrames.bytes(payload));
    }

    private static void assertReset(Http2Error expected, boolean respondWithEndStream, Consumer<ByteBuf> client)
            throws Exception {
        assertEquals(List.of(expected.code()), resets(true, respondWithEndStream, client));
    }

    @Test
    void dataAfterTheEndOfTheRequestIsStreamClosed() throws Exception {
        Consumer<ByteBuf> client = in -> {
            request(in, Http2Flags.END_STREAM);
            data(in, 0, "late");
        };
        assertReset(Http2Error.STREAM_CLOSED, false, client);
        // Negative control: the stream handler's own close sends nothing, the request having ended.
        assertNotEquals(List.of(Http2Error.STREAM_CLOSED.code()), resets(false, false, client));
    }

    @Test
    void dataOnAClosedStreamIsStreamClosed() throws Exception {
        assertReset(Http2Error.STREAM_CLOSED, true, in -> {
            request(in, Http2Flags.END_STREAM);
            data(in, 0, "after the response ended the stream");
        });
    }

    @Test
    void bodyShorterThanContentLengthIsProtocolError() throws Exception {
        Consumer<ByteBuf> client = in -> {
            request(in, 0, "content-length", "5");
            data(in, Http2Flags.END_STREAM, "abc");
        };
        assertReset(Http2Error.PROTOCOL_ERROR, false, client);
        assertNotEquals(List.of(Http2Error.PROTOCOL_ERROR.code()), resets(false, false, client));
    }

    @Test
    void bodyLongerThanContentLengthIsProtocolError() throws Exception {
        assertReset(Http2Error.PROTOCOL_ERROR, false, in -> {
            request(in, 0, "content-length", "2");
            data(in, 0, "abcdef");
        });
    }

    @Test
    void uppercaseHeaderNameIsProtocolError() throws Exception {
        assertReset(Http2Error.PROTOCOL_ERROR, false, in -> request(in, Http2Flags.END_STREAM, "X-Upper", "v"));
    }

    @Test
    void connectionSpecificHeaderIsProtocolError() throws Exception {
        assertReset(Http2Error.PROTOCOL_ERROR, false,
                in -> request(in, Http2Flags.END_STREAM, "connection", "keep-alive"));
    }

    @Test
    void missingPseudoHeaderIsProtocolError() throws Exception {
        Consumer<ByteBuf> client = in -> headers(in, Http2Flags.END_STREAM,
                ":scheme", "http", ":authority", "h", ":path", "/p");
        if (NettyRelease.atLeast(16)) {
            assertReset(Http2Error.PROTOCOL_ERROR, false, client);
        } else {
            // Before 4.2.16 Netty has no such check (NettyReleaseOptionsTest): the request reaches the handler.
            assertEquals(List.of(), resets(true, false, client));
        }
    }

    @Test
    void repeatedPseudoHeaderIsProtocolError() throws Exception {
        assertReset(Http2Error.PROTOCOL_ERROR, false, in -> request(in, Http2Flags.END_STREAM, ":path", "/again"));
    }

    @Test
    void pseudoHeaderAfterRegularHeaderIsProtocolError() throws Exception {
        assertReset(Http2Error.PROTOCOL_ERROR, false, in -> RawFrames.frame(in, 0x1,
                Http2Flags.END_HEADERS | Http2Flags.END_STREAM, STREAM, RawFrames.literalBlock(
                        ":method", "GET", ":scheme", "http", "accept", "*/*", ":authority", "h", ":path", "/p")));
    }

    @Test
    void trailersWithPseudoHeaderAreProtocolError() throws Exception {
        assertReset(Http2Error.PROTOCOL_ERROR, false, in -> {
            request(in, 0);
            data(in, 0, "body");
            headers(in, Http2Flags.END_STREAM, ":path", "/trailer", "checksum", "1");
        });
    }
}
