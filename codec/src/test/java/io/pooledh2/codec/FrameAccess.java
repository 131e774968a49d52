/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.handler.codec.http2.Http2PingFrame;
import io.netty.handler.codec.http2.Http2PriorityFrame;
import io.netty.handler.codec.http2.Http2PushPromiseFrame;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.Http2SettingsFrame;
import io.netty.handler.codec.http2.Http2StreamFrame;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.codec.http2.Http2UnknownFrame;
import io.netty.handler.codec.http2.Http2WindowUpdateFrame;
import org.junit.jupiter.api.function.Executable;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/** Reads every field of a pooled frame through its public interfaces, and poisons every field for reuse tests. */
final class FrameAccess {

    private FrameAccess() {
    }

    /** Every field, rendered; two frames with the same rendering are indistinguishable to a consumer. */
    static String render(PooledHttp2Frame frame) {
        StringBuilder out = new StringBuilder(frame.name()).append(" type=").append(frame.frameType())
                .append(" stream=").append(frame.streamId());
        if (frame instanceof Http2StreamFrame) {
            out.append(" frameStream=").append(((Http2StreamFrame) frame).stream());
        }
        if (frame instanceof Http2DataFrame) {
            Http2DataFrame f = (Http2DataFrame) frame;
            out.append(" data=").append(ByteBufUtil.hexDump(f.content())).append(" padding=").append(f.padding())
                    .append(" eos=").append(f.isEndStream()).append(" flowControlled=")
                    .append(f.initialFlowControlledBytes());
        } else if (frame instanceof PooledHttp2HeadersFrame) {
            PooledHttp2HeadersFrame f = (PooledHttp2HeadersFrame) frame;
            out.append(" headers=").append(f.headers()).append(" padding=").append(f.padding()).append(" eos=")
                    .append(f.isEndStream()).append(" priority=").append(f.priorityPresent()).append('/')
                    .append(f.streamDependency()).append('/').append(f.weight()).append('/').append(f.exclusive());
        } else if (frame instanceof Http2PriorityFrame) {
            Http2PriorityFrame f = (Http2PriorityFrame) frame;
            out.append(" dependency=").append(f.streamDependency()).append(" weight=").append(f.weight())
                    .append(" exclusive=").append(f.exclusive());
        } else if (frame instanceof Http2ResetFrame) {
            out.append(" error=").append(((Http2ResetFrame) frame).errorCode());
        } else if (frame instanceof Http2SettingsFrame) {
            out.append(" settings=").append(new TreeMap<>(((Http2SettingsFrame) frame).settings()));
        } else if (frame instanceof Http2PushPromiseFrame) {
            Http2PushPromiseFrame f = (Http2PushPromiseFrame) frame;
            out.append(" promised=").append(f.promisedStreamId()).append(" headers=").append(f.http2Headers())
                    .append(" padding=").append(f.padding()).append(" pushStream=").append(f.pushStream());
        } else if (frame instanceof Http2PingFrame) {
            Http2PingFrame f = (Http2PingFrame) frame;
            out.append(" content=").append(f.content()).append(" ack=").append(f.ack());
        } else if (frame instanceof Http2GoAwayFrame) {
            Http2GoAwayFrame f = (Http2GoAwayFrame) frame;
            out.append(" last=").append(f.lastStreamId()).append(" error=").append(f.errorCode())
                    .append(" debug=").append(ByteBufUtil.hexDump(f.content())).append(" extra=")
                    .append(f.extraStreamIds());
        } else if (frame instanceof Http2WindowUpdateFrame) {
            out.append(" increment=").append(((Http2WindowUpdateFrame) frame).windowSizeIncrement());
        } else if (frame instanceof Http2UnknownFrame) {
            Http2UnknownFrame f = (Http2UnknownFrame) frame;
            out.append(" flags=").append(f.flags().value()).append(" payload=")
                    .append(ByteBufUtil.hexDump(f.content()));
        }
        return out.toString();
    }

