/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A thread's frames of one type: several out at once, back in any order, and what is not the slot's any more. */
class FrameSlotTest {

    private static Set<PooledFrame> identitySet(List<? extends PooledFrame> frames) {
        Set<PooledFrame> set = Collections.newSetFromMap(new IdentityHashMap<>());
        set.addAll(frames);
        return set;
    }

    @Test
    void framesOutAtOnceComeBackInAnyOrderAndAreTakenAgain() throws Exception {
        EventLoopThread.run(() -> {
            FrameSlot<PooledDataFrame> slot = new FrameSlot<>(PooledDataFrame.POOL);
            List<PooledDataFrame> first = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                first.add(slot.take());
            }
            assertEquals(5, identitySet(first).size(), "five frames out at once, each its own");
            for (int i : new int[] {3, 0, 4, 1, 2}) {
                assertTrue(slot.takeHome(first.get(i)));
            }
            List<PooledDataFrame> second = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                second.add(slot.take());
            }
            assertEquals(identitySet(first), identitySet(second), "the same five, none from the pool");
            second.forEach(slot::putBack);
        });
    }

    @Test
    void aFrameWhosePlaceWasGivenToAnotherIsNotTakenBack() throws Exception {
        EventLoopThread.run(() -> {
            FrameSlot<PooledDataFrame> slot = new FrameSlot<>(PooledDataFrame.POOL);
            // The first frame, then one for each position beside it.
            List<PooledDataFrame> out = new ArrayList<>();
            for (int i = 0; i <= FrameSlot.MAX_EXTRA_FRAMES; i++) {
                out.add(slot.take());
            }
            assertEquals(FrameSlot.MAX_EXTRA_FRAMES + 1, identitySet(out).size());
            // Every place is filled and every frame out: the next comes from the pool and takes the position given
            // out longest ago, the second frame's.
            PooledDataFrame extra = slot.take();
            assertFalse(identitySet(out).contains(extra));
            assertTrue(slot.takeHome(out.get(0)));
            assertFalse(slot.takeHome(out.get(1)), "its position is the extra frame's now");
            assertTrue(slot.takeHome(extra));
            assertTrue(slot.takeHome(out.get(2)));
            assertSame(out.get(0), slot.take(), "the first frame first");
            assertSame(extra, slot.take());
            assertSame(out.get(2), slot.take());
            // With the first frame out, a frame that has no place takes the first frame's.
            assertTrue(slot.takeHome(out.get(1)));
            assertSame(out.get(1), slot.take());
            assertTrue(slot.takeHome(out.get(1)));
            assertFalse(slot.takeHome(out.get(0)), "the first frame's place is taken");
            out.get(0).recycleUnused();
            slot.putBack(extra);
            for (int i = 2; i < out.size(); i++) {
                slot.putBack(out.get(i));
            }
        });
    }

    @Test
    void onlyTheSlotsThreadTakesAFrameHome() throws Exception {
        EventLoopThread.run(() -> {
            FrameSlot<PooledDataFrame> slot = new FrameSlot<>(PooledDataFrame.POOL);
            PooledDataFrame frame = slot.take();
            AtomicBoolean takenElsewhere = new AtomicBoolean(true);
            Thread other = new Thread(() -> takenElsewhere.set(slot.takeHome(frame)));
            other.start();
            other.join();
            assertFalse(takenElsewhere.get(), "a release on another thread leaves the frame to the pool");
            assertTrue(slot.takeHome(frame));
            assertSame(frame, slot.take());
            slot.putBack(frame);
        });
    }
}
