/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameListener;
import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;

/**
 * Turns pooled frames into the {@link Http2FrameListener} calls {@code DefaultHttp2FrameReader} makes. The reader
 * keeps the frame's reference (and drops it after the call); the listener never sees the frame, only its values.
 * The reader calls a listener straight from the parsed values where no object has to outlive the call, and gives a
 * listener that may keep what it gets the payloads of DATA, GOAWAY and unknown frames as slices of the input, as
 * the stock reader does. So this adapter carries the frames whose parts the listener gets: headers, SETTINGS kept
 * by the listener, the payloads a listener that keeps nothing gets, and every frame for a frame codec that fires
 * the frame itself.
 *
 * <p>A standard listener may keep the objects it is given (Netty's {@code Http2FrameCodec} keeps the settings
 * and the headers), so unless told that the listener keeps nothing, the adapter gives it its own copy of
 * everything the pooled frame would reuse: the settings map, and the headers when they are the frame's own
 * recycled container (a shallow copy: names and values are immutable and shared). A listener that keeps nothing
 * gets the frame's payload view for DATA, GOAWAY and unknown frames: valid during the call, kept by retaining
 * it, which keeps the frame and the input alive. Headers a caller-supplied decoder made are new for every block
 * and passed as they are.
 */
final class FrameListenerAdapter {

    private FrameListenerAdapter() {
    }

    /**
     * The listener call for {@code frame}. Static, with the reader's settings as arguments: an adapter object
     * would be one more object per connection.
     *
     * @param type the frame's type, as the reader parsed it (what {@code frame.frameType()} would say)
     * @param listenerKeepsNothing the listener keeps nothing past the call: no copies
     * @param headersForwardedWithFrame HEADERS go uncopied: the listener (a frame codec) forwards the frame,
     *        which owns them
     */
    static void onFrame(ChannelHandlerContext ctx, byte type, PooledHttp2Frame frame, Http2FrameListener listener,
                        boolean listenerKeepsNothing, boolean headersForwardedWithFrame) throws Http2Exception {
        switch (type) {
            case Http2FrameTypes.DATA: {
                PooledDataFrame data = (PooledDataFrame) frame;
                listener.onDataRead(ctx, data.streamId, data.payload, data.padding, data.endStream);
                break;
            }
            case Http2FrameTypes.HEADERS: {
                PooledHeadersFrame headers = (PooledHeadersFrame) frame;
                Http2Headers decoded = headersForwardedWithFrame ? headers.headers
                        : headersFor(headers, listenerKeepsNothing);
                if (headers.priorityPresent) {
                    listener.onHeadersRead(ctx, headers.streamId, decoded, headers.streamDependency,
                            headers.weight, headers.exclusive, headers.padding, headers.endStream);
                } else {
                    listener.onHeadersRead(ctx, headers.streamId, decoded, headers.padding, headers.endStream);
                }
                break;
            }
            case Http2FrameTypes.PRIORITY: {
                PooledPriorityFrame priority = (PooledPriorityFrame) frame;
                listener.onPriorityRead(ctx, priority.streamId, priority.streamDependency, priority.weight,
                        priority.exclusive);
                break;
            }
            case Http2FrameTypes.RST_STREAM: {
                PooledResetFrame reset = (PooledResetFrame) frame;
                listener.onRstStreamRead(ctx, reset.streamId, reset.errorCode);
                break;
            }
            case Http2FrameTypes.SETTINGS:
                if (frame instanceof PooledSettingsAckFrame) {
                    listener.onSettingsAckRead(ctx);
                } else {
                    Http2Settings settings = ((PooledSettingsFrame) frame).settings;
                    listener.onSettingsRead(ctx, listenerKeepsNothing ? settings
                            : new Http2Settings(settings.size()).copyFrom(settings));
                }
                break;
            case Http2FrameTypes.PUSH_PROMISE: {
                PooledPushPromiseFrame promise = (PooledPushPromiseFrame) frame;
                listener.onPushPromiseRead(ctx, promise.streamId, promise.promisedStreamId,
                        headersFor(promise, listenerKeepsNothing), promise.padding);
                break;
            }
            case Http2FrameTypes.PING: {
                PooledPingFrame ping = (PooledPingFrame) frame;
                if (ping.ack) {
                    listener.onPingAckRead(ctx, ping.content);
                } else {
                    listener.onPingRead(ctx, ping.content);
                }
                break;
            }
            case Http2FrameTypes.GO_AWAY: {
                PooledGoAwayFrame goAway = (PooledGoAwayFrame) frame;
                listener.onGoAwayRead(ctx, goAway.lastStreamId, goAway.errorCode, goAway.content);
                break;
            }
            case Http2FrameTypes.WINDOW_UPDATE: {
                PooledWindowUpdateFrame update = (PooledWindowUpdateFrame) frame;
                listener.onWindowUpdateRead(ctx, update.streamId, update.windowSizeIncrement);
                break;
            }
            default: {
                // Only a listener that keeps nothing, or a frame codec that fires the frame, gets here.
                PooledUnknownFrame unknown = (PooledUnknownFrame) frame;
                listener.onUnknownFrame(ctx, unknown.frameType, unknown.streamId, unknown.flags, unknown.payload);
                break;
            }
        }
    }

    /** The frame's headers, or the listener's own copy when a reuse of the frame would empty them. */
    private static Http2Headers headersFor(HeaderBlockFrame frame, boolean listenerKeepsNothing) {
        if (listenerKeepsNothing || !frame.headersReusedWithFrame()) {
            return frame.headers;
        }
        return ((PooledHttp2Headers) frame.headers).copy();
    }
}
