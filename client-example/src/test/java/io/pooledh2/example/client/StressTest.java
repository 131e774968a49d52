/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import io.netty.util.ResourceLeakDetector;
import io.pooledh2.codec.PooledHttp2FrameReader;
import io.pooledh2.example.server.ExampleServer;
import io.pooledh2.example.server.ServerOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * End to end over loopback: the example server and the load client, both on the pooled codec, 16 concurrent
 * workers (4 connections x 4 streams) x 100 requests each. Every exchange is {@code POST /echo} with request
 * headers, a body of 1 to 48 KiB in 5000-byte DATA frames, and trailers; every response is checked: status, the
 * echoed request id (so a response cannot belong to another stream), every body byte, the trailers. Netty's
 * leak detection is paranoid (every buffer tracked) and any leak report fails the test (the codec's
 * {@code LeakDetectionExtension}, registered for every test of this module).
 *
 * <p>System properties size the run ({@code pooledh2.stress.connections}, {@code .streams},
 * {@code .requestsPerWorker}, {@code .timeoutSeconds}); each run prints its summary and the heap in use after a
 * full GC before the server starts and after it stops, which {@code src/soak/run.sh} reports.
 *
 * <p>Four codec configurations on both sides: paranoid mode (frames never reused, any use after release
 * throws), reuse on (the default; not paranoid, since paranoid mode turns reuse off), reuse off with
 * {@code reuseFrames(false)}, and reuse off with the {@code io.pooledh2.reuseFrames=false} system property,
 * the escape hatch. The client's view of frame identity proves which configuration ran.
 */
class StressTest {

    // CI's size; src/soak/run.sh sets these (64 workers x 1000 exchanges) for the long run.
    private static final int CONNECTIONS = Integer.getInteger("pooledh2.stress.connections", 4);
    private static final int STREAMS = Integer.getInteger("pooledh2.stress.streams", 4);
    private static final int REQUESTS_PER_WORKER = Integer.getInteger("pooledh2.stress.requestsPerWorker", 100);
    private static final int TIMEOUT_SECONDS = Integer.getInteger("pooledh2.stress.timeoutSeconds", 60);

    enum Mode {
        PARANOID, REUSE_ON, REUSE_OFF, REUSE_OFF_BY_SYSTEM_PROPERTY
    }

    @BeforeAll
    static void paranoidLeakDetection() {
        // Also what the build sets; here so the test means the same when run from an IDE.
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Mode.class)
    void everyExchangeArrivesIntact(Mode mode) throws Exception {
        ServerOptions serverOptions = new ServerOptions().port(0);
        ClientOptions clientOptions = new ClientOptions()
                .connections(CONNECTIONS).streams(STREAMS).requests((long) CONNECTIONS * STREAMS * REQUESTS_PER_WORKER)
                .route(Route.ECHO).bodySize(1, 48 * 1024).frameSize(5000).trailers(true).progress(false);
        switch (mode) {
            case PARANOID:
                serverOptions.paranoid(true);
                clientOptions.paranoid(true);
                break;
            case REUSE_ON:
                serverOptions.paranoid(false).reuseFrames(true);
                clientOptions.paranoid(false).reuseFrames(true);
                break;
            case REUSE_OFF:
                serverOptions.paranoid(false).reuseFrames(false);
                clientOptions.paranoid(false).reuseFrames(false);
                break;
            default:
                serverOptions.paranoid(false);
                clientOptions.paranoid(false);
                System.setProperty(PooledHttp2FrameReader.REUSE_FRAMES_PROPERTY, "false");
        }
        long heapAtStart = heapAfterFullGc();
        LoadResult result;
        try {
            ExampleServer server = new ExampleServer(serverOptions).start();
            try (LoadClient client = LoadClient.connect(clientOptions.port(server.port()))) {
                result = assertTimeoutPreemptively(Duration.ofSeconds(TIMEOUT_SECONDS), () -> client.run(null));
            } finally {
                server.stop();
            }
        } finally {
            System.clearProperty(PooledHttp2FrameReader.REUSE_FRAMES_PROPERTY);
        }

        long heapAtEnd = heapAfterFullGc();
        System.out.printf(Locale.ROOT,
                "stress %s: %d workers x %d exchanges%n%sheap      %.1f MiB in use after a full GC "
                        + "at start, %.1f MiB at end%n", mode, CONNECTIONS * STREAMS, REQUESTS_PER_WORKER,
                result.summary(), heapAtStart / 1048576.0, heapAtEnd / 1048576.0);
        assertEquals(0, result.errors(), result.summary());
        assertEquals((long) CONNECTIONS * STREAMS * REQUESTS_PER_WORKER, result.ok(), result.summary());
        // Each response: HEADERS, at least one DATA frame, trailers.
        assertTrue(result.framesReceived >= 3L * result.ok(), result.summary());
        if (mode == Mode.REUSE_ON) {
            assertTrue(result.framesReused > result.framesReceived / 2,
                    "reuse on: most frames should be the reader's reused object\n" + result.summary());
        } else {
            assertEquals(0, result.framesReused, "no frame may be reused in mode " + mode + "\n" + result.summary());
        }
    }

    /** Heap in use once a full collection has run: what the run left behind, not garbage waiting. */
    private static long heapAfterFullGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
