/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.Http2WindowUpdateFrame;
import io.netty.util.IllegalReferenceCountException;
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
 * Test 5: in paranoid mode an access after release throws {@link IllegalReferenceCountException}, on the
 * thread that released the frame and on any other. The owner hands frame 1 to the consumer, releases it,
 * raises a volatile flag, and then reads the frame itself. The consumer reads the flag and then the frame:
 * once it has seen the flag, its access happens after the release and must throw. An access that races the
 * release (flag not yet seen) may still see frame 1, or throw; it must never answer with anything else, such
 * as the reset value the release writes. Paranoid mode never reuses a frame, so here the evidence runs the
 * other way: the next parse must be a new instance.
 */
@JCStressTest
@Description("Paranoid mode: every access after release throws, on every thread; frames are never reused")
@Outcome(id = "threw, after-release threw, new-instance", expect = ACCEPTABLE,
        desc = "The consumer saw the release flag, so its access came after the release: it threw.")
@Outcome(id = "threw, racing threw, new-instance", expect = ACCEPTABLE,
        desc = "The consumer's access raced the release and came after it: it threw.")
@Outcome(id = "threw, racing stream=1 increment=1001, new-instance", expect = ACCEPTABLE,
        desc = "The consumer's access raced the release and came before it: it saw frame 1.")
@Outcome(id = "threw, racing (stream=0 .*|.*increment=0), new-instance", expect = FORBIDDEN,
        desc = "A racing access passed the count check, then read the value the release had just reset.")
@Outcome(expect = FORBIDDEN,
        desc = "An access after release answered, an access saw a reset value, or paranoid mode reused a frame.")
@State
public class ParanoidAccessAfterReleaseTest {

    private static final byte[] FRAME_1 = WireFrames.windowUpdate(1, 1001);
    private static final byte[] FRAME_2 = WireFrames.windowUpdate(3, 1002);

    private final PooledHttp2FrameReader reader = new PooledHttp2FrameReader().paranoid(true);
    private volatile PooledHttp2Frame handoff;
    private volatile boolean released;

    @Actor
    public void owner(LLL_Result r) {
        try {
            WireFrames.read(reader, FRAME_1, (ctx, frame) -> handoff = frame);
            PooledHttp2Frame first = handoff;
            first.release();
            released = true;
            r.r1 = access(first);
            WireFrames.read(reader, FRAME_2, (ctx, frame) -> {
                r.r3 = frame == first ? "SAME-INSTANCE" : "new-instance";
                frame.release();
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
        boolean afterRelease = released;
        r.r2 = (afterRelease ? "after-release " : "racing ") + access(frame);
    }

    /** Reads the stream id and the increment, each accessor checking the count on its own. */
    private static String access(PooledHttp2Frame frame) {
        try {
            return "stream=" + frame.streamId()
                    + " increment=" + ((Http2WindowUpdateFrame) frame).windowSizeIncrement();
        } catch (IllegalReferenceCountException e) {
            return "threw";
        } catch (Throwable t) {
            return Observed.error(t);
        }
    }
}
