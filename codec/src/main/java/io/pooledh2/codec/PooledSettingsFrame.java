/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2SettingsFrame;
import io.netty.util.Recycler;

import static io.netty.handler.codec.http2.Http2CodecUtil.SETTINGS_INITIAL_WINDOW_SIZE;
import static io.netty.handler.codec.http2.Http2CodecUtil.SETTINGS_MAX_HEADER_LIST_SIZE;
import static io.netty.handler.codec.http2.Http2CodecUtil.SETTING_ENTRY_LENGTH;
import static io.netty.handler.codec.http2.Http2Error.FLOW_CONTROL_ERROR;
import static io.netty.handler.codec.http2.Http2Error.PROTOCOL_ERROR;
import static io.netty.handler.codec.http2.Http2Exception.connectionError;

/** SETTINGS (not ACK): one {@link Http2Settings} map per frame, emptied and filled again by each parse. */
final class PooledSettingsFrame extends PooledFrame implements Http2SettingsFrame {

    static final FramePool<PooledSettingsFrame> POOL =
            new FramePool<>(Http2FrameTypes.SETTINGS, PooledSettingsFrame::new);

    final Http2Settings settings = new Http2Settings();
    /** The last value boxed for each standard setting, by identifier. */
    private final Long[] lastValues = new Long[SETTINGS_MAX_HEADER_LIST_SIZE + 1];

    private PooledSettingsFrame(Recycler.Handle<PooledSettingsFrame> handle) {
        super(handle, false);
    }

    /**
     * Fills the map with {@code count} entries of {@code in}, whatever an earlier owner left in it. A value equal
     * to the last one parsed for its setting reuses that {@code Long}, so steady SETTINGS allocate nothing.
     */
    void parse(ByteBuf in, int count) throws Http2Exception {
        if (holds(in, count)) {
            in.skipBytes(count * SETTING_ENTRY_LENGTH);
            return;
        }
        settings.clear();
        Long[] boxed = lastValues;
        for (int i = 0; i < count; i++) {
            char id = (char) in.readUnsignedShort();
            long value = in.readUnsignedInt();
            Long box;
            if (id < boxed.length) {
                box = boxed[id];
                if (box == null || box != value) {
                    boxed[id] = box = value;
                }
            } else {
                box = value;
            }
            put(settings, id, box);
        }
    }

    /**
     * Whether the map already holds exactly what parsing the {@code count} entries of {@code in} would leave in it.
     * A thread's connections often come from clients of one kind, which send the same SETTINGS, and refilling
     * the thread's long-lived map measured slower than filling a new one (reference stores into an old object
     * pay G1's write barrier; reads pay none). The map's values passed {@link Http2Settings#put}'s validation
     * when they went in, so the entries would pass it again; entries are compared as they are, so a map a
     * consumer changed is refilled. Only identifiers below 16 take the shortcut (the standard ones are 1 to 9):
     * the map has at least 16 slots and a char's slot is its value, so each has its own and the map iterates in
     * the same order whatever order the entries came in. A repeated identifier takes the refill: the frame then
     * has fewer distinct entries than {@code count}, and the map's size could match by chance.
     */
    private boolean holds(ByteBuf in, int count) {
        if (settings.size() != count) {
            return false;
        }
        int seen = 0;
        for (int i = 0, index = in.readerIndex(); i < count; i++, index += SETTING_ENTRY_LENGTH) {
            int id = in.getUnsignedShort(index);
            if (id >= 16 || (seen & 1 << id) != 0) {
                return false;
            }
            seen |= 1 << id;
            Long held = settings.get((char) id);
            if (held == null || held != in.getUnsignedInt(index + 2)) {
                return false;
            }
        }
        return true;
    }

    /** {@link Http2Settings#put}, which validates the value, with the errors of {@code DefaultHttp2FrameReader}. */
    static void put(Http2Settings settings, char id, Long value) throws Http2Exception {
        try {
            settings.put(id, value);
        } catch (IllegalArgumentException e) {
            if (id == SETTINGS_INITIAL_WINDOW_SIZE) {
                throw connectionError(FLOW_CONTROL_ERROR, e, "Failed setting initial window size: %s",
                        e.getMessage());
            }
            throw connectionError(PROTOCOL_ERROR, e, "Protocol error: %s", e.getMessage());
        }
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
    String fields() {
        return "(settings=" + settings() + ')';
    }
}
