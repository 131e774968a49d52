/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.util.IllegalReferenceCountException;
import io.pooledh2.jcstress.EventLoopScope;
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
 * Test 2b: the last reference is released on another thread, while the owner, on the reader's thread and inside
 * its callback, calls {@code retain()} on the frame it has handed over. A release off the reader's thread is a
 * CAS, as it must be to race the reader's own step after the callback, so the retain either wins, and the owner
 * holds a valid frame 1 until it releases it, or throws. A retain lost to the release ({@link
 * RetainRacingLastReleaseTest}'s interesting outcome) is forbidden here: it would mean that a release on another
 * thread was a plain store, which could also lose the reader's step and leak the frame's input.
 *
 * <p>Once the releaser is done, the owner checks that frame 1's count is 0 ({@code left=0}) and parses the next
 * frame: the same instance whenever the release won ({@code REUSED}, the reader's own reuse), with a count of
 * exactly 1 and frame 2's values, and its release must bring the count to 0. When the retain won, the frame went
 * back to the reader or, if the releaser released it after the callback, to the pool ({@code new}, or
 * {@code REUSED} if the pool handed it out again).
 */
@JCStressTest
@Description("retain() racing the last release on another thread: the retain wins or throws, never is lost")
@Outcome(id = "retain-threw, REUSED, left=0 next=stream=3 increment=1002 count=1 released=true", expect = ACCEPTABLE,
        desc = "The release won: the retain threw, and the reader parsed the next frame into the returned one.")
@Outcome(id = "retained stream=1 increment=1001, (REUSED|new), left=0 next=stream=3 increment=1002 count=1 "
        + "released=true", expect = ACCEPTABLE,
        desc = "The retain won; the frame went back to the reader or to the pool.")
@Outcome(expect = FORBIDDEN,
        desc = "A retain lost (its release threw), a retained frame with other values, a count brought back, or an "
                + "error.")
@State
public class RetainRacingForeignLastReleaseTest {

    private static final byte[] FRAME_1 = WireFrames.windowUpdate(1, 1001);
    private static final byte[] FRAME_2 = WireFrames.windowUpdate(3, 1002);

    private final PooledHttp2FrameReader reader = new PooledHttp2FrameReader().reuseFrames(true);
    private volatile PooledHttp2Frame handoff;
    /** Set by the releaser just before its release(), so that the two calls start together. */
    private volatile boolean releaserReady;
    /** Set by the releaser when it has released. */
    private volatile boolean releaserDone;
    /** What the releaser's release threw, if it did. */
    private volatile String releaseError;

    @Actor
    public void owner(LLL_Result r) {
        EventLoopScope.run(() -> {
            PooledHttp2Frame[] first = new PooledHttp2Frame[1];
            try {
                WireFrames.read(reader, FRAME_1, (ctx, frame) -> {
                    first[0] = frame;
                    handoff = frame;  // the releaser holds the one reference now
                    while (!releaserReady) {
                        Thread.onSpinWait();
                    }
                    r.r1 = retainAndRelease(frame);  // racing the releaser's release()
                });
                while (!releaserDone) {
                    Thread.onSpinWait();
                }
                Observed.nextParse(reader, first[0], FRAME_2, r);
                if (releaseError != null) {
                    r.r3 = releaseError + " " + r.r3;
                }
            } catch (Throwable t) {
                r.r2 = Observed.error(t);
            }
        });
    }

    private static String retainAndRelease(PooledHttp2Frame frame) {
        try {
            frame.retain();
        } catch (IllegalReferenceCountException e) {
            return "retain-threw";
        }
        String seen = "retained ";
        try {
            seen += Observed.windowUpdate(frame);
            frame.release();
        } catch (Throwable t) {
            seen += " " + Observed.error(t);  // a lost retain: its release throws
        }
        return seen;
    }

    @Actor
    public void releaser() {
        PooledHttp2Frame frame;
        while ((frame = handoff) == null) {
            Thread.onSpinWait();
        }
        releaserReady = true;
        try {
            frame.release();  // the last reference, on a thread other than the reader's
        } catch (Throwable t) {
            releaseError = Observed.error(t);
        } finally {
            releaserDone = true;
        }
    }
}
