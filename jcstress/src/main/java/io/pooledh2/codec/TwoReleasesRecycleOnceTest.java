/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.pooledh2.jcstress.EventLoopScope;
import io.pooledh2.jcstress.Observed;
import io.pooledh2.jcstress.WireFrames;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LLLL_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Test 1: two threads release the two references of one frame at the same time. Exactly one release is
 * the last, the frame goes back to its Recycler exactly once, and the pool never hands one instance to two
 * owners.
 *
 * <p>The owner runs the reader as on an event loop ({@link EventLoopScope}), so the frames come from the
 * real static {@code FramePool} with real Recycler handles. Frame 1 leaves the callback with a count of 2,
 * so the reader gives it up (DETACHED) and the last release recycles it: on the owner's thread into the
 * pool's local batch, on the consumer's thread through the pool's cross-thread queue. The owner then parses
 * frames 2 and 3 and keeps both, so each comes from the pool; the row shows which of them got frame 1's
 * instance back (the reuse evidence). A guarded Recycler handle throws when an object is recycled twice, so a
 * double recycle shows up as an ERROR row.
 */
@JCStressTest
@Description("Two threads release the two references of a pooled frame: one last release, one recycle, "
        + "no instance handed to two owners")
@Outcome(id = "owner-last, consumer-not-last, REUSED-by-frame-2, ok", expect = ACCEPTABLE,
        desc = "Consumer released first; the owner's release recycled the frame on its own thread; frame 2 got it.")
@Outcome(id = "owner-not-last, consumer-last, REUSED-by-frame-2, ok", expect = ACCEPTABLE,
        desc = "The consumer's release recycled the frame across threads before frame 2 was parsed; frame 2 got it.")
@Outcome(id = "owner-not-last, consumer-last, REUSED-by-frame-3, ok", expect = ACCEPTABLE,
        desc = "The consumer released between the parses of frames 2 and 3; frame 3 got the instance.")
@Outcome(id = "owner-not-last, consumer-last, not-reused, ok", expect = ACCEPTABLE,
        desc = "The consumer released after frame 3 was taken from the pool.")
@Outcome(id = "owner-last, consumer-not-last, (REUSED-by-frame-3|not-reused), ok", expect = ACCEPTABLE_INTERESTING,
        desc = "Recycled on the owner's thread but not handed out next: safe, but the pool lost the instance.")
@Outcome(expect = FORBIDDEN,
        desc = "Both or neither release was the last, one instance went to two owners, wrong values, or an error.")
@State
public class TwoReleasesRecycleOnceTest {

    private static final byte[] FRAME_1 = WireFrames.windowUpdate(1, 1001);
    private static final byte[] FRAME_2 = WireFrames.windowUpdate(3, 1002);
    private static final byte[] FRAME_3 = WireFrames.windowUpdate(5, 1003);

    private final PooledHttp2FrameReader reader = new PooledHttp2FrameReader().reuseFrames(true);
    /** Frame 1, published by the owner's listener with one reference for the consumer. */
    private volatile PooledHttp2Frame handoff;
    /** The frame the owner's listener got last; read by the owner after its readFrame call. */
    private PooledHttp2Frame parsed;

    @Actor
    public void owner(LLLL_Result r) {
        EventLoopScope.run(() -> {
            try {
                WireFrames.read(reader, FRAME_1, (ctx, frame) -> {
                    frame.retain();      // the consumer's reference; the owner keeps the one it was given
                    handoff = frame;
                });
                PooledHttp2Frame first = handoff;
                r.r1 = first.release() ? "owner-last" : "owner-not-last";

                // Kept past their callbacks, frames 2 and 3 are each taken from the pool.
                PooledHttp2Frame second = parseAndKeep(FRAME_2);
                PooledHttp2Frame third = parseAndKeep(FRAME_3);
                r.r3 = second == first ? "REUSED-by-frame-2" : third == first ? "REUSED-by-frame-3" : "not-reused";
                r.r4 = integrity(second, third);
                second.release();
                third.release();
            } catch (Throwable t) {
                r.r4 = Observed.error(t);
            }
        });
    }

    @Actor
    public void consumer(LLLL_Result r) {
        PooledHttp2Frame frame;
        while ((frame = handoff) == null) {
            Thread.onSpinWait();
        }
        try {
            r.r2 = frame.release() ? "consumer-last" : "consumer-not-last";
        } catch (Throwable t) {
            r.r2 = Observed.error(t);
        }
    }

    private PooledHttp2Frame parseAndKeep(byte[] frame) throws Exception {
        WireFrames.read(reader, frame, (ctx, f) -> parsed = f);
        return parsed;
    }

    /** Frames 2 and 3 are held at once: two distinct instances, each with its own values and one reference. */
    private static String integrity(PooledHttp2Frame second, PooledHttp2Frame third) {
        if (second == third) {
            return "DUPLICATE: frames 2 and 3 are one instance";
        }
        String s2 = Observed.windowUpdate(second);
        String s3 = Observed.windowUpdate(third);
        if (!s2.equals("stream=3 increment=1002") || !s3.equals("stream=5 increment=1003")) {
            return "BAD VALUES: " + s2 + " / " + s3;
        }
        if (second.refCnt() != 1 || third.refCnt() != 1) {
            return "BAD COUNTS: " + second.refCnt() + " / " + third.refCnt();
        }
        return "ok";
    }
}
