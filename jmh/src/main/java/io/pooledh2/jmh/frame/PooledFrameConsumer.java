/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.frame;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2StreamFrame;
import io.pooledh2.codec.PooledHttp2Frame;
import io.pooledh2.codec.PooledHttp2FrameListener;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The pooled frame path: the frame gets its stream attached (as a frame codec would), is consumed and released
 * during the callback, so the reader parses the next frame of its type into the same object.
 */
final class PooledFrameConsumer implements PooledHttp2FrameListener {

    private final Blackhole bh;
    int frames;
    byte lastType = -1;

    PooledFrameConsumer(Blackhole bh) {
        this.bh = bh;
    }

    @Override
    public void onFrame(ChannelHandlerContext ctx, PooledHttp2Frame frame) {
        frames++;
        lastType = frame.frameType();
        // A frame codec knows the type of the frame it attaches a stream to (PooledHttp2FrameCodec does it in the
        // typed listener callbacks), so the type decides here too, not a failed instanceof, which costs a scan of
        // the class's interfaces on JDK 17 and is not on the codec's path.
        switch (frame.frameType()) {
            case Http2FrameTypes.SETTINGS:
            case Http2FrameTypes.PING:
            case Http2FrameTypes.GO_AWAY:
                break;
            default:
                ((Http2StreamFrame) frame).stream(FixedFrameStream.INSTANCE);
                break;
        }
        bh.consume(frame);
        frame.release();
    }
}
