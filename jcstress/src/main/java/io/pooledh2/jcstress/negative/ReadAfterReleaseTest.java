/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jcstress.negative;

import io.pooledh2.codec.PooledHttp2Frame;
import io.pooledh2.codec.PooledHttp2FrameReader;
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
 * Negative control for test 3: the same hand-off, with a consumer that breaks the retention contract by
 * reading the frame again after releasing it. This test must FAIL: finding the forbidden outcomes shows
 * that the suite has the power to catch a use after release. "reset" is the frame as its release left it;
 * "frame-2" is the corruption reuse causes, the next frame's values read through the old reference (a mix
 * of the two is a read in the middle of the next parse). So that every sample reuses the frame, the
 * reader's callback returns only once the consumer has released it; the late read then races the parse of
 * frame 2 into the same object. Not part of the default run; {@code src/jcstress/run.sh --negative} runs it
 * and expects it to fail.
 */
@JCStressTest
@Description("NEGATIVE CONTROL (must fail): a consumer that reads a frame after releasing it")
@Outcome(id = "stream=1 increment=1001, after-release=stream=1 increment=1001, .*", expect = ACCEPTABLE,
        desc = "The late read still saw frame 1 (the bug went unnoticed this time).")
@Outcome(id = ".*, after-release=reset, .*", expect = FORBIDDEN,
        desc = "The late read saw the frame as its release reset it.")
@Outcome(id = ".*, after-release=frame-2, .*", expect = FORBIDDEN,
        desc = "The late read saw the next frame's values: reuse corrupted what the consumer read.")
@Outcome(expect = FORBIDDEN, desc = "Half reset, half next frame: a read in the middle of the next parse.")
@State
public class ReadAfterReleaseTest {

    private static final byte[] FRAMES = WireFrames.concat(
            WireFrames.windowUpdate(1, 1001),
            WireFrames.windowUpdate(3, 1002));

    private final PooledHttp2FrameReader reader = new PooledHttp2FrameReader().reuseFrames(true);
    private volatile PooledHttp2Frame handoff;
    private volatile boolean consumerReleased;

    @Actor
    public void reader(LLL_Result r) {
        try {
            WireFrames.read(reader, FRAMES, (ctx, frame) -> {
                PooledHttp2Frame first = handoff;
                if (first == null) {
                    handoff = frame;
                    while (!consumerReleased) {
                        Thread.onSpinWait();
                    }
                } else {
                    r.r3 = frame == first ? "REUSED" : "new";
                    frame.release();
                }
            });
        } catch (Throwable t) {
            r.r3 = Observed.error(t);
        }
    }

    @Actor
    public void consumer(LLL_Result r) {
        PooledHttp2Frame frame;
        while ((frame = handoff) == null) {
            Thread.onSpinWait();
        }
        r.r1 = Observed.windowUpdate(frame);
        frame.release();
        consumerReleased = true;
        // A little more work before the late read, as a handler would do: enough for the next parse to
        // land first in some samples and not in others.
        for (int i = 0; i < 32; i++) {
            Thread.onSpinWait();
        }
        String late = Observed.windowUpdate(frame);   // the bug: the frame is no longer ours
        r.r2 = "after-release=" + (late.equals("stream=0 increment=0") ? "reset"
                : late.equals("stream=3 increment=1002") ? "frame-2" : late);
    }
}
