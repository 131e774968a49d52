/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import io.pooledh2.example.server.Pipeline;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.GarbageCollectorMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.ToDoubleFunction;

/**
 * The demo: four example servers, Netty's codec and the pooled one, each on the {@link Pipeline#MULTIPLEX} and the
 * {@link Pipeline#FRAMES} pipeline, each in a JVM of its own ({@link ServerProcess}: same heap and collector for all)
 * on a free port; the same workloads against each from this JVM (the client always on the pooled codec): the echo,
 * then the echo with 100 request headers that overflow HPACK's table, each on new connections. A server
 * alone in its JVM is measured alone: its garbage collections are its own, not the client's or another server's,
 * and the JIT compiles its codec without the other codec's classes at the same call sites. First a fixed warm-up on
 * every server, not measured, so that each JVM has compiled its server's code before anything counts; then
 * measured rounds, each made of short slices that visit the four servers in turn, in the reverse order every
 * other time, so that drift (the machine, this JVM) spreads evenly over them.
 *
 * <p>Per server, over all measured rounds: requests per second; the bytes the server's event-loop threads
 * allocated per request; garbage collections and collection time per million requests, from the server JVM's
 * {@link GarbageCollectorMXBean}s; the latency percentiles of every request (HdrHistogram). A workload's last line
 * states the pooled codec's difference on a metric only where every round agrees on its direction, "within noise"
 * otherwise.
 */
final class Demo {

    /** How long the warm-up and the measured rounds take. */
    enum Timing {
        /**
         * About 2 minutes of load: 3 x 5 s of warm-up per server, then 3 rounds of 3 x 2 s per server. A server
         * reaches its steady rate after about 10 s of load (the JIT). A round's slices are interleaved with the
         * other servers' and spread over 24 s, so that a few seconds of a shared machine's noise weigh less in it.
         */
        FULL(3, Duration.ofSeconds(5), 3, 3, Duration.ofSeconds(2)),
        /** For the test: a few seconds in all. */
        QUICK(1, Duration.ofMillis(200), 2, 2, Duration.ofMillis(150));

        final int warmUpPasses;
        final Duration warmUpPass;
        final int rounds;
        /** How many slices a server's round is made of. */
        final int slices;
        final Duration slice;

        Timing(int warmUpPasses, Duration warmUpPass, int rounds, int slices, Duration slice) {
            this.warmUpPasses = warmUpPasses;
            this.warmUpPass = warmUpPass;
            this.rounds = rounds;
            this.slices = slices;
            this.slice = slice;
        }
    }

    /** The spread of a server's req/s over the rounds, in percent, under which the demo calls them in agreement. */
    static final int AGREEMENT_PERCENT = 10;

    /** What one measured round on one server gave. */
    static final class Round {
        final double requestsPerSecond;
        final double bytesPerRequest;
        final double gcMillisPerMillion;
        final long p99Nanos;

        Round(double requestsPerSecond, double bytesPerRequest, double gcMillisPerMillion, long p99Nanos) {
            this.requestsPerSecond = requestsPerSecond;
            this.bytesPerRequest = bytesPerRequest;
            this.gcMillisPerMillion = gcMillisPerMillion;
            this.p99Nanos = p99Nanos;
        }
    }

    /** One server, its client and what was measured on it. */
    static final class Side implements AutoCloseable {
        final Pipeline pipeline;
        final boolean stock;
        final ServerProcess server;
        LoadClient client;
        final Histogram latencies = LoadResult.newLatencyHistogram();
        final List<Round> rounds = new ArrayList<>();
        final List<String> errorSamples = new ArrayList<>();
        long ok;
        long errors;
        long nanos;
        long allocatedBytes;
        long gcCount;
        long gcMillis;

        Side(Pipeline pipeline, boolean stock, ServerProcess server) {
            this.pipeline = pipeline;
            this.stock = stock;
            this.server = server;
        }

        String pipelineName() {
            return pipeline.name().toLowerCase(Locale.ROOT);
        }

        String codecName() {
            return stock ? "Netty" : "pooled";
        }

        /** The round under way: its slices add up here until {@link #endRound()}. */
        private final Histogram roundLatencies = LoadResult.newLatencyHistogram();
        private long roundOk;
        private long roundNanos;
        private long roundAllocatedBytes;
        private long roundGcMillis;

