/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The demo, shortened: both servers answer every request right, and both rows of the table have numbers. */
class DemoTest {

    private static final Pattern ROW =
            Pattern.compile("(?m)^(Netty Http2FrameCodec|pooled codec)\\s+([\\d,]+)\\s+([\\d,]+)\\s+0$");

    @Test
    void printsBothCodecsSideBySide() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        boolean clean;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            clean = Demo.run(out, Demo.Timing.QUICK);
        }
        String output = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(clean, output);
        Matcher rows = ROW.matcher(output);
        int found = 0;
        while (rows.find()) {
            found++;
            assertTrue(number(rows.group(2)) > 0, "no requests per second: " + rows.group());
            assertTrue(number(rows.group(3)) > 0, "no allocation measured: " + rows.group());
        }
        assertTrue(found == 2, "expected a row per codec:\n" + output);
        assertTrue(output.contains("pooled vs Netty:"), output);
    }

    private static long number(String digits) {
        return Long.parseLong(digits.replace(",", ""));
    }
}
