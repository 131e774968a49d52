/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import io.netty.util.ResourceLeakTracker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.lang.reflect.Field;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Proves that {@link LeakDetectionExtension} turns a leak into a failure, without failing the suite.
 *
 * <p>The leaks here go to a detector of the test's own that does not log: Netty logs every real leak as
 * "LEAK:", and CI fails on that line anywhere in the build output. The two halves of the mechanism are checked
 * separately: that a leak reaching the extension's listener fails the verdict (a deliberate leak, whose report
 * the verdict consumes, so the after-each check finds nothing), and that Netty's real detectors report to that
 * listener.
 */
class LeakDetectionExtensionTest {

    private QuietDetector detector;

    @BeforeEach
    void watchOwnDetector() {
        // A leak left by an earlier test must not be mistaken for this test's.
        LeakDetectionExtension.verifyNoLeaks("the tests before " + getClass().getSimpleName());
        detector = new QuietDetector();
        LeakDetectionExtension.listenTo(detector);
    }

    @AfterEach
    void forgetOwnDetector() {
        LeakDetectionExtension.forget(detector);
    }

    @Test
    void leakedBufferFailsTheVerdict() {
        String hint = leakBuffer(detector);
        AssertionError verdict = assertThrows(AssertionError.class,
                () -> LeakDetectionExtension.verifyNoLeaks("leakedBufferFailsTheVerdict"));
        assertTrue(verdict.getMessage().contains(hint), verdict.getMessage());
        assertTrue(detector.reports > 0, "the detector itself saw no leak");
    }

    @Test
    void verdictConsumesTheReports() {
        String hint = leakBuffer(detector);
        List<String> first = LeakDetectionExtension.collectLeaks();
        assertTrue(first.stream().anyMatch(report -> report.contains(hint)), first::toString);
        List<String> second = LeakDetectionExtension.collectLeaks();
        assertTrue(second.stream().noneMatch(report -> report.contains(hint)), second::toString);
    }

    @Test
    void releasedBufferIsNotReported() {
        String hint = "released-" + UUID.randomUUID();
        ByteBuf buf = Unpooled.wrappedBuffer(new byte[16]);
        ResourceLeakTracker<ByteBuf> tracker = detector.trackForcibly(buf);
        tracker.record(hint);
        tracker.close(buf);
        buf.release();
        List<String> leaks = LeakDetectionExtension.collectLeaks();
        assertTrue(leaks.stream().noneMatch(report -> report.contains(hint)), leaks::toString);
        assertSame(0, detector.reports, "the detector reported a closed tracker");
    }

    @Test
    void nettysByteBufDetectorReportsToTheExtension() throws ReflectiveOperationException {
        ResourceLeakDetector<?> byteBufs = LeakDetectionExtension.byteBufLeakDetector();
        assertNotNull(byteBufs);
        assertSame(LeakDetectionExtension.listener(), leakListenerOf(byteBufs));
        assertTrue(LeakDetectionExtension.isTriggered(byteBufs));
    }

    @Test
    @SuppressWarnings("deprecation")
    void detectorsCreatedLaterReportToTheExtension() throws ReflectiveOperationException {
        ResourceLeakDetector<Object> later =
                ResourceLeakDetectorFactory.instance().newResourceLeakDetector(Object.class, 1, Long.MAX_VALUE);
        try {
            assertSame(LeakDetectionExtension.listener(), leakListenerOf(later));
            assertTrue(LeakDetectionExtension.isTriggered(later));
        } finally {
            LeakDetectionExtension.forget(later);
        }
    }

    /**
     * The extension is not registered by this class: it must come from autodetection, for every test class.
     * The first test notes the count of checked tests, the second sees the first one counted.
     */
    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    class RegisteredForEveryTest {
        private int checkedBefore = -1;

        @Test
        @Order(1)
        void first() {
            checkedBefore = LeakDetectionExtension.checkedTests();
        }

        @Test
        @Order(2)
        void extensionCheckedTheFirstTest() {
            assertTrue(checkedBefore >= 0, "first() did not run first");
            assertTrue(LeakDetectionExtension.checkedTests() > checkedBefore,
                    "LeakDetectionExtension did not run after a test: is it autodetected?");
        }
    }

    /**
     * Tracks a buffer with {@code detector} only (Unpooled.wrappedBuffer is not tracked by Netty's own
     * detector), marks it with a unique hint and drops it unreleased. In its own method so that no local
     * variable of the test keeps the buffer reachable.
     */
    private static String leakBuffer(ResourceLeakDetector<ByteBuf> detector) {
        String hint = "deliberate-leak-" + UUID.randomUUID();
        ByteBuf buf = Unpooled.wrappedBuffer(new byte[16]);
        detector.trackForcibly(buf).record(hint);
        return hint;
    }

    private static Object leakListenerOf(ResourceLeakDetector<?> detector) throws ReflectiveOperationException {
        Field field = ResourceLeakDetector.class.getDeclaredField("leakListener");
        field.setAccessible(true);
        return field.get(detector);
    }

    /** A detector that reports to its listener but does not log. */
    private static final class QuietDetector extends ResourceLeakDetector<ByteBuf> {
        int reports;

        QuietDetector() {
            super(ByteBuf.class, 1);
        }

        @Override
        protected boolean needReport() {
            return true;
        }

        @Override
        protected void reportTracedLeak(String resourceType, String records) {
            reports++;
        }

        @Override
        protected void reportUntracedLeak(String resourceType) {
            reports++;
        }
    }
}
