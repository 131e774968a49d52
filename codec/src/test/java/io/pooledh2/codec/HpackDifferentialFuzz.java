/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import java.security.SecureRandom;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The HPACK decoder's randomized differential test ({@link HpackDifferential}) as a long run, for
 * {@code src/fuzz/run.sh --hpack}: sequences of header blocks from fresh seeds until a time budget or a number of
 * blocks is reached, each decoded by {@link PooledHttp2HeadersDecoder} and by Netty's decoder. Prints blocks per
 * second as it goes, then the outcomes reached; on a divergence, the seed (replayed with {@code --seed}) and both
 * results, and exits 1; likewise on a Netty leak report (run with {@code -Dio.netty.leakDetection.level=paranoid},
 * as {@code run.sh} does), collected with {@link LeakDetectionExtension}'s machinery every progress line.
 *
 * <pre>
 * HpackDifferentialFuzz --minutes 10          fresh seeds for ten minutes
 * HpackDifferentialFuzz --blocks 1000000      fresh seeds until a million blocks
 * HpackDifferentialFuzz --seed S              replays the sequence of seed S
 * </pre>
 */
public final class HpackDifferentialFuzz {

    private static final long PROGRESS_NANOS = TimeUnit.SECONDS.toNanos(10);

    private HpackDifferentialFuzz() {
    }

    public static void main(String[] args) {
        double minutes = Double.MAX_VALUE;
        long maxBlocks = Long.MAX_VALUE;
        Long replay = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--minutes":
                    minutes = Double.parseDouble(args[++i]);
                    break;
                case "--blocks":
                    maxBlocks = Long.parseLong(args[++i]);
                    break;
                case "--seed":
                    replay = Long.parseLong(args[++i]);
                    break;
                default:
                    System.err.println("usage: HpackDifferentialFuzz (--minutes M | --blocks N | --seed S)");
                    System.exit(2);
            }
        }
        HpackDifferential differential = new HpackDifferential();
        if (replay != null) {
            differential.run(replay);
            System.out.println("hpack fuzz: seed " + replay + ": " + differential.blocks + " blocks, no divergence");
            return;
        }
        if (minutes == Double.MAX_VALUE && maxBlocks == Long.MAX_VALUE) {
            minutes = 1;
        }
        System.out.println("hpack fuzz: leak detection "
                + System.getProperty("io.netty.leakDetection.level", "default"));
        long start = System.nanoTime();
        int leaks = 0;
        long deadline = minutes == Double.MAX_VALUE ? Long.MAX_VALUE : start + (long) (minutes * 60e9);
        long nextProgress = start + PROGRESS_NANOS;
        long seed = new SecureRandom().nextLong();
        while (System.nanoTime() < deadline && differential.blocks < maxBlocks) {
            try {
                differential.run(seed);
            } catch (AssertionError e) {
                System.out.println("hpack fuzz: DIVERGENCE " + e.getMessage());
                System.exit(1);
            }
            seed++;
            long now = System.nanoTime();
            if (now >= nextProgress) {
                leaks += leaks();
                nextProgress = System.nanoTime() + PROGRESS_NANOS;
                progress(differential, now - start);
            }
        }
        leaks += leaks();
        long elapsed = System.nanoTime() - start;
        System.out.println("hpack fuzz: outcomes:");
        for (Map.Entry<String, Long> e : differential.outcomes.entrySet()) {
            System.out.println(String.format(Locale.ROOT, "  %,12d  %s", e.getValue(), e.getKey()));
        }
        System.out.println(String.format(Locale.ROOT, "hpack fuzz: %d sequences, %d errors, %d corrupted inputs",
                differential.sequences, differential.errors, differential.corrupted));
        // The line run.sh sums over JVMs, as DifferentialFuzz prints it.
        System.out.println(String.format(Locale.ROOT, "fuzz: done: %d inputs in %.1f s (%.0f inputs/s), "
                        + "0 divergences, %d leaks", differential.blocks, elapsed / 1e9,
                differential.blocks * 1e9 / elapsed, leaks));
        System.exit(leaks == 0 ? 0 : 1);
    }

    private static int leaks() {
        List<String> reports = LeakDetectionExtension.collectLeaks();
        for (String report : reports) {
            System.out.println("hpack fuzz: " + report);
        }
        return reports.size();
    }

    private static void progress(HpackDifferential differential, long elapsed) {
        System.out.println(String.format(Locale.ROOT, "hpack fuzz: %.0f s: %,d blocks (%.0f/s), %,d errors",
                elapsed / 1e9, differential.blocks, differential.blocks * 1e9 / elapsed, differential.errors));
    }
}
