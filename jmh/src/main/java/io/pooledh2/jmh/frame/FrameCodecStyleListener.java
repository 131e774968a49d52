/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.frame;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2GoAwayFrame;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2PingFrame;
import io.netty.handler.codec.http2.DefaultHttp2PriorityFrame;
import io.netty.handler.codec.http2.DefaultHttp2PushPromiseFrame;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.DefaultHttp2SettingsFrame;
import io.netty.handler.codec.http2.DefaultHttp2UnknownFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2Frame;
import io.netty.handler.codec.http2.Http2FrameListener;
import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2SettingsAckFrame;
import io.netty.util.ReferenceCountUtil;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The stock frame path: what {@code Http2FrameCodec}'s private listener does with each frame
 * {@code DefaultHttp2FrameReader} reads, a new {@code DefaultHttp2*Frame} with the stream attached (and retained
 * where it holds a buffer), handed on; then what the next handler does, consume and release it.
 *
 * <p>One difference from {@code Http2FrameCodec}: it drops PRIORITY and PUSH_PROMISE frames; here they become
 * {@link DefaultHttp2PriorityFrame} and {@link DefaultHttp2PushPromiseFrame}, so that both variants hand a frame
 * object to the consumer. WINDOW_UPDATE on stream 0, which {@code Http2FrameCodec} drops, is dropped here too.
 */
final class FrameCodecStyleListener implements Http2FrameListener {

    private final Blackhole bh;
    int frames;
    byte lastType = -1;

    FrameCodecStyleListener(Blackhole bh) {
        this.bh = bh;
    }

    private void fire(Http2Frame frame, byte type) {
        frames++;
        lastType = type;
        bh.consume(frame);
        ReferenceCountUtil.release(frame);
    }

    @Override
    public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean endOfStream) {
        fire(new DefaultHttp2DataFrame(data, endOfStream, padding).stream(FixedFrameStream.INSTANCE).retain(),
                Http2FrameTypes.DATA);
        return 0;
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                              boolean endOfStream) {
        fire(new DefaultHttp2HeadersFrame(headers, endOfStream, padding).stream(FixedFrameStream.INSTANCE),
                Http2FrameTypes.HEADERS);
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int streamDependency,
                              short weight, boolean exclusive, int padding, boolean endOfStream) {
        onHeadersRead(ctx, streamId, headers, padding, endOfStream);
    }

    @Override
    public void onPriorityRead(ChannelHandlerContext ctx, int streamId, int streamDependency, short weight,
                               boolean exclusive) {
        fire(new DefaultHttp2PriorityFrame(streamDependency, weight, exclusive).stream(FixedFrameStream.INSTANCE),
                Http2FrameTypes.PRIORITY);
    }

    @Override
    public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
        fire(new DefaultHttp2ResetFrame(errorCode).stream(FixedFrameStream.INSTANCE), Http2FrameTypes.RST_STREAM);
    }

    @Override
    public void onSettingsAckRead(ChannelHandlerContext ctx) {
        fire(Http2SettingsAckFrame.INSTANCE, Http2FrameTypes.SETTINGS);
    }

    @Override
    public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) {
        fire(new DefaultHttp2SettingsFrame(settings), Http2FrameTypes.SETTINGS);
    }

    @Override
    public void onPingRead(ChannelHandlerContext ctx, long data) {
        fire(new DefaultHttp2PingFrame(data, false), Http2FrameTypes.PING);
    }

    @Override
    public void onPingAckRead(ChannelHandlerContext ctx, long data) {
        fire(new DefaultHttp2PingFrame(data, true), Http2FrameTypes.PING);
    }

    @Override
    public void onPushPromiseRead(ChannelHandlerContext ctx, int streamId, int promisedStreamId,
                                  Http2Headers headers, int padding) {
        fire(new DefaultHttp2PushPromiseFrame(headers).pushStream(FixedFrameStream.INSTANCE)
                .stream(FixedFrameStream.INSTANCE), Http2FrameTypes.PUSH_PROMISE);
    }

    @Override
    public void onGoAwayRead(ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData) {
        // Http2FrameCodec calls the package-private (lastStreamId, errorCode, debugData) constructor; the public
        // one makes the same object, with lastStreamId left at -1.
        bh.consume(lastStreamId);
        fire(new DefaultHttp2GoAwayFrame(errorCode, debugData).retain(), Http2FrameTypes.GO_AWAY);
    }

    @Override
    public void onWindowUpdateRead(ChannelHandlerContext ctx, int streamId, int windowSizeIncrement) {
        if (streamId == 0) {
            return;
        }
        fire(new DefaultHttp2WindowUpdateFrame(windowSizeIncrement).stream(FixedFrameStream.INSTANCE),
                Http2FrameTypes.WINDOW_UPDATE);
    }

    @Override
    public void onUnknownFrame(ChannelHandlerContext ctx, byte frameType, int streamId, Http2Flags flags,
                               ByteBuf payload) {
        fire(new DefaultHttp2UnknownFrame(frameType, flags, payload).stream(FixedFrameStream.INSTANCE).retain(),
                frameType);
    }
}
