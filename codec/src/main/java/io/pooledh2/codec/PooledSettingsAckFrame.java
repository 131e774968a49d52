/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2SettingsAckFrame;
import io.netty.util.Recycler;

/** SETTINGS with the ACK flag: no fields, but counted and released like every other frame. */
final class PooledSettingsAckFrame extends PooledFrame implements Http2SettingsAckFrame {

    static final FramePool<PooledSettingsAckFrame> POOL =
            new FramePool<>(Http2FrameTypes.SETTINGS, PooledSettingsAckFrame::new);

    private PooledSettingsAckFrame(Recycler.Handle<PooledSettingsAckFrame> handle) {
        super(handle, false);
    }

    @Override
    void clear() {
        // Nothing to reset.
    }

    @Override
    public byte frameType() {
        return Http2FrameTypes.SETTINGS;
    }

    @Override
    public String name() {
        return "SETTINGS(ACK)";
    }

    /** Netty's format is the class name alone. Compared by identity, as Netty's. */
    @Override
    String fields() {
        return "";
    }
}
