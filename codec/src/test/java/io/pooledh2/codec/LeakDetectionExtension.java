/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import io.netty.util.ResourceLeakTracker;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Fails a test when Netty's {@link ResourceLeakDetector} reports a leak. Netty only logs leaks, which lets a
 * leaking test pass; this extension listens to the detectors instead and turns every report into a failure.
 *
 * <p>Registered for every test through {@code META-INF/services/org.junit.jupiter.api.extension.Extension} and
 * {@code junit.jupiter.extensions.autodetection.enabled=true} in {@code junit-platform.properties}.
 *
 * <p>How it hears about leaks: Netty 4.2 detectors accept a {@link ResourceLeakDetector.LeakListener}. The
 * extension installs a {@link ResourceLeakDetectorFactory} that adds the listener to every detector created
 * from then on, and adds it by reflection to the ByteBuf detector in {@code AbstractByteBuf}, which may have
 * been created before. A detector only reports when it tracks a new object after the leaked one was collected,
 * so after each test the extension runs the garbage collector until a canary object is collected, then makes
 * each detector track (and at once close) one object. Reports also need Netty's logger to have ERROR enabled,
 * which it has with the default java.util.logging setup.
 */
public final class LeakDetectionExtension implements AfterEachCallback, AfterAllCallback {

    private static final AtomicInteger CHECKS = new AtomicInteger();
    private static final List<String> REPORTS = new CopyOnWriteArrayList<>();
    private static final Set<ResourceLeakDetector<?>> DETECTORS = ConcurrentHashMap.newKeySet();
    private static final ResourceLeakDetector.LeakListener LISTENER =
            (resourceType, records) -> REPORTS.add("LEAK of " + resourceType + ":" + records);

    static {
        ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(
                new ListeningFactory(ResourceLeakDetectorFactory.instance()));
        listenTo(byteBufLeakDetector());
    }

    @Override
    public void afterEach(ExtensionContext context) {
        CHECKS.incrementAndGet();
        verifyNoLeaks(context.getDisplayName());
    }

    /** How many tests the extension has checked: lets a test prove the extension is registered. */
    static int checkedTests() {
        return CHECKS.get();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        verifyNoLeaks(context.getDisplayName() + " (class level)");
    }

    /**
     * Collects garbage, lets every detector report, and throws an {@link AssertionError} listing all leak reports
     * received so far. The reports are consumed: a leak fails one test, not every test after it.
     */
    static void verifyNoLeaks(String where) {
        List<String> leaks = collectLeaks();
        if (!leaks.isEmpty()) {
            throw new AssertionError(leaks.size() + " Netty leak report(s) after " + where + ":\n"
                    + String.join("\n", leaks));
        }
    }

    /** Collects garbage, lets every detector report, and returns (and consumes) the reports received. */
    static List<String> collectLeaks() {
        for (int round = 0; round < 2; round++) {
            collectGarbage();
            triggerReports();
        }
        List<String> leaks = new ArrayList<>(REPORTS);
        REPORTS.removeAll(leaks);
        return leaks;
    }

    /**
     * Runs the collector until a fresh canary has been collected and enqueued, so that the weak references of
     * leaked objects collected in the same cycle are most likely enqueued too. Bounded: never waits long.
     */
    private static void collectGarbage() {
        ReferenceQueue<Object> queue = new ReferenceQueue<>();
        WeakReference<Object> canary = new WeakReference<>(new Object(), queue);
        for (int attempt = 0; attempt < 10; attempt++) {
            System.gc();
            try {
                if (queue.remove(20) != null) {
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        canary.clear();
    }

    /** A detector looks for collected leaks when it starts tracking something: make each one do so. */
    @SuppressWarnings("unchecked")
    private static void triggerReports() {
        for (ResourceLeakDetector<?> detector : DETECTORS) {
            Object probe = new Object();
            ResourceLeakTracker<Object> tracker = ((ResourceLeakDetector<Object>) detector).trackForcibly(probe);
            if (tracker != null) {
                tracker.close(probe);
            }
        }
    }

    /** Makes {@code detector} report to this extension and be triggered after each test. */
    static void listenTo(ResourceLeakDetector<?> detector) {
        detector.setLeakListener(LISTENER);
        DETECTORS.add(detector);
    }

    /** Stops triggering {@code detector}; for detectors a test made for itself. */
    static void forget(ResourceLeakDetector<?> detector) {
        DETECTORS.remove(detector);
    }

    static ResourceLeakDetector.LeakListener listener() {
        return LISTENER;
    }

    static boolean isTriggered(ResourceLeakDetector<?> detector) {
        return DETECTORS.contains(detector);
    }

    static ResourceLeakDetector<?> byteBufLeakDetector() {
        try {
            Class<?> abstractByteBuf = Class.forName("io.netty.buffer.AbstractByteBuf");
            Field field = abstractByteBuf.getDeclaredField("leakDetector");
            field.setAccessible(true);
            return (ResourceLeakDetector<?>) field.get(null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // Without it, buffer leaks would go unnoticed: refuse to run rather than pass silently.
            throw new IllegalStateException("cannot reach io.netty.buffer.AbstractByteBuf.leakDetector", e);
        }
    }

    /** Creates detectors through the previous factory and adds the listener to each. */
    private static final class ListeningFactory extends ResourceLeakDetectorFactory {
        private final ResourceLeakDetectorFactory delegate;

        ListeningFactory(ResourceLeakDetectorFactory delegate) {
            this.delegate = delegate;
        }

        @Override
        @SuppressWarnings("deprecation")
        public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval,
                                                                   long maxActive) {
            ResourceLeakDetector<T> detector = delegate.newResourceLeakDetector(resource, samplingInterval, maxActive);
            listenTo(detector);
            return detector;
        }

        @Override
        public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval) {
            ResourceLeakDetector<T> detector = delegate.newResourceLeakDetector(resource, samplingInterval);
            listenTo(detector);
            return detector;
        }
    }
}
