/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.server;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The server's command line: the generated help, the flags it takes, and a bad flag named in the error. */
class ServerOptionsTest {

    @Test
    void helpListsEveryFlag() {
        StringWriter out = new StringWriter();
        assertFalse(new ServerOptions().parse(new PrintWriter(out, true), "--help"));
        String help = out.toString();
        for (String flag : List.of("--host", "--port", "--tls", "--stock", "--pipeline", "multiplex|frames|listener",
                "--data-frame-size", "--threads", "--shutdown-timeout-ms", "--paranoid", "--no-reuse", "--help")) {
            assertTrue(help.contains(flag), flag + " missing from:\n" + help);
        }
        assertTrue(help.contains("pooledh2 example server: "), "the listening line is documented:\n" + help);
    }

    @Test
    void flagsSetTheOptions() {
        ServerOptions options = new ServerOptions();
        assertTrue(options.parse(new PrintWriter(new StringWriter()), "--port", "0", "--stock", "--pipeline", "FRAMES",
                "--data-frame-size", "4096", "--threads", "2", "--shutdown-timeout-ms", "500", "--no-reuse", "--tls"));
        assertEquals(0, options.port);
        assertTrue(options.stockCodec);
        assertEquals(Pipeline.FRAMES, options.pipeline);
        assertEquals(4096, options.dataFrameSize);
        assertEquals(2, options.threads);
        assertEquals(500, options.shutdownTimeoutMillis);
        assertEquals(Boolean.FALSE, options.reuseFrames);
        assertTrue(options.tls);
        assertEquals(Pipeline.MULTIPLEX, new ServerOptions().pipeline, "the default pipeline");
    }

    @Test
    void aBadFlagIsNamed() {
        CommandLine.ParameterException unknown = assertThrows(CommandLine.ParameterException.class,
                () -> new ServerOptions().parse(new PrintWriter(new StringWriter()), "--prot", "8080"));
        assertTrue(unknown.getMessage().contains("--prot"), unknown.getMessage());
        CommandLine.ParameterException badNumber = assertThrows(CommandLine.ParameterException.class,
                () -> new ServerOptions().parse(new PrintWriter(new StringWriter()), "--port", "http"));
        assertTrue(badNumber.getMessage().contains("--port") && badNumber.getMessage().contains("http"),
                badNumber.getMessage());
        CommandLine.ParameterException badPipeline = assertThrows(CommandLine.ParameterException.class,
                () -> new ServerOptions().parse(new PrintWriter(new StringWriter()), "--pipeline", "child"));
        assertTrue(badPipeline.getMessage().contains("--pipeline") && badPipeline.getMessage().contains("child"),
                badPipeline.getMessage());
        CommandLine.ParameterException badFrameSize = assertThrows(CommandLine.ParameterException.class,
                () -> new ServerOptions().parse(new PrintWriter(new StringWriter()), "--data-frame-size", "0"));
        assertTrue(badFrameSize.getMessage().contains("--data-frame-size"), badFrameSize.getMessage());
    }

    /** The real command: a bad flag exits with status 2 and names the flag; --help exits with 0. */
    @Test
    void mainExitsNonZeroOnABadFlag() throws Exception {
        Result bad = runMain("--port", "0", "--no-such-flag");
        assertEquals(2, bad.exitCode, bad.output);
        assertTrue(bad.output.contains("--no-such-flag"), bad.output);
        assertTrue(bad.output.contains("Usage:"), bad.output);
        Result help = runMain("--help");
        assertEquals(0, help.exitCode, help.output);
        assertTrue(help.output.contains("--pipeline"), help.output);
    }

    private record Result(int exitCode, String output) {
    }

    private static Result runMain(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), ExampleServer.class.getName()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("did not exit: " + command);
        }
        return new Result(process.exitValue(), new String(process.getInputStream().readAllBytes(),
                StandardCharsets.UTF_8));
    }
}
