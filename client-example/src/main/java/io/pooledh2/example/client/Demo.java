/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import io.pooledh2.example.server.ExampleServer;
import io.pooledh2.example.server.ServerOptions;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The demo: two example servers in this JVM on free ports, one on Netty's {@code Http2FrameCodec}, one on the
 * pooled codec; the same workload against each (the client always on the pooled codec), in alternating rounds
 * after a shared warm-up so that neither gains from the JIT work done for the other; then requests per second and
 * the bytes the server's event-loop threads allocated per request, side by side.
 */
final class Demo {

    /** How long the warm-up and the measured rounds take, per server. */
    enum Timing {
        FULL(3, Duration.ofSeconds(2), 3, Duration.ofSeconds(2)),
        QUICK(1, Duration.ofMillis(300), 1, Duration.ofMillis(500));

        final int warmUpRounds;
        final Duration warmUpRound;
        final int rounds;
        final Duration round;

        Timing(int warmUpRounds, Duration warmUpRound, int rounds, Duration round) {
            this.warmUpRounds = warmUpRounds;
            this.warmUpRound = warmUpRound;
            this.rounds = rounds;
            this.round = round;
        }
    }

    /** One server, its client and what was measured on it. */
    static final class Side implements AutoCloseable {
        final String codec;
        final ExampleServer server;
        final LoadClient client;
        final ThreadAllocation serverThreads;
        long ok;
        long errors;
        long nanos;
        long allocatedBytes;
        long lastRoundBytesPerRequest;
        final List<String> errorSamples = new ArrayList<>();

        Side(String codec, ExampleServer server, LoadClient client) {
            this.codec = codec;
            this.server = server;
            this.client = client;
            this.serverThreads = new ThreadAllocation(server.eventLoopThreads());
        }

        /** One measured round: requests, time and the server threads' allocation add up over the rounds. */
        LoadResult measure(Duration duration) {
            long before = serverThreads.allocatedBytes();
            LoadResult result = client.run(Long.MAX_VALUE, duration, null);
            long allocated = serverThreads.allocatedBytes() - before;
            allocatedBytes += allocated;
            lastRoundBytesPerRequest = result.ok() == 0 ? 0 : allocated / result.ok();
            ok += result.ok();
            errors += result.errors();
            nanos += result.elapsedNanos;
            errorSamples.addAll(result.errorSamples());
            return result;
        }

        double requestsPerSecond() {
            return nanos == 0 ? 0 : ok * 1e9 / nanos;
        }

        long bytesPerRequest() {
            return ok == 0 ? 0 : allocatedBytes / ok;
        }

        @Override
        public void close() {
            try {
                client.close();
            } finally {
                server.stop();
            }
        }
    }

    private Demo() {
    }

    static ClientOptions workload() {
        return new ClientOptions().connections(2).streams(8).route(Route.ECHO).bodySize(1024, 1024).trailers(true);
    }

    /** Runs the demo and prints it to {@code out}; returns whether every response of every run was right. */
    static boolean run(PrintStream out, Timing timing) throws Exception {
        ClientOptions workload = workload();
        out.println("pooledh2 demo: the example server on Netty's Http2FrameCodec and on the pooled codec, "
                + "same workload");
        out.println("  workload: POST /echo, 1 KiB body + trailers, " + workload.connections + " connections x "
                + workload.streams + " streams, every response checked; client on the pooled codec for both");
        out.println("  " + timing.warmUpRounds + " warm-up round(s) of " + seconds(timing.warmUpRound) + ", then "
                + timing.rounds + " measured round(s) of " + seconds(timing.round) + " per server, alternating");
        out.println("  server B/request: bytes allocated by the server's event-loop threads "
                + "(ThreadMXBean.getThreadAllocatedBytes) / requests");
        try (Side stock = start("Netty Http2FrameCodec", true);
             Side pooled = start("pooled codec", false)) {
            for (int round = 0; round < timing.warmUpRounds; round++) {
                stock.client.run(Long.MAX_VALUE, timing.warmUpRound, null);
                pooled.client.run(Long.MAX_VALUE, timing.warmUpRound, null);
            }
            for (int round = 1; round <= timing.rounds; round++) {
                for (Side side : List.of(stock, pooled)) {
                    LoadResult result = side.measure(timing.round);
                    out.println(String.format(Locale.ROOT, "round %d  %-22s %,8.0f req/s %,8d B/request %,4d errors",
                            round, side.codec, result.requestsPerSecond(), side.lastRoundBytesPerRequest,
                            result.errors()));
                }
            }
            out.println();
            out.println(String.format(Locale.ROOT, "%-30s %10s %18s %8s", "server codec (all rounds)", "req/s",
                    "server B/request", "errors"));
            for (Side side : List.of(stock, pooled)) {
                out.println(String.format(Locale.ROOT, "%-30s %,10.0f %,18d %,8d", side.codec,
                        side.requestsPerSecond(), side.bytesPerRequest(), side.errors));
            }
            out.println(String.format(Locale.ROOT,
                    "pooled vs Netty: %+.1f%% bytes allocated per request, %+.1f%% req/s",
                    percentChange(stock.bytesPerRequest(), pooled.bytesPerRequest()),
                    percentChange(stock.requestsPerSecond(), pooled.requestsPerSecond())));
            for (Side side : List.of(stock, pooled)) {
                side.errorSamples.forEach(error -> out.println("error (" + side.codec + "): " + error));
            }
            return stock.errors == 0 && pooled.errors == 0;
        }
    }

    private static Side start(String codec, boolean stock) throws Exception {
        ExampleServer server = new ExampleServer(new ServerOptions().port(0).stockCodec(stock)).start();
        try {
            ClientOptions options = workload();
            options.port(server.port());
            return new Side(codec, server, LoadClient.connect(options));
        } catch (Exception | Error e) {
            server.stop();
            throw e;
        }
    }

    private static double percentChange(double from, double to) {
        return from == 0 ? 0 : (to - from) * 100 / from;
    }

    private static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
    }
}