        /** One slice of a measured round: everything adds up over the round and over all rounds. */
        void measureSlice(Duration duration) throws IOException, InterruptedException {
            ServerProcess.Stats before = server.stats();
            LoadResult result = client.run(Long.MAX_VALUE, duration, null);
            ServerProcess.Stats slice = server.stats().minus(before);
            allocatedBytes += slice.allocatedBytes();
            gcCount += slice.gcCount();
            gcMillis += slice.gcMillis();
            ok += result.ok();
            errors += result.errors();
            nanos += result.elapsedNanos;
            latencies.add(result.latencies);
            errorSamples.addAll(result.errorSamples());
            roundOk += result.ok();
            roundNanos += result.elapsedNanos;
            roundAllocatedBytes += slice.allocatedBytes();
            roundGcMillis += slice.gcMillis();
            roundLatencies.add(result.latencies);
        }

        /** Closes the round under way: what its slices gave, together. */
        Round endRound() {
            Round round = new Round(roundNanos == 0 ? 0 : roundOk * 1e9 / roundNanos,
                    perRequest(roundAllocatedBytes, roundOk), perMillion(roundGcMillis, roundOk),
                    roundLatencies.getTotalCount() == 0 ? 0 : roundLatencies.getValueAtPercentile(99));
            rounds.add(round);
            roundLatencies.reset();
            roundOk = 0;
            roundNanos = 0;
            roundAllocatedBytes = 0;
            roundGcMillis = 0;
            return round;
        }

        /** How far the measured rounds' req/s spread: (highest - lowest) / median, in percent. */
        double requestRateSpread() {
            double[] rates = new double[rounds.size()];
            for (int r = 0; r < rates.length; r++) {
                rates[r] = rounds.get(r).requestsPerSecond;
            }
            return spreadPercent(rates);
        }

        double requestsPerSecond() {
            return nanos == 0 ? 0 : ok * 1e9 / nanos;
        }

        double bytesPerRequest() {
            return perRequest(allocatedBytes, ok);
        }

        double gcCountPerMillion() {
            return perMillion(gcCount, ok);
        }

        double gcMillisPerMillion() {
            return perMillion(gcMillis, ok);
        }

        long latencyNanos(double percentile) {
            return latencies.getTotalCount() == 0 ? 0 : latencies.getValueAtPercentile(percentile);
        }

        @Override
        public void close() {
            try {
                if (client != null) {
                    client.close();
                }
            } finally {
                server.close();
            }
        }
    }

    private Demo() {
    }

    static ClientOptions workload() {
        return new ClientOptions().connections(2).streams(8).route(Route.ECHO).bodySize(1024, 1024).trailers(true)
                .progress(false);
    }

    /** The demo's workloads, one after the other on the same servers: the echo, then the echo with 100 headers. */
    static List<ClientOptions> workloads() {
        return List.of(workload(), workload().extraHeaders(Exchange.MAX_EXTRA_HEADERS));
    }

    /**
     * Runs the demo and prints it to {@code out} (the servers' standard error goes to this JVM's); returns whether
     * every response of every run was right and no server reported a leak.
     */
    static boolean run(PrintStream out, Timing timing) throws Exception {
        List<ClientOptions> workloads = workloads();
        out.println("pooledh2 demo: the example server on Netty's codec and on the pooled codec, pipelines "
                + "multiplex and frames, the same workloads on each");
        ClientOptions first = workloads.get(0);
        out.println("  workloads, one after the other: POST /echo, 1 KiB body + trailers, " + first.connections
                + " connections x " + first.streams + " streams, every response checked; then the same with "
                + Exchange.MAX_EXTRA_HEADERS + " more request headers, the same on every request (about 7 KB, "
                + "more than HPACK's 4 KiB table holds); the client on the pooled codec for all");
        out.println("  scheduling: the pooled server's streams RFC 9113 style, without a priority tree "
                + "(streamPriorities(false)); Netty's server its default, the RFC 7540 priority tree. No stream waits "
                + "for window here, so both send the same frames");
        out.println("  per workload, warm-up: " + timing.warmUpPasses + " pass(es) of " + seconds(timing.warmUpPass)
                + " on every server, not measured; then " + timing.rounds + " measured round(s), each "
                + timing.slices + " slice(s) of " + seconds(timing.slice) + " per server, the servers in turn "
                + "(reversed every other time)");
        out.println("  servers: each in a JVM of its own, " + String.join(" ", ServerProcess.jvmOptions())
                + "; the client in this JVM; new connections for each workload");
        out.println("  server B/req: bytes allocated by the server's event-loop threads "
                + "(ThreadMXBean.getThreadAllocatedBytes, in the server's JVM) / requests");
        out.println("  GC/M req, GC ms/M req: collections and collection time per million requests, from the server "
                + "JVM's own GarbageCollectorMXBeans");
        out.println("  spread: (highest - lowest) / median of the server's req/s over the measured rounds");
        out.println("  latency: each request, as the client sees it, all measured rounds (HdrHistogram)");
        // Read by the shutdown hook's thread too.
        List<ServerProcess> servers = new CopyOnWriteArrayList<>();
        // Ctrl-C ends this JVM without the finally below: the servers are told to stop then.
        Thread stopServers = new Thread(() -> servers.forEach(ServerProcess::destroy), "pooledh2-demo-stop");
        Runtime.getRuntime().addShutdownHook(stopServers);
        List<Side> sides = new ArrayList<>();
        try {
            // All four JVMs start side by side.
            for (Pipeline pipeline : List.of(Pipeline.MULTIPLEX, Pipeline.FRAMES)) {
                for (boolean stock : new boolean[] {true, false}) {
                    ServerProcess server = ServerProcess.start(pipeline, stock, System.err);
                    servers.add(server);
                    sides.add(new Side(pipeline, stock, server));
                }
            }
            for (ServerProcess server : servers) {
                server.awaitListening();
            }
            boolean clean = true;
            for (int w = 0; w < workloads.size(); w++) {
                ClientOptions workload = workloads.get(w);
                out.println();
                String what = workload.describe();
                out.println("workload " + (w + 1) + ": " + what.substring(0, what.indexOf(" to ")) + ", "
                        + workload.connections + " connections x " + workload.streams + " streams");
                clean &= runWorkload(out, timing, workload, sides);
                sides.replaceAll(side -> new Side(side.pipeline, side.stock, side.server));
            }
            for (Side side : sides) {
                if (side.server.leakReports() > 0) {
                    out.println("leak (" + side.pipelineName() + ", " + side.codecName() + "): "
                            + side.server.leakReports() + " LEAK report(s) on the server's standard error");
                }
                clean &= side.server.leakReports() == 0;
            }
            return clean;
        } finally {
            for (Side side : sides) {
                side.close();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(stopServers);
            } catch (IllegalStateException e) {
                // Shutting down already: the hook runs, harmlessly.
            }
        }
    }

