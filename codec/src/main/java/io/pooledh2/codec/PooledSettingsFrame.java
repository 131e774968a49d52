/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2SettingsFrame;
import io.netty.util.Recycler;
import io.netty.util.internal.StringUtil;

/** SETTINGS (not ACK): one {@link Http2Settings} map per frame, cleared on release and filled on parse. */
final class PooledSettingsFrame extends PooledFrame implements Http2SettingsFrame {

    static final FramePool<PooledSettingsFrame> POOL = new FramePool<>(PooledSettingsFrame::new);

    final Http2Settings settings = new Http2Settings();

    private PooledSettingsFrame(Recycler.Handle<PooledSettingsFrame> handle) {
        super(handle);
    }

    /** Empties the map for a parse, whatever an earlier owner left in it. */
    Http2Settings init() {
        settings.clear();
        return settings;
    }

    @Override
    void clear() {
        settings.clear();
    }

    @Override
    public byte frameType() {
        return Http2FrameTypes.SETTINGS;
    }

    @Override
    public String name() {
        return "SETTINGS";
    }

    @Override
    public Http2Settings settings() {
        ensureAccessible();
        return settings;
    }

    /** Netty's format for this frame type; the stream id stands for the stream when no codec attached one. */
    /**
     * As {@code DefaultHttp2SettingsFrame}: equal to any {@link Http2SettingsFrame}, Netty's included, with equal
     * settings, so that the answer is the same from both sides. In paranoid mode a released frame throws
     * {@code IllegalReferenceCountException}.
     */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Http2SettingsFrame)) {
            return false;
        }
        return settings().equals(((Http2SettingsFrame) o).settings());
    }

    @Override
    public int hashCode() {
        return settings().hashCode();
    }

    @Override
    public String toString() {
        if (refCnt() == 0) {
            return StringUtil.simpleClassName(this) + "(released)"; // toString must not throw, even in paranoid mode
        }
        return StringUtil.simpleClassName(this) + "(settings=" + settings() + ')';
    }
}
