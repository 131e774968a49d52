/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import io.pooledh2.example.server.Pipeline;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The demo's server in a child JVM: it answers on the port it reports, counts what its own event loops allocate
 * (and nothing of this JVM's), and stops by itself, with status 0, once its standard input is closed.
 */
class ServerProcessTest {

    @Test
    void reportsItsOwnAllocationAndStopsAtTheEndOfItsInput() throws Exception {
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(errors, true, StandardCharsets.UTF_8);
        ServerProcess server = ServerProcess.start(Pipeline.FRAMES, false, err);
        try {
            int port = server.awaitListening();
            assertTrue(port > 0, "port " + port);
            ServerProcess.Stats before = server.stats();
            ServerProcess.Stats idle = server.stats().minus(before);
            LoadResult result;
            try (LoadClient client = LoadClient.connect(Demo.workload().port(port).requests(2_000))) {
                result = client.run(null);
            }
            ServerProcess.Stats load = server.stats().minus(before);
            assertEquals(2_000, result.ok(), result.summary());
            // 2,000 echo exchanges cost the server far more than a 1 KiB body each (frames, headers, streams);
            // two stats queries with no request between cost its event loops nothing.
            assertTrue(load.allocatedBytes() > 2_000L * 1024, "allocated " + load.allocatedBytes());
            assertEquals(0, idle.allocatedBytes(), "allocated while idle");
            assertTrue(load.gcCount() >= 0 && load.gcMillis() >= 0, load.toString());
        } finally {
            server.close();
        }
        Process process = server.process();
        assertFalse(process.isAlive());
        // 0: it ended by itself (stdin closed), not by the SIGTERM that close() sends only as a fallback.
        assertEquals(0, process.waitFor(1, TimeUnit.SECONDS) ? process.exitValue() : -1, errors.toString());
        assertEquals(0, server.leakReports(), errors.toString());
    }
}
