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

    @Override
    public String toString() {
        return StringUtil.simpleClassName(this) + "(settings=" + settings + ')';
    }
}
