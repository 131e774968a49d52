/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.pooledh2.codec.Differential.Mode;
import io.pooledh2.codec.ReaderSpec.Variant;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The randomized differential tests as a long run with fresh seeds, for {@code src/fuzz/run.sh}: by default the
 * reader's ({@link RandomizedDifferentialTest}: random frame sequences, valid and mutated, read by the stock and
 * the pooled reader in random deliveries, buffer kinds and reader variants); with {@code --writer} the writer's
 * ({@link RandomizedWriterDifferentialTest}: random call sequences through the stock and the pooled writer).
 * Runs for a time budget; prints inputs per second, divergences and leaks as it goes, the seed of every
 * divergence, and exits 1 on any divergence or leak.
 *
 * <pre>
 * DifferentialFuzz [--writer] --minutes 10            fresh seeds for ten minutes
 * DifferentialFuzz [--writer] --seed S [--cases N]    replays seed S (its first N cases, default 1000)
 * </pre>
 *
 * Each seed runs {@value #CASES_PER_SEED} cases, case N of a seed drawn from its own generator as in the test, so
 * a divergence is replayed exactly by {@code --seed}. Leaks are Netty's leak detector's reports (run with
 * {@code -Dio.netty.leakDetection.level=paranoid}), collected with {@link LeakDetectionExtension}'s machinery
 * every progress line and at the end.
 */
public final class DifferentialFuzz {

    static final int CASES_PER_SEED = 1000;
    private static final long PROGRESS_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final int MAX_REPORTS = 5;

    private final boolean writer;
    /** Replaying: leaks are looked for after every case, to name the case. */
    private boolean checkEachCase;
    private long inputs;
    private int divergences;
    private int leaks;
    /** The seeds run since the last leak check: a leak is reported with them. */
    private final List<Long> seedsSinceCheck = new ArrayList<>();

    private DifferentialFuzz(boolean writer) {
        this.writer = writer;
    }

    public static void main(String[] args) {
        double minutes = 1;
        Long replaySeed = null;
        int replayCases = CASES_PER_SEED;
        boolean writer = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--writer":
                    writer = true;
                    break;
                case "--minutes":
                    minutes = Double.parseDouble(args[++i]);
                    break;
                case "--seed":
                    replaySeed = Long.parseLong(args[++i]);
                    break;
                case "--cases":
                    replayCases = Integer.parseInt(args[++i]);
                    break;
                default:
                    System.err.println("usage: DifferentialFuzz [--writer] [--minutes M] | --seed S [--cases N]");
                    System.exit(2);
            }
        }
        DifferentialFuzz fuzz = new DifferentialFuzz(writer);
        long start = System.nanoTime();
        if (replaySeed != null) {
            System.out.println("fuzz: replaying seed " + replaySeed + ", " + replayCases + " cases");
            fuzz.checkEachCase = true;
            fuzz.runSeed(replaySeed, replayCases, Long.MAX_VALUE);
        } else {
            long budget = (long) (minutes * TimeUnit.MINUTES.toNanos(1));
            System.out.printf(Locale.ROOT, "fuzz: %s, %.2f minutes, leak detection %s%n",
                    writer ? "writer" : "reader", minutes,
                    System.getProperty("io.netty.leakDetection.level", "default"));
            fuzz.runFor(start, start + budget);
        }
        fuzz.checkLeaks();
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "fuzz: done: %d inputs in %.1f s (%.0f inputs/s), %d divergences, %d leaks%n",
                fuzz.inputs, seconds, fuzz.inputs / seconds, fuzz.divergences, fuzz.leaks);
        System.exit(fuzz.divergences == 0 && fuzz.leaks == 0 ? 0 : 1);
    }

    private void runFor(long start, long deadline) {
        Random seeds = new SecureRandom();
        long nextProgress = start + PROGRESS_NANOS;
        while (System.nanoTime() - deadline < 0) {
            long seed = seeds.nextLong();
            long seedDeadline = Math.min(deadline, System.nanoTime() + PROGRESS_NANOS);
            runSeed(seed, CASES_PER_SEED, seedDeadline);
            if (System.nanoTime() - nextProgress >= 0) {
                checkLeaks();
                double seconds = (System.nanoTime() - start) / 1e9;
                System.out.printf(Locale.ROOT, "fuzz: %6.0f s  %10d inputs  %7.0f inputs/s  %d divergences  %d leaks%n",
                        seconds, inputs, inputs / seconds, divergences, leaks);
                nextProgress = System.nanoTime() + PROGRESS_NANOS;
            }
        }
    }

    /** The cases of one seed, as the randomized test draws them, until the count or the deadline. */
    private void runSeed(long seed, int cases, long deadline) {
        seedsSinceCheck.add(seed);
        Random random = new Random(seed);
        for (int index = 0; index < cases && System.nanoTime() - deadline < 0; index++) {
            long caseSeed = random.nextLong();
            String report = writer ? writerCase(seed, index, caseSeed) : readerCase(seed, index, caseSeed);
            inputs++;
            if (checkEachCase) {
                int before = leaks;
                checkLeaks();
                if (leaks > before) {
                    System.out.println("fuzz: the leak above is case #" + index + "'s");
                }
            }
            if (report != null) {
                divergences++;
                System.out.println("fuzz: DIVERGENCE with seed " + seed + " at case #" + index + " (replay: src/fuzz/run.sh "
                        + (writer ? "--writer " : "") + "--seed " + seed + " --cases " + (index + 1) + ")");
                if (divergences <= MAX_REPORTS) {
                    System.out.println(report);
                }
            }
        }
    }

    /** Null, or the report of a divergence. */
    private static String readerCase(long seed, int index, long caseSeed) {
        Random caseRandom = new Random(caseSeed);
        ReaderCase readerCase = RandomCases.generate("case " + index, caseRandom);
        Mode mode = RandomCases.randomMode(caseRandom, readerCase.allBytes().length);
        Variant variant = RandomizedDifferentialTest.pooledVariant(caseRandom, mode);
        String difference;
        try {
            difference = RandomizedDifferentialTest.difference(readerCase, variant, mode);
        } catch (RuntimeException | AssertionError e) {
            difference = "the run threw " + e;
        }
        return difference == null ? null
                : RandomizedDifferentialTest.report(seed, index, caseSeed, variant, readerCase, mode, difference);
    }

    private static String writerCase(long seed, int index, long caseSeed) {
        WriterCase writerCase = RandomWriterCases.generate("case " + index, new Random(caseSeed));
        String difference;
        try {
            difference = RandomizedWriterDifferentialTest.difference(writerCase);
        } catch (RuntimeException | AssertionError e) {
            return "the run threw " + e + "\n" + writerCase.describe();
        }
        return difference == null ? null
                : RandomizedWriterDifferentialTest.report(seed, index, caseSeed, writerCase, difference);
    }

    private void checkLeaks() {
        List<String> reports = LeakDetectionExtension.collectLeaks();
        if (!reports.isEmpty()) {
            System.out.println("fuzz: LEAK reported after seeds " + seedsSinceCheck
                    + " (replay each: src/fuzz/run.sh --seed S)");
        }
        seedsSinceCheck.clear();
        for (String report : reports) {
            leaks++;
            if (leaks <= MAX_REPORTS) {
                System.out.println("fuzz: " + report);
            }
        }
    }
}
