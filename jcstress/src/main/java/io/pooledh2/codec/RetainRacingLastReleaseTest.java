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
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Test 2: {@code retain()} on another thread races the {@code release()} of the last reference, which the owner
 * makes inside its callback, on the reader's thread. That retain uses a reference the retainer does not hold,
 * and the release there is a plain store, not a CAS, so the retain may win, throw, or be lost
 * ({@link PooledHttp2Frame}'s contract). What must hold whatever the retain did: the reader's reuse is unharmed.
 * A retain that won leaves its holder a valid frame 1 until it releases it. A lost one has no effect on the count:
 * the retainer reads an intact frame 1 (the reader parses nothing before the retainer is done) and its release
 * throws, as a release of a released frame does ({@code ACCEPTABLE_INTERESTING}).
 *
 * <p>Frames are reused per thread, so the evidence is gathered by the owner, in the same event-loop scope: once
 * the retainer is done, it checks that frame 1's count is 0 ({@code left=0}; a retain that brought the released
 * frame back would leave a count) and parses the next frame. That must be the same instance whenever the release
 * came first (the reader's own reuse), with a count of exactly 1 and frame 2's values, and its release must bring
 * the count to 0. When the retain won, the frame came back to the reader if its holder released it during the
 * callback, else its holder's release recycled it, and the pool may hand it out again ({@code REUSED}) or not
 * ({@code new}). {@link RetainRacingForeignLastReleaseTest} is the same race with the last release on another
 * thread, where the retain must win or throw.
 */
@JCStressTest
@Description("retain() racing the last release on the reader's thread: the retain wins, throws or is lost; the "
        + "reader's reuse is unharmed")
@Outcome(id = "retain-threw, REUSED, left=0 next=stream=3 increment=1002 count=1 released=true", expect = ACCEPTABLE,
        desc = "The release won: the retain threw, and the reader parsed the next frame into the returned one.")
@Outcome(id = "retained stream=1 increment=1001, (REUSED|new), left=0 next=stream=3 increment=1002 count=1 "
        + "released=true", expect = ACCEPTABLE,
        desc = "The retain won; its holder's release gave the frame back to the reader or to the pool.")
@Outcome(id = "retained stream=1 increment=1001 release-threw, REUSED, left=0 next=stream=3 increment=1002 "
        + "count=1 released=true", expect = ACCEPTABLE_INTERESTING,
        desc = "The retain was lost to the release's plain store: its holder's release threw, the count stayed 0, "
                + "and the reader reused the frame.")
@Outcome(expect = FORBIDDEN,
        desc = "A retained frame with other values, a count brought back, a returned frame lost, or an error.")
@State
public class RetainRacingLastReleaseTest {

    private static final byte[] FRAME_1 = WireFrames.windowUpdate(1, 1001);
    private static final byte[] FRAME_2 = WireFrames.windowUpdate(3, 1002);

    private final PooledHttp2FrameReader reader = new PooledHttp2FrameReader().reuseFrames(true);
    private volatile PooledHttp2Frame handoff;
    /** Set by the retainer just before its retain(), so that the two calls start together. */
    private volatile boolean retainerReady;
    /** Set by the retainer when it holds no reference any more. */
    private volatile boolean retainerDone;

    @Actor
    public void owner(LLL_Result r) {
        EventLoopScope.run(() -> {
            PooledHttp2Frame[] first = new PooledHttp2Frame[1];
            try {
                WireFrames.read(reader, FRAME_1, (ctx, frame) -> {
                    first[0] = frame;
                    handoff = frame;
                    // Without this wait the release nearly always lands before the retainer has even seen it.
                    while (!retainerReady) {
                        Thread.onSpinWait();
                    }
                    frame.release();  // the last reference, racing the other thread's retain()
                });
                while (!retainerDone) {
                    Thread.onSpinWait();
                }
                Observed.nextParse(reader, first[0], FRAME_2, r);
            } catch (Throwable t) {
                r.r2 = Observed.error(t);
            }
        });
    }

    @Actor
    public void retainer(LLL_Result r) {
        PooledHttp2Frame frame;
        while ((frame = handoff) == null) {
            Thread.onSpinWait();
        }
        retainerReady = true;
        try {
            frame.retain();
        } catch (IllegalReferenceCountException e) {
            r.r1 = "retain-threw";
            retainerDone = true;
            return;
        }
        String seen = "retained ";
        try {
            seen += Observed.windowUpdate(frame);
            frame.release();
        } catch (IllegalReferenceCountException e) {
            seen += " release-threw";  // the retain was lost
        } catch (Throwable t) {
            seen = Observed.error(t);
        } finally {
            r.r1 = seen;
            retainerDone = true;
        }
    }
}
