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
import static org.junit.jupiter.api.Assertions.assertNotSame;
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
    void aFrameLetGoIsNotTheSlotsUntilItComesBack() throws Exception {
        EventLoopThread.run(() -> {
            FrameSlot<PooledDataFrame> slot = new FrameSlot<>(PooledDataFrame.POOL);
            PooledDataFrame first = slot.take();
            slot.putBack(first);
            assertSame(first, slot.take(), "the first frame, back and taken again");
            // A consumer keeps it: the slot forgets it, and the next parse gets another.
            slot.letGo(first);
            PooledDataFrame next = slot.take();
            assertNotSame(first, next);
            slot.putBack(next);
            assertSame(next, slot.take(), "the next frame took the first frame's place");
            slot.putBack(next);
            // The kept one comes back: beside the first, taken once the first is out.
            assertTrue(slot.takeHome(first));
            assertSame(next, slot.take());
            assertSame(first, slot.take());
            slot.putBack(first);
            slot.putBack(next);
        });
    }

    @Test
    void aFrameComingBackToAFullSlotGoesToThePool() throws Exception {
        EventLoopThread.run(() -> {
            FrameSlot<PooledDataFrame> slot = new FrameSlot<>(PooledDataFrame.POOL);
            // The first frame and every spare out at once, then one more.
            List<PooledDataFrame> out = new ArrayList<>();
            for (int i = 0; i <= FrameSlot.MAX_SPARE_FRAMES + 1; i++) {
                out.add(slot.take());
            }
            assertEquals(FrameSlot.MAX_SPARE_FRAMES + 2, identitySet(out).size());
            for (int i = 0; i <= FrameSlot.MAX_SPARE_FRAMES; i++) {
                assertTrue(slot.takeHome(out.get(i)));
            }
            PooledDataFrame last = out.get(FrameSlot.MAX_SPARE_FRAMES + 1);
            assertFalse(slot.takeHome(last), "no room: the caller recycles it");
            last.recycleUnused();
            List<PooledDataFrame> again = new ArrayList<>();
            for (int i = 0; i <= FrameSlot.MAX_SPARE_FRAMES; i++) {
                again.add(slot.take());
            }
            assertEquals(identitySet(out.subList(0, FrameSlot.MAX_SPARE_FRAMES + 1)), identitySet(again));
            again.forEach(slot::putBack);
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
