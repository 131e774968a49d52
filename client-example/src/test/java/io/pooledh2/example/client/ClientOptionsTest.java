/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The client's command line: the generated help, the flags it takes, and a bad flag named in the error. */
class ClientOptionsTest {

    @Test
    void helpListsEveryFlag() {
        StringWriter out = new StringWriter();
        assertFalse(new ClientOptions().parse(new PrintWriter(out, true), "--help"));
        String help = out.toString();
        for (String flag : List.of("--host", "--port", "--connections", "--streams", "--requests", "--duration",
                "--route", "--body-size", "--download-size", "--frame-size", "--no-trailers", "--stock",
                "--paranoid", "--no-reuse", "--quiet", "--demo", "--help")) {
            assertTrue(help.contains(flag), flag + " missing from:\n" + help);
        }
    }

    @Test
    void flagsSetTheOptions() {
        ClientOptions options = new ClientOptions();
        assertTrue(options.parse(new PrintWriter(new StringWriter()), "--port", "9000", "--connections", "3",
                "--streams", "5", "--requests", "100", "--duration", "2.5s", "--route", "mixed", "--body-size",
                "10-20", "--download-size", "7", "--frame-size", "1000", "--no-trailers", "--stock", "--quiet"));
        assertEquals(9000, options.port);
        assertEquals(3, options.connections);
        assertEquals(5, options.streams);
        assertEquals(100, options.requests);
        assertEquals(Duration.ofMillis(2500), options.duration);
        assertNull(options.route);
        assertEquals(10, options.minBodySize);
        assertEquals(20, options.maxBodySize);
        assertEquals(7, options.downloadSize);
        assertEquals(1000, options.frameSize);
        assertFalse(options.trailers);
        assertTrue(options.stockCodec);
        assertFalse(options.progress);
        ClientOptions download = new ClientOptions();
        assertTrue(download.parse(new PrintWriter(new StringWriter()), "--route", "DOWNLOAD", "--body-size", "64"));
        assertEquals(Route.DOWNLOAD, download.route);
        assertEquals(64, download.minBodySize);
        assertEquals(64, download.maxBodySize);
    }

    @Test
    void aBadFlagIsNamed() {
        assertNamed("--conections", "--conections", "2");
        assertNamed("--streams", "--streams", "0");
        assertNamed("--requests", "--requests", "many");
        assertNamed("--duration", "--duration", "soon");
        assertNamed("--route", "--route", "upload");
        assertNamed("--body-size", "--body-size", "9-3");
    }

    private static void assertNamed(String flag, String... args) {
        CommandLine.ParameterException e = assertThrows(CommandLine.ParameterException.class,
                () -> new ClientOptions().parse(new PrintWriter(new StringWriter()), args));
        assertTrue(e.getMessage().contains(flag), e.getMessage());
    }

    /** The real command: a bad flag exits with status 2 and names the flag; --help exits with 0. */
    @Test
    void mainExitsNonZeroOnABadFlag() throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), ExampleClient.class.getName()));
        assertExit(2, "--route", withArgs(command, "--route", "upload"));
        assertExit(2, "--bogus", withArgs(command, "--bogus"));
        assertExit(0, "--connections", withArgs(command, "--help"));
    }

    private static List<String> withArgs(List<String> command, String... args) {
        List<String> all = new ArrayList<>(command);
        all.addAll(List.of(args));
        return all;
    }

    private static void assertExit(int status, String expectedText, List<String> command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("did not exit: " + command);
        }
        assertEquals(status, process.exitValue(), output);
        assertTrue(output.contains(expectedText), output);
    }
}