    /**
     * One workload on every server, with new connections: warm-up, measured rounds, the table, the agreement and
     * verdict lines. Closes the clients; returns whether every response was right.
     */
    private static boolean runWorkload(PrintStream out, Timing timing, ClientOptions workload, List<Side> sides)
            throws Exception {
        try {
            for (Side side : sides) {
                side.client = LoadClient.connect(copy(workload).port(side.server.port()));
            }
            for (int pass = 0; pass < timing.warmUpPasses; pass++) {
                for (Side side : sides) {
                    side.client.run(Long.MAX_VALUE, timing.warmUpPass, null);
                }
            }
            int sliceNumber = 0;
            for (int round = 1; round <= timing.rounds; round++) {
                for (int slice = 0; slice < timing.slices; slice++) {
                    // The servers in turn, in reverse order every other time, so that none is always first.
                    List<Side> order = new ArrayList<>(sides);
                    if (sliceNumber++ % 2 == 1) {
                        Collections.reverse(order);
                    }
                    for (Side side : order) {
                        side.measureSlice(timing.slice);
                    }
                }
                for (Side side : sides) {
                    Round result = side.endRound();
                    out.println(String.format(Locale.ROOT, "round %d  %-9s %-6s %,9.0f req/s %,8.0f B/req "
                                    + "%,8.1f GC ms/M req  p99 %6.2f ms", round, side.pipelineName(), side.codecName(),
                            result.requestsPerSecond, result.bytesPerRequest, result.gcMillisPerMillion,
                            result.p99Nanos / 1e6));
                }
            }
            out.println();
            out.println(String.format(Locale.ROOT, "%-9s %-6s %9s %7s %10s %9s %11s %8s %8s %8s %7s", "pipeline",
                    "codec", "req/s", "spread", "server B/req", "GC/M req", "GC ms/M req", "p50 ms", "p99 ms",
                    "p99.9 ms", "errors"));
            for (Side side : sides) {
                out.println(String.format(Locale.ROOT,
                        "%-9s %-6s %,9.0f %6.1f%% %,12.0f %,9.1f %,11.1f %8.3f %8.3f %8.3f %7d",
                        side.pipelineName(), side.codecName(), side.requestsPerSecond(), side.requestRateSpread(),
                        side.bytesPerRequest(),
                        side.gcCountPerMillion(), side.gcMillisPerMillion(), side.latencyNanos(50) / 1e6,
                        side.latencyNanos(99) / 1e6, side.latencyNanos(99.9) / 1e6, side.errors));
            }
            boolean clean = true;
            for (Side side : sides) {
                for (String error : side.errorSamples) {
                    out.println("error (" + side.pipelineName() + ", " + side.codecName() + "): " + error);
                }
                clean &= side.errors == 0;
            }
            out.println(roundAgreement(sides));
            out.println(verdict(sides));
            return clean;
        } finally {
            for (Side side : sides) {
                if (side.client != null) {
                    side.client.close();
                    side.client = null;
                }
            }
        }
    }

