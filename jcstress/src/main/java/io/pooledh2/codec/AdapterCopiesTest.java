/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2FrameListener;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.pooledh2.jcstress.Observed;
import io.pooledh2.jcstress.WireFrames;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LLL_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Test 6: what the {@code Http2FrameListener} adapter gives a standard listener stays as it was while the
 * reader reuses the frames it came from. The listener keeps the settings and the headers of the first
 * SETTINGS and HEADERS frames and hands them to a consumer thread; the reader goes on with a second SETTINGS
 * and HEADERS frame, parsed into the same pooled objects (the adapter releases each frame during its
 * callback, so the reader reuses it every time). The consumer must see the first frames' values.
 *
 * <p>The test calls {@link FrameListenerAdapter} (the code
 * {@code readFrame(ctx, in, Http2FrameListener)} uses) from {@code readFrame(ctx, in, PooledHttp2FrameListener)},
 * which lets it see the pooled frames and so show that they were reused.
 */
@JCStressTest
@Description("Settings and headers the listener adapter handed out are unchanged by the reuse of their frames")
@Outcome(id = "settings=frame-1, headers=frame-1, REUSED", expect = ACCEPTABLE,
        desc = "The consumer saw the first frames' settings and headers while their frames were reused.")
@Outcome(expect = FORBIDDEN,
        desc = "The consumer saw changed settings or headers, the frames were not reused, or an error.")
@State
public class AdapterCopiesTest {

    private static final byte[] FRAMES_1 = WireFrames.concat(
            WireFrames.settings(Http2CodecUtil.SETTINGS_MAX_CONCURRENT_STREAMS, 100,
                    Http2CodecUtil.SETTINGS_INITIAL_WINDOW_SIZE, 70000),
            WireFrames.headers(1, false, ":method", "GET", ":path", "/one", "x-frame", "1"));
    private static final byte[] FRAMES_2 = WireFrames.concat(
            WireFrames.settings(Http2CodecUtil.SETTINGS_MAX_CONCURRENT_STREAMS, 200,
                    Http2CodecUtil.SETTINGS_INITIAL_WINDOW_SIZE, 80000),
            WireFrames.headers(3, true, ":method", "GET", ":path", "/two", "x-frame", "2"));
    private static final String SETTINGS_1 = "maxConcurrentStreams=100 initialWindowSize=70000 size=2";
    private static final String HEADERS_1 = "path=/one x-frame=1 size=3";

    private final PooledHttp2FrameReader reader = new PooledHttp2FrameReader().reuseFrames(true);
    /** A listener of the kind Http2FrameCodec is: it keeps what it is given. */
    private final Http2FrameListener listener = new Http2FrameAdapter() {
        @Override
        public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) {
            if (keptSettings == null) {
                keptSettings = settings;
            }
        }

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                                  boolean endOfStream) {
            if (keptHeaders == null) {
                keptHeaders = headers;
            }
        }
    };
    /** Published in this order; the consumer waits for the headers, so it sees the settings too. */
    private volatile Http2Settings keptSettings;
    private volatile Http2Headers keptHeaders;
    // The pooled frames the adapter got, first and second time; read by the owner only.
    private PooledHttp2Frame settingsFrame1;
    private PooledHttp2Frame headersFrame1;
    private PooledHttp2Frame settingsFrame2;
    private PooledHttp2Frame headersFrame2;

    @Actor
    public void owner(LLL_Result r) {
        try {
            WireFrames.read(reader, FRAMES_1, (ctx, frame) -> {
                if (frame instanceof PooledSettingsFrame) {
                    settingsFrame1 = frame;
                } else {
                    headersFrame1 = frame;
                }
                FrameListenerAdapter.onFrame(ctx, frame.frameType(), frame, listener, false, false);
                frame.release();  // the reader's own reference, dropped after the listener call
            });
            WireFrames.read(reader, FRAMES_2, (ctx, frame) -> {
                if (frame instanceof PooledSettingsFrame) {
                    settingsFrame2 = frame;
                } else {
                    headersFrame2 = frame;
                }
                FrameListenerAdapter.onFrame(ctx, frame.frameType(), frame, listener, false, false);
                frame.release();  // the reader's own reference, dropped after the listener call
            });
            boolean reused = settingsFrame2 == settingsFrame1 && headersFrame2 == headersFrame1;
            r.r3 = reused ? "REUSED" : "not-reused";
        } catch (Throwable t) {
            r.r3 = Observed.error(t);
        }
    }

    @Actor
    public void consumer(LLL_Result r) {
        Http2Headers headers;
        while ((headers = keptHeaders) == null) {
            Thread.onSpinWait();
        }
        Http2Settings settings = keptSettings;
        try {
            String seenSettings = "maxConcurrentStreams=" + settings.maxConcurrentStreams()
                    + " initialWindowSize=" + settings.initialWindowSize() + " size=" + settings.size();
            String seenHeaders = "path=" + headers.path() + " x-frame=" + headers.get("x-frame")
                    + " size=" + headers.size();
            r.r1 = "settings=" + (seenSettings.equals(SETTINGS_1) ? "frame-1" : seenSettings);
            r.r2 = "headers=" + (seenHeaders.equals(HEADERS_1) ? "frame-1" : seenHeaders);
        } catch (Throwable t) {
            r.r1 = Observed.error(t);
        }
    }
}
