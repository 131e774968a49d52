/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.frame;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameListener;
import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The listener path: one {@link Http2FrameListener} given to both {@code DefaultHttp2FrameReader} and the
 * pooled reader. It consumes every argument and keeps nothing past the call.
 */
final class ConsumingListener implements Http2FrameListener {

    private final Blackhole bh;
    int frames;
    byte lastType = -1;

    ConsumingListener(Blackhole bh) {
        this.bh = bh;
    }

    private void seen(byte type) {
        frames++;
        lastType = type;
    }

    @Override
    public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean endOfStream) {
        seen(Http2FrameTypes.DATA);
        bh.consume(streamId);
        bh.consume(data);
        bh.consume(endOfStream);
        return data.readableBytes() + padding;
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                              boolean endOfStream) {
        seen(Http2FrameTypes.HEADERS);
        bh.consume(streamId);
        bh.consume(headers);
        bh.consume(endOfStream);
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int streamDependency,
                              short weight, boolean exclusive, int padding, boolean endOfStream) {
        onHeadersRead(ctx, streamId, headers, padding, endOfStream);
        bh.consume(streamDependency);
    }

    @Override
    public void onPriorityRead(ChannelHandlerContext ctx, int streamId, int streamDependency, short weight,
                               boolean exclusive) {
        seen(Http2FrameTypes.PRIORITY);
        bh.consume(streamId);
        bh.consume(streamDependency);
        bh.consume(weight);
        bh.consume(exclusive);
    }

    @Override
    public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
        seen(Http2FrameTypes.RST_STREAM);
        bh.consume(streamId);
        bh.consume(errorCode);
    }

    @Override
    public void onSettingsAckRead(ChannelHandlerContext ctx) {
        seen(Http2FrameTypes.SETTINGS);
    }

    @Override
    public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) {
        seen(Http2FrameTypes.SETTINGS);
        bh.consume(settings);
    }

    @Override
    public void onPingRead(ChannelHandlerContext ctx, long data) {
        seen(Http2FrameTypes.PING);
        bh.consume(data);
    }

    @Override
    public void onPingAckRead(ChannelHandlerContext ctx, long data) {
        seen(Http2FrameTypes.PING);
        bh.consume(data);
    }

    @Override
    public void onPushPromiseRead(ChannelHandlerContext ctx, int streamId, int promisedStreamId,
                                  Http2Headers headers, int padding) {
        seen(Http2FrameTypes.PUSH_PROMISE);
        bh.consume(promisedStreamId);
        bh.consume(headers);
    }

    @Override
    public void onGoAwayRead(ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData) {
        seen(Http2FrameTypes.GO_AWAY);
        bh.consume(lastStreamId);
        bh.consume(errorCode);
        bh.consume(debugData);
    }

    @Override
    public void onWindowUpdateRead(ChannelHandlerContext ctx, int streamId, int windowSizeIncrement) {
        seen(Http2FrameTypes.WINDOW_UPDATE);
        bh.consume(streamId);
        bh.consume(windowSizeIncrement);
    }

    @Override
    public void onUnknownFrame(ChannelHandlerContext ctx, byte frameType, int streamId, Http2Flags flags,
                               ByteBuf payload) {
        seen(frameType);
        bh.consume(flags);
        bh.consume(payload);
    }
}
