/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.pooledh2.jcstress.EventLoopScope;
import io.pooledh2.jcstress.Observed;
import io.pooledh2.jcstress.WireFrames;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LLL_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Test 3 (positive control): the hand-off of a server whose reader feeds a handler on another thread. The
 * reader's listener hands DATA frame 1 to the consumer without releasing it; the consumer reads every field
 * and then releases it, while the reader, as soon as the callback returns, decides who owns the frame and
 * parses DATA frame 2 from the same input. That is the race this test proves safe: the consumer's release, a
 * CAS of the count, against the reader's atomic step that drops its reuse bit from the same word.
 * If the consumer returned the frame first, frame 2 is parsed into the same object (the reader's own reuse);
 * if the reader let it go first, the consumer's release recycles it through the Recycler's cross-thread
 * queue, from which the reader, running as on an event loop, may take it for frame 2. Either way the
 * consumer must only ever see frame 1's values, and once both are done the input must be freed: a release on the
 * consumer's thread that lost the reader's step (a plain store there instead of the CAS) would leave the frame
 * with nobody to give back the input.
 */
@JCStressTest
@Description("Reader hands a DATA frame to a consumer thread and parses the next one; the consumer never sees "
        + "a value of the next frame")
@Outcome(id = "frame-1, REUSED, input-freed", expect = ACCEPTABLE,
        desc = "The consumer saw frame 1; frame 2 was parsed into the same instance after its release.")
@Outcome(id = "frame-1, new, input-freed", expect = ACCEPTABLE,
        desc = "The consumer saw frame 1; the reader had left it to the consumer and parsed frame 2 elsewhere.")
@Outcome(expect = FORBIDDEN,
        desc = "The consumer saw another frame's values, a reset frame, or an error; or the input was not freed.")
@State
public class CrossThreadHandOffTest {

    /** Frame 1 and frame 2 differ in every field the consumer reads. */
    private static final byte[] FRAMES = WireFrames.concat(
            WireFrames.data(1, new byte[] {0x11, 0x12}, 0, false),
            WireFrames.data(3, new byte[] {0x21}, 3, true));
    private static final String FRAME_1 = "stream=1 data=1112 padding=0 endStream=false";
    private static final String FRAME_2 = "stream=3 data=21 padding=3 endStream=true";

    private final PooledHttp2FrameReader reader = new PooledHttp2FrameReader().reuseFrames(true);
    private final ByteBuf input = Unpooled.wrappedBuffer(FRAMES);
    private volatile PooledHttp2Frame handoff;

    @Actor
    public void reader(LLL_Result r) {
        EventLoopScope.run(() -> {
            try {
                // One call parses both frames, as a channel read of two frames does.
                reader.readFrame(WireFrames.CTX, input, (ctx, frame) -> {
                    PooledHttp2Frame first = handoff;
                    if (first == null) {
                        handoff = frame;   // frame 1: the consumer owns it now and will release it
                    } else {
                        r.r2 = frame == first ? "REUSED" : "new";
                        frame.release();
                    }
                });
                reader.close();
            } catch (Throwable t) {
                r.r2 = Observed.error(t);
            } finally {
                input.release();  // the caller's reference, as ByteToMessageDecoder's
            }
        });
    }

    @Actor
    public void consumer(LLL_Result r) {
        PooledHttp2Frame frame;
        while ((frame = handoff) == null) {
            Thread.onSpinWait();
        }
        String seen;
        try {
            seen = Observed.data(frame);
            frame.release();
        } catch (Throwable t) {
            seen = Observed.error(t);
        }
        r.r1 = seen.equals(FRAME_1) ? "frame-1" : seen.equals(FRAME_2) ? "frame-2" : seen;
    }

    @Arbiter
    public void arbiter(LLL_Result r) {
        r.r3 = input.refCnt() == 0 ? "input-freed" : "input-refCnt=" + input.refCnt();
    }
}
