/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import io.pooledh2.example.server.ExampleServer;
import io.pooledh2.example.server.ServerOptions;
import picocli.CommandLine;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;

/**
 * One example server of the demo, in a JVM of its own ({@link ServerProcess} starts it), so that what it measures is
 * this server's alone: no client, no other server, no Maven in the same heap, and a JIT profile of one codec only.
 * Takes the server's own options ({@code --pipeline}, {@code --stock}, ...). Talks one line at a time: once it
 * listens it prints {@code listening <port>}; for each line {@code stats} read from standard input it prints
 * {@code stats <bytes> <collections> <collection ms>}: the bytes its event-loop threads have allocated so far and
 * this JVM's garbage collections and their time so far. At the end of standard input (the demo closed it, or died)
 * it stops the server and exits.
 */
public final class DemoServer {

    static final String LISTENING = "listening ";
    static final String STATS = "stats";

    private DemoServer() {
    }

    public static void main(String[] args) throws Exception {
        ServerOptions options = new ServerOptions();
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.US_ASCII);
        try {
            if (!options.parse(out, args)) {
                return;
            }
        } catch (CommandLine.ParameterException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        ExampleServer server = new ExampleServer(options).start();
        // SIGTERM (the demo's last resort) stops it gracefully too.
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "pooledh2-demo-server-shutdown"));
        ThreadAllocation eventLoops = new ThreadAllocation(server.eventLoopThreads());
        out.println(LISTENING + server.port());
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (STATS.equals(line)) {
                out.println(STATS + ' ' + eventLoops.allocatedBytes() + ' ' + gcCount() + ' ' + gcMillis());
            } else {
                out.println("error: unknown command '" + line + "'");
            }
        }
        server.stop();
        // Nothing of this JVM is wanted once the server has stopped: exit even if a library thread lingers.
        System.exit(0);
    }

    private static long gcCount() {
        long count = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, gc.getCollectionCount());
        }
        return count;
    }

    private static long gcMillis() {
        long millis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            millis += Math.max(0, gc.getCollectionTime());
        }
        return millis;
    }
}
