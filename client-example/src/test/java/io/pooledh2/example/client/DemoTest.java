/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The demo, shortened: every server answers every request right, the table has a row per pipeline and codec with
 * numbers in every column, each measured round printed, and the last line compares the codecs on both pipelines.
 */
class DemoTest {

    private static final String NUMBER = "([\\d,]+(?:\\.\\d+)?)";
    private static final Pattern ROW = Pattern.compile("(?m)^(multiplex|frames)\\s+(Netty|pooled)\\s+" + NUMBER
            + "\\s+" + NUMBER + "\\s+" + NUMBER + "\\s+" + NUMBER + "\\s+" + NUMBER + "\\s+" + NUMBER + "\\s+"
            + NUMBER + "\\s+0$");
    private static final Pattern ROUND = Pattern.compile("(?m)^round \\d+\\s+(multiplex|frames)\\s+(Netty|pooled)\\s+"
            + "[\\d,]+ req/s\\s+[\\d,]+ B/req\\s+[\\d,.]+ GC ms/M req\\s+p99\\s+[\\d.]+ ms$");
    private static final Pattern VERDICT = Pattern.compile("^pooled vs Netty \\(stated where every round agrees\\): "
            + "multiplex: req/s .+, server B/req .+, GC ms/M req .+, p99 .+; "
            + "frames: req/s .+, server B/req .+, GC ms/M req .+, p99 .+$");

    @Test
    void printsEveryPipelineAndCodecSideBySide() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        boolean clean;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            clean = Demo.run(out, Demo.Timing.QUICK);
        }
        String output = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(clean, output);

        Matcher rounds = ROUND.matcher(output);
        int roundLines = 0;
        while (rounds.find()) {
            roundLines++;
        }
        assertEquals(4 * Demo.Timing.QUICK.rounds, roundLines, "a line per server per round:\n" + output);

        Matcher rows = ROW.matcher(output);
        Set<String> seen = new HashSet<>();
        while (rows.find()) {
            seen.add(rows.group(1) + ' ' + rows.group(2));
            assertTrue(number(rows.group(3)) > 0, "no requests per second: " + rows.group());
            assertTrue(number(rows.group(4)) > 0, "no allocation measured: " + rows.group());
            assertTrue(number(rows.group(7)) > 0, "no p50 latency: " + rows.group());
            assertTrue(number(rows.group(9)) >= number(rows.group(8)) && number(rows.group(8)) >= number(rows.group(7)),
                    "percentiles out of order: " + rows.group());
        }
        assertEquals(Set.of("multiplex Netty", "multiplex pooled", "frames Netty", "frames pooled"), seen,
                "a row per pipeline and codec:\n" + output);

        String[] lines = output.strip().split("\\R");
        String last = lines[lines.length - 1];
        assertTrue(VERDICT.matcher(last).matches(), "last line: " + last);
    }

    private static double number(String digits) {
        return Double.parseDouble(digits.replace(",", ""));
    }
}
