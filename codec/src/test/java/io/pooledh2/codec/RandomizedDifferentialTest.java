/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.pooledh2.codec.Differential.Mode;
import io.pooledh2.codec.ListenerTranscript.Style;
import io.pooledh2.codec.ReaderSpec.Variant;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Random frame sequences, valid and mutated, read by the stock and the pooled reader in random deliveries and
 * buffer kinds; the transcripts must match. Reproducible: {@code -Dpooledh2.seed=N} replaces the default base
 * seed; the seed of a failing run is in the failure message, with the shrunk input.
 *
 * <p>Bounded by a number of cases and by time, whichever comes first, so that it stays well under 30
 * seconds on a slow machine with paranoid leak detection.
 */
class RandomizedDifferentialTest {

    private static final long DEFAULT_SEED = 0x706f6f6c6564L;
    private static final int DERIVED_SEEDS = 3;
    private static final int MAX_CASES_PER_SEED = 600;
    private static final long TIME_PER_SEED_NANOS = TimeUnit.MILLISECONDS.toNanos(4_000);
    // Enough to mean something even on a slow machine; far below what the time bound normally allows.
    private static final int MIN_CASES_PER_SEED = 50;

    static LongStream seeds() {
        long base = Long.getLong("pooledh2.seed", DEFAULT_SEED);
        LongStream.Builder seeds = LongStream.builder().add(base);
        Random derive = new Random(base);
        for (int i = 0; i < DERIVED_SEEDS; i++) {
            seeds.add(derive.nextLong());
        }
        return seeds.build();
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void randomInputReadsTheSame(long seed, TestReporter reporter) {
        Random random = new Random(seed);
        long deadline = System.nanoTime() + TIME_PER_SEED_NANOS;
        int cases = 0;
        while (cases < MAX_CASES_PER_SEED && System.nanoTime() - deadline < 0) {
            // Each case draws from its own generator, so a case does not depend on how many came before it
            // beyond its index, and the time bound cannot change what case N is.
            long caseSeed = random.nextLong();
            Random caseRandom = new Random(caseSeed);
            ReaderCase readerCase = RandomCases.generate("case " + cases, caseRandom);
            Mode mode = RandomCases.randomMode(caseRandom, readerCase.allBytes().length);
            Variant variant = pooledVariant(caseRandom, mode);
            String difference = difference(readerCase, variant, mode);
            if (difference != null) {
                fail(report(seed, cases, caseSeed, variant, readerCase, mode, difference));
            }
            cases++;
        }
        int ran = cases;
        reporter.publishEntry("random cases for seed " + seed, Integer.toString(ran));
        assertTrue(ran >= MIN_CASES_PER_SEED, () -> "only " + ran + " random cases ran for seed " + seed);
    }

    /** Mostly the pooled reader as constructed; now and then one of its switches. */
    static Variant pooledVariant(Random random, Mode mode) {
        switch (random.nextInt(8)) {
            case 0:
                return Variant.POOLED_PARANOID;
            case 1:
                return Variant.POOLED_NO_REUSE;
            case 2:
                return mode.style == Style.RETAIN ? Variant.POOLED : Variant.POOLED_KEEPS_NOTHING;
            default:
                return Variant.POOLED;
        }
    }

    /** Null when the readers agree (and the pooled one threw nothing unexpected). */
    static String difference(ReaderCase readerCase, Variant variant, Mode mode) {
        String stock = Differential.run(readerCase, Variant.STOCK, mode);
        String pooled = Differential.run(readerCase, variant, mode);
        String difference = Differential.firstDifference(stock, pooled);
        if (difference == null && pooled.contains("UNEXPECTED")) {
            // Only possible if the stock reader threw something unexpected too: still a failure to look at.
            return "both readers threw unexpected exceptions:\n" + pooled;
        }
        return difference;
    }

    static String report(long seed, int index, long caseSeed, Variant variant, ReaderCase readerCase,
                                 Mode mode, String difference) {
        ReaderCase shrunk = shrink(readerCase, variant, mode);
        Mode simpler = simplerMode(shrunk, variant, mode);
        String shrunkDifference = difference(shrunk, variant, simpler);
        return "pooled reader (" + variant + ") differs from stock; seed " + seed + " (rerun with -Dpooledh2.seed="
                + seed + "), case #" + index + " (case seed " + caseSeed + ")\n"
                + "mode: " + mode + "\n"
                + "input: " + readerCase.describeInput() + "\n"
                + difference + "\n"
                + "shrunk to mode " + simpler + ", input: " + shrunk.describeInput() + "\n"
                + shrunkDifference;
    }

    /** Drops steps one at a time for as long as the readers still disagree. */
    private static ReaderCase shrink(ReaderCase readerCase, Variant variant, Mode mode) {
        ReaderCase current = readerCase;
        boolean progress = true;
        while (progress) {
            progress = false;
            List<ReaderCase.Step> steps = current.steps();
            for (int i = 0; i < steps.size() && steps.size() > 1; i++) {
                List<ReaderCase.Step> fewer = new ArrayList<>(steps);
                fewer.remove(i);
                ReaderCase candidate = current.withSteps(current.name + " (shrunk)", fewer);
                if (difference(candidate, variant, mode) != null) {
                    current = candidate;
                    progress = true;
                    break;
                }
            }
        }
        return current;
    }

    /** Whole delivery on a pooled heap buffer if that still shows the difference, else the original mode. */
    private static Mode simplerMode(ReaderCase readerCase, Variant variant, Mode mode) {
        Mode whole = new Mode(Differential.WHOLE, InputKind.POOLED_HEAP, mode.style, false);
        return difference(readerCase, variant, whole) != null ? whole : mode;
    }
}