    /** A workload's options for one more client: the options hold the port each client connects to. */
    private static ClientOptions copy(ClientOptions workload) {
        return new ClientOptions().connections(workload.connections).streams(workload.streams).route(workload.route)
                .bodySize(workload.minBodySize, workload.maxBodySize).trailers(workload.trailers)
                .extraHeaders(workload.extraHeaders).progress(workload.progress);
    }

    /**
     * The last line: per pipeline, the pooled codec against Netty's on each metric, as the change of the totals,
     * where every measured round (three or more) moved the same way and the change, 1 % or more, is larger than
     * the spread of either server's rounds on that metric; "within noise" otherwise.
     */
    static String verdict(List<Side> sides) {
        StringBuilder line = new StringBuilder("pooled vs Netty (stated where all rounds agree beyond their spread):");
        for (int i = 0; i + 1 < sides.size(); i += 2) {
            Side stock = sides.get(i);
            Side pooled = sides.get(i + 1);
            line.append(i == 0 ? " " : "; ").append(pooled.pipelineName()).append(": ");
            line.append(compare("req/s", stock, pooled, r -> r.requestsPerSecond, stock.requestsPerSecond(),
                    pooled.requestsPerSecond()));
            line.append(", ").append(compare("server B/req", stock, pooled, r -> r.bytesPerRequest,
                    stock.bytesPerRequest(), pooled.bytesPerRequest()));
            line.append(", ").append(compare("GC ms/M req", stock, pooled, r -> r.gcMillisPerMillion,
                    stock.gcMillisPerMillion(), pooled.gcMillisPerMillion()));
            line.append(", ").append(compare("p99", stock, pooled, r -> r.p99Nanos, stock.latencyNanos(99),
                    pooled.latencyNanos(99)));
        }
        return line.toString();
    }

    private static String compare(String metric, Side stock, Side pooled, ToDoubleFunction<Round> value,
                                  double stockTotal, double pooledTotal) {
        int rounds = Math.min(stock.rounds.size(), pooled.rounds.size());
        int up = 0;
        int down = 0;
        double[] stockValues = new double[rounds];
        double[] pooledValues = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            stockValues[r] = value.applyAsDouble(stock.rounds.get(r));
            pooledValues[r] = value.applyAsDouble(pooled.rounds.get(r));
            if (pooledValues[r] > stockValues[r]) {
                up++;
            } else if (pooledValues[r] < stockValues[r]) {
                down++;
            }
        }
        double change = stockTotal == 0 ? 0 : (pooledTotal - stockTotal) * 100 / stockTotal;
        // Three rounds at least: with two, chance alone makes them agree one time in two (with three, one in
        // four): so the change must also be larger than either server's own spread over the rounds, as
        // src/bench/h2load.sh asks of its medians.
        double spread = Math.max(spreadPercent(stockValues), spreadPercent(pooledValues));
        boolean agree = rounds >= 3 && (up == rounds || down == rounds) && Math.abs(change) >= 1
                && Math.abs(change) > spread;
        return agree ? String.format(Locale.ROOT, "%s %+.1f%%", metric, change) : metric + " within noise";
    }

    /** (highest - lowest) / median of the values, in percent; 0 for fewer than two values. */
    static double spreadPercent(double... values) {
        if (values.length < 2) {
            return 0;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        double median = sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
        return median == 0 ? 0 : (sorted[sorted.length - 1] - sorted[0]) * 100 / median;
    }

    /** Whether each server's rounds agree on req/s within {@link #AGREEMENT_PERCENT}, and which do not. */
    static String roundAgreement(List<Side> sides) {
        StringBuilder apart = new StringBuilder();
        for (Side side : sides) {
            if (side.requestRateSpread() > AGREEMENT_PERCENT) {
                apart.append(apart.length() == 0 ? "" : ", ").append(side.pipelineName()).append(' ')
                        .append(side.codecName());
            }
        }
        return apart.length() == 0
                ? String.format(Locale.ROOT, "req/s rounds: every server's within %d%% of each other",
                        AGREEMENT_PERCENT)
                : String.format(Locale.ROOT, "req/s rounds: more than %d%% apart on %s (noise: see the rounds above)",
                        AGREEMENT_PERCENT, apart);
    }

    private static double perRequest(double total, long requests) {
        return requests == 0 ? 0 : total / requests;
    }

    private static double perMillion(double total, long requests) {
        return requests == 0 ? 0 : total * 1e6 / requests;
    }

    private static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
    }
}