    /** One call per accessor of the frame's interfaces. */
    static List<Executable> accessors(PooledHttp2Frame frame) {
        List<Executable> calls = new ArrayList<>();
        calls.add(frame::streamId);
        if (frame instanceof Http2StreamFrame) {
            Http2StreamFrame f = (Http2StreamFrame) frame;
            calls.add(f::stream);
            calls.add(() -> f.stream(null));
        }
        if (frame instanceof Http2DataFrame) {
            Http2DataFrame f = (Http2DataFrame) frame;
            calls.add(f::content);
            calls.add(f::padding);
            calls.add(f::isEndStream);
            calls.add(f::initialFlowControlledBytes);
            calls.add(f::copy);
        } else if (frame instanceof PooledHttp2HeadersFrame) {
            PooledHttp2HeadersFrame f = (PooledHttp2HeadersFrame) frame;
            calls.add(f::headers);
            calls.add(f::padding);
            calls.add(f::isEndStream);
            calls.add(f::priorityPresent);
            calls.add(f::streamDependency);
            calls.add(f::weight);
            calls.add(f::exclusive);
        } else if (frame instanceof Http2PriorityFrame) {
            Http2PriorityFrame f = (Http2PriorityFrame) frame;
            calls.add(f::streamDependency);
            calls.add(f::weight);
            calls.add(f::exclusive);
        } else if (frame instanceof Http2ResetFrame) {
            calls.add(((Http2ResetFrame) frame)::errorCode);
        } else if (frame instanceof Http2SettingsFrame) {
            calls.add(((Http2SettingsFrame) frame)::settings);
        } else if (frame instanceof Http2PushPromiseFrame) {
            Http2PushPromiseFrame f = (Http2PushPromiseFrame) frame;
            calls.add(f::http2Headers);
            calls.add(f::padding);
            calls.add(f::promisedStreamId);
            calls.add(f::pushStream);
        } else if (frame instanceof Http2PingFrame) {
            Http2PingFrame f = (Http2PingFrame) frame;
            calls.add(f::content);
            calls.add(f::ack);
        } else if (frame instanceof Http2GoAwayFrame) {
            Http2GoAwayFrame f = (Http2GoAwayFrame) frame;
            calls.add(f::content);
            calls.add(f::lastStreamId);
            calls.add(f::errorCode);
            calls.add(f::extraStreamIds);
            calls.add(f::copy);
        } else if (frame instanceof Http2WindowUpdateFrame) {
            calls.add(((Http2WindowUpdateFrame) frame)::windowSizeIncrement);
        } else if (frame instanceof Http2UnknownFrame) {
            Http2UnknownFrame f = (Http2UnknownFrame) frame;
            calls.add(f::frameType);
            calls.add(f::flags);
            calls.add(f::content);
        }
        return calls;
    }

    /** Overwrites every field of a released frame with garbage, as a stale owner might. */
    static void poison(PooledHttp2Frame released) {
        PooledFrame frame = (PooledFrame) released;
        if (frame instanceof StreamFrame) {
            ((StreamFrame) frame).streamId = 0x5EAD;
            ((StreamFrame) frame).stream(POISON_STREAM);
        }
        if (frame instanceof PooledDataFrame) {
            PooledDataFrame f = (PooledDataFrame) frame;
            f.payload.target(Unpooled.wrappedBuffer(RawFrames.bytes("poison")), 0, 3, 0, 3, false);
            f.padding = 77;
            f.endStream = true;
            f.initialFlowControlledBytes = 77;
        } else if (frame instanceof HeaderBlockFrame) {
            HeaderBlockFrame f = (HeaderBlockFrame) frame;
            f.headers = new DefaultHttp2Headers().add("poison", "yes");
            f.padding = 77;
            if (f instanceof PooledHeadersFrame) {
                PooledHeadersFrame h = (PooledHeadersFrame) f;
                h.endStream = true;
                h.priorityPresent = true;
                h.streamDependency = 77;
                h.weight = 77;
                h.exclusive = true;
            } else {
                PooledPushPromiseFrame p = (PooledPushPromiseFrame) f;
                p.promisedStreamId = 77;
                p.pushStream(POISON_STREAM);
            }
        } else if (frame instanceof PooledPriorityFrame) {
            PooledPriorityFrame f = (PooledPriorityFrame) frame;
            f.streamDependency = 77;
            f.weight = 77;
            f.exclusive = true;
        } else if (frame instanceof PooledResetFrame) {
            ((PooledResetFrame) frame).errorCode = 77;
        } else if (frame instanceof PooledSettingsFrame) {
            ((PooledSettingsFrame) frame).settings.put((char) 0x77, Long.valueOf(77));
        } else if (frame instanceof PooledPingFrame) {
            PooledPingFrame f = (PooledPingFrame) frame;
            f.content = 77;
            f.ack = true;
        } else if (frame instanceof PooledGoAwayFrame) {
            PooledGoAwayFrame f = (PooledGoAwayFrame) frame;
            f.lastStreamId = 77;
            f.errorCode = 77;
            f.content = Unpooled.wrappedBuffer(RawFrames.bytes("poison"));
            f.setExtraStreamIds(77);
        } else if (frame instanceof PooledWindowUpdateFrame) {
            ((PooledWindowUpdateFrame) frame).windowSizeIncrement = 77;
        } else if (frame instanceof PooledUnknownFrame) {
            PooledUnknownFrame f = (PooledUnknownFrame) frame;
            f.frameType = 0x77;
            f.flags.setFlag(true, (short) 0xFF);
            f.payload.target(Unpooled.wrappedBuffer(RawFrames.bytes("poison")), 0, 3, 0, 3, false);
        }
    }

    static final Http2FrameStream POISON_STREAM = new Http2FrameStream() {
        @Override
        public int id() {
            return 0x5EAD;
        }

        @Override
        public Http2Stream.State state() {
            return Http2Stream.State.CLOSED;
        }

        @Override
        public String toString() {
            return "POISON";
        }
    };
}
