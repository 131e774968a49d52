/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jcstress.negative;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Settings;
import io.pooledh2.codec.PooledHttp2FrameReader;
import io.pooledh2.jcstress.Observed;
import io.pooledh2.jcstress.WireFrames;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.L_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Negative control for test 6: a listener that keeps its settings although the reader was told
 * ({@code listenerKeepsNothing(true)}) that it keeps nothing, so the adapter passes the pooled frame's own
 * map instead of a copy. This test must FAIL: the consumer sees the map reset or refilled by the next
 * SETTINGS frame, which shows that test 6 would catch a missing copy. Not part of the default run;
 * {@code src/jcstress/run.sh --negative} runs it and expects it to fail.
 */
@JCStressTest
@Description("NEGATIVE CONTROL (must fail): a listener keeps settings it was lent without a copy")
@Outcome(id = "maxConcurrentStreams=100 initialWindowSize=70000 size=2", expect = ACCEPTABLE,
        desc = "The consumer read before the map was reused (the bug went unnoticed this time).")
@Outcome(expect = FORBIDDEN, desc = "The consumer saw the map reset or refilled by the next SETTINGS frame.")
@State
public class KeptSettingsWithoutCopyTest {

    private static final byte[] SETTINGS_1 = WireFrames.settings(
            Http2CodecUtil.SETTINGS_MAX_CONCURRENT_STREAMS, 100, Http2CodecUtil.SETTINGS_INITIAL_WINDOW_SIZE, 70000);
    private static final byte[] SETTINGS_2 = WireFrames.settings(
            Http2CodecUtil.SETTINGS_MAX_CONCURRENT_STREAMS, 200, Http2CodecUtil.SETTINGS_INITIAL_WINDOW_SIZE, 80000);

    private final PooledHttp2FrameReader reader = new PooledHttp2FrameReader().reuseFrames(true)
            .listenerKeepsNothing(true);   // the false promise
    private volatile Http2Settings kept;

    @Actor
    public void reader() {
        Http2FrameAdapter keeper = new Http2FrameAdapter() {
            @Override
            public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) {
                if (kept == null) {
                    kept = settings;
                }
            }
        };
        try {
            WireFrames.read(reader, SETTINGS_1, keeper);
            WireFrames.read(reader, SETTINGS_2, keeper);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Actor
    public void consumer(L_Result r) {
        Http2Settings settings;
        while ((settings = kept) == null) {
            Thread.onSpinWait();
        }
        try {
            r.r1 = "maxConcurrentStreams=" + settings.maxConcurrentStreams()
                    + " initialWindowSize=" + settings.initialWindowSize() + " size=" + settings.size();
        } catch (Throwable t) {
            r.r1 = Observed.error(t);
        }
    }
}
