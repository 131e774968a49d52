/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import io.pooledh2.example.server.Pipeline;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The demo, shortened: every server answers every request right; for each workload, the table has a row per
 * pipeline and codec with numbers in every column, each measured round is printed, and the workload's last line
 * compares the codecs on both pipelines.
 */
class DemoTest {

    private static final String NUMBER = "([\\d,]+(?:\\.\\d+)?)";
    private static final Pattern ROW = Pattern.compile("(?m)^(multiplex|frames)\\s+(Netty|pooled)\\s+" + NUMBER
            + "\\s+" + NUMBER + "%\\s+" + NUMBER + "\\s+" + NUMBER
            + "\\s+" + NUMBER + "\\s+" + NUMBER + "\\s+" + NUMBER + "\\s+"
            + NUMBER + "\\s+0$");
    private static final Pattern ROUND = Pattern.compile("(?m)^round \\d+\\s+(multiplex|frames)\\s+(Netty|pooled)\\s+"
            + "([\\d,]+) req/s\\s+[\\d,]+ B/req\\s+[\\d,.]+ GC ms/M req\\s+p99\\s+[\\d.]+ ms$");
    private static final Pattern VERDICT =
            Pattern.compile("^pooled vs Netty \\(stated where all rounds agree beyond their spread\\): "
                    + "multiplex: req/s .+, server B/req .+, GC ms/M req .+, p99 .+; "
                    + "frames: req/s .+, server B/req .+, GC ms/M req .+, p99 .+$");

    private static final Pattern AGREEMENT = Pattern.compile("^req/s rounds: (every server's within 10% of each other"
            + "|more than 10% apart on (multiplex|frames) (Netty|pooled)(, (multiplex|frames) (Netty|pooled))* .+)$");

    @Test
    void spreadIsTheRangeOverTheMedian() {
        assertEquals(0, Demo.spreadPercent(100));
        assertEquals(20, Demo.spreadPercent(90, 100, 110), 1e-9);
        assertEquals(20, Demo.spreadPercent(110, 90, 100), 1e-9, "order does not matter");
        assertEquals(40, Demo.spreadPercent(80, 100, 100, 120), 1e-9, "even count: the mean of the middle two");
    }

    private static Demo.Side side(Pipeline pipeline, boolean stock, double[] rates, double bytes) {
        Demo.Side side = new Demo.Side(pipeline, stock, null);
        for (double rate : rates) {
            side.rounds.add(new Demo.Round(rate, bytes, 50, 400_000));
        }
        side.ok = 1_000_000;
        side.nanos = (long) (1e15 / (Arrays.stream(rates).sum() / rates.length));
        side.allocatedBytes = (long) (bytes * side.ok);
        side.gcMillis = 50;
        return side;
    }

    @Test
    void verdictStatesAChangeOnlyWhereEveryRoundAgreesBeyondTheSpread() {
        // frames: pooled ahead in every round by about 5%, but each server's rounds spread by 20%: within noise.
        // Bytes per request: 30% fewer in every round, rounds steady: stated.
        String line = Demo.verdict(List.of(
                side(Pipeline.MULTIPLEX, true, new double[] {100, 100, 100}, 4000),
                side(Pipeline.MULTIPLEX, false, new double[] {110, 111, 112}, 3000),
                side(Pipeline.FRAMES, true, new double[] {100, 120, 110}, 3600),
                side(Pipeline.FRAMES, false, new double[] {105, 126, 115}, 2500)));
        assertTrue(line.contains("multiplex: req/s +11.0%, server B/req -25.0%"), line);
        assertTrue(line.contains("frames: req/s within noise, server B/req -30.6%"), line);
        assertTrue(line.contains("GC ms/M req within noise"), line);
    }

    @Test
    void printsEveryPipelineAndCodecSideBySide() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        boolean clean;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            clean = Demo.run(out, Demo.Timing.QUICK);
        }
        String output = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(clean, output);
        String[] sections = output.split("(?m)^workload \\d+: ");
        assertEquals(1 + Demo.workloads().size(), sections.length, "a section per workload:\n" + output);
        assertTrue(sections[2].startsWith("POST /echo, body 1024 B + trailers, 100 more request headers, "),
                sections[2]);
        for (int w = 1; w < sections.length; w++) {
            checkWorkload(sections[w]);
        }
    }

    private static void checkWorkload(String output) {
        Matcher rounds = ROUND.matcher(output);
        int roundLines = 0;
        Map<String, List<Double>> roundRates = new HashMap<>();
        while (rounds.find()) {
            roundLines++;
            roundRates.computeIfAbsent(rounds.group(1) + ' ' + rounds.group(2), k -> new ArrayList<>())
                    .add(number(rounds.group(3)));
        }
        assertEquals(4 * Demo.Timing.QUICK.rounds, roundLines, "a line per server per round:\n" + output);

        Matcher rows = ROW.matcher(output);
        Set<String> seen = new HashSet<>();
        while (rows.find()) {
            seen.add(rows.group(1) + ' ' + rows.group(2));
            assertTrue(number(rows.group(3)) > 0, "no requests per second: " + rows.group());
            double[] rates = roundRates.get(rows.group(1) + ' ' + rows.group(2)).stream()
                    .mapToDouble(Double::doubleValue).toArray();
            // The rounds print req/s rounded to 1, the table the spread to 0.1 %.
            double rounding = 0.051 + 100.0 / Arrays.stream(rates).min().orElse(1);
            assertEquals(Demo.spreadPercent(rates), number(rows.group(4)), rounding,
                    "spread of the rounds " + Arrays.toString(rates) + ": " + rows.group());
            assertTrue(number(rows.group(5)) > 0, "no allocation measured: " + rows.group());
            assertTrue(number(rows.group(8)) > 0, "no p50 latency: " + rows.group());
            assertTrue(number(rows.group(10)) >= number(rows.group(9))
                            && number(rows.group(9)) >= number(rows.group(8)),
                    "percentiles out of order: " + rows.group());
        }
        assertEquals(Set.of("multiplex Netty", "multiplex pooled", "frames Netty", "frames pooled"), seen,
                "a row per pipeline and codec:\n" + output);

        String[] lines = output.strip().split("\\R");
        String last = lines[lines.length - 1];
        assertTrue(VERDICT.matcher(last).matches(), "last line: " + last);
        assertTrue(AGREEMENT.matcher(lines[lines.length - 2]).matches(), "agreement line: " + lines[lines.length - 2]);
    }

    private static double number(String digits) {
        return Double.parseDouble(digits.replace(",", ""));
    }
}
