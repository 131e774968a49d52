/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

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
 * Random call sequences through {@code DefaultHttp2FrameWriter} and {@link PooledHttp2FrameWriter}: the bytes
 * flushed, what each call threw and returned, how each promise ended, the reference counts of the inputs and the
 * exceptions fired must match. Reproducible: {@code -Dpooledh2.seed=N} replaces the default base seed; a failure
 * names its seed and shows the case shrunk. The long run is {@code src/fuzz/run.sh --writer}.
 */
class RandomizedWriterDifferentialTest {

    private static final long DEFAULT_SEED = 0x77726974L;
    private static final int DERIVED_SEEDS = 3;
    private static final int MAX_CASES_PER_SEED = 1500;
    private static final long TIME_PER_SEED_NANOS = TimeUnit.MILLISECONDS.toNanos(3_000);
    private static final int MIN_CASES_PER_SEED = 100;

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
    void randomWritesMatchNettys(long seed, TestReporter reporter) {
        Random random = new Random(seed);
        long deadline = System.nanoTime() + TIME_PER_SEED_NANOS;
        int cases = 0;
        while (cases < MAX_CASES_PER_SEED && System.nanoTime() - deadline < 0) {
            long caseSeed = random.nextLong();
            WriterCase writerCase = RandomWriterCases.generate("case " + cases, new Random(caseSeed));
            String difference = difference(writerCase);
            if (difference != null) {
                fail(report(seed, cases, caseSeed, writerCase, difference));
            }
            cases++;
        }
        int ran = cases;
        reporter.publishEntry("random writer cases for seed " + seed, Integer.toString(ran));
        assertTrue(ran >= MIN_CASES_PER_SEED, () -> "only " + ran + " random writer cases ran for seed " + seed);
    }

    /** Null when the writers agree. */
    static String difference(WriterCase writerCase) {
        return WriterTranscript.firstDifference(writerCase.run(false), writerCase.run(true));
    }

    static String report(long seed, int index, long caseSeed, WriterCase writerCase, String difference) {
        WriterCase shrunk = shrink(writerCase);
        return "pooled writer differs from Netty's; seed " + seed + " (rerun with -Dpooledh2.seed=" + seed
                + "), case #" + index + " (case seed " + caseSeed + ")\n"
                + writerCase.describe() + "\n" + difference + "\n"
                + "shrunk: " + shrunk.describe() + "\n" + difference(shrunk);
    }

    /** Drops steps one at a time for as long as the writers still disagree. */
    private static WriterCase shrink(WriterCase writerCase) {
        WriterCase current = writerCase;
        boolean progress = true;
        while (progress) {
            progress = false;
            for (int i = 0; i < current.steps.size() && current.steps.size() > 1; i++) {
                List<WriterCase.Step> fewer = new ArrayList<>(current.steps);
                fewer.remove(i);
                WriterCase candidate = current.withSteps(fewer);
                if (difference(candidate) != null) {
                    current = candidate;
                    progress = true;
                    break;
                }
            }
        }
        return current;
    }
}
