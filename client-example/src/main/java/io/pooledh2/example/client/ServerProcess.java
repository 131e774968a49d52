/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import io.pooledh2.example.server.Pipeline;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A {@link DemoServer} in a child JVM: the same classpath and {@code java} as this JVM, and the same
 * {@link #JVM_OPTIONS} for every server, so that their GC numbers compare. Its standard output carries the
 * {@code listening} and {@code stats} lines; its standard error is copied to this JVM's, and leak reports in it are
 * counted. The child stops when its standard input ends: {@link #close()} closes it, and so does the operating
 * system when this JVM dies in any way, so no server outlives the demo.
 */
final class ServerProcess implements AutoCloseable {

    /**
     * The same for every server, as for the project's benchmarks (docs/benchmarks.md): a fixed heap and a fixed
     * young generation, so that G1 does not size them differently for the two codecs and the GC count follows the
     * bytes allocated; the same collector whatever the JVM's ergonomics would pick; Netty's leak detection off (its
     * default, simple, samples buffers and allocates a stack trace for each, ~190 B per request here, which is noise
     * in a measurement). Not {@code -XX:+AlwaysPreTouch}: the warm-up touches the heap anyway, and four pre-touched
     * heaps cost seconds of CPU at start. A property the demo runs with overrides these (see {@link #jvmOptions}).
     */
    static final List<String> JVM_OPTIONS =
            List.of("-Xms512m", "-Xmx512m", "-Xmn256m", "-XX:+UseG1GC", "-Dio.netty.leakDetection.level=disabled");

    /** How long a child may take to start listening, or to answer {@code stats}. */
    private static final long ANSWER_SECONDS = 60;
    private static final String END = "\0end of output";

    /** What a child has counted so far, since it started. */
    record Stats(long allocatedBytes, long gcCount, long gcMillis) {
        Stats minus(Stats before) {
            return new Stats(allocatedBytes - before.allocatedBytes, gcCount - before.gcCount,
                    gcMillis - before.gcMillis);
        }
    }

    private final String name;
    private final Process process;
    private final Writer commands;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final AtomicInteger leakReports = new AtomicInteger();
    private int port = -1;

    private ServerProcess(String name, Process process, PrintStream errors) {
        this.name = name;
        this.process = process;
        this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.US_ASCII);
        daemon("pooledh2-demo-" + name + "-out", () -> {
            readLines(process.getInputStream(), lines::add);
            lines.add(END);
        });
        daemon("pooledh2-demo-" + name + "-err", () -> readLines(process.getErrorStream(), line -> {
            if (line.contains("LEAK:")) {
                leakReports.incrementAndGet();
            }
            errors.println("[" + name + " server] " + line);
        }));
    }

    /**
     * Starts a server on a free port; does not wait for it (start them all, then {@link #awaitListening()} each,
     * so that the JVMs start side by side).
     */
    static ServerProcess start(Pipeline pipeline, boolean stock, PrintStream errors) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(DemoServer.class.getName());
        command.add("--port=0");
        command.add("--pipeline=" + pipeline.name().toLowerCase(Locale.ROOT));
        if (stock) {
            command.add("--stock");
        }
        String name = pipeline.name().toLowerCase(Locale.ROOT) + '/' + (stock ? "Netty" : "pooled");
        return new ServerProcess(name, new ProcessBuilder(command).start(), errors);
    }

    /**
     * {@link #JVM_OPTIONS}, then the {@code io.netty.*} and {@code io.pooledh2.*} properties this JVM runs with (a
     * test's paranoid leak detection, the codec's switches): the servers run with those too, and for the JVM the
     * last of two settings of a property holds.
     */
    static List<String> jvmOptions() {
        List<String> options = new ArrayList<>(JVM_OPTIONS);
        for (Map.Entry<Object, Object> property : System.getProperties().entrySet()) {
            String key = property.getKey().toString();
            if (key.startsWith("io.netty.") || key.startsWith("io.pooledh2.")) {
                options.add("-D" + key + '=' + property.getValue());
            }
        }
        return options;
    }

    /** Waits for the {@code listening} line; returns the port. */
    int awaitListening() throws IOException, InterruptedException {
        String line = nextLine(DemoServer.LISTENING);
        port = Integer.parseInt(line.substring(DemoServer.LISTENING.length()).trim());
        return port;
    }

    int port() {
        return port;
    }

    /** Asks the server for its counts. */
    Stats stats() throws IOException, InterruptedException {
        commands.write(DemoServer.STATS + '\n');
        commands.flush();
        String[] fields = nextLine(DemoServer.STATS + ' ').split(" ");
        return new Stats(Long.parseLong(fields[1]), Long.parseLong(fields[2]), Long.parseLong(fields[3]));
    }

    /** Leak reports the server has printed so far. */
    int leakReports() {
        return leakReports.get();
    }

    /** The next line of the child's output that starts with {@code prefix}, skipping others. */
    private String nextLine(String prefix) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(ANSWER_SECONDS);
        while (true) {
            String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                throw new IOException("the " + name + " server did not answer within " + ANSWER_SECONDS + " s");
            }
            if (line.equals(END)) {
                lines.add(END);
                throw new IOException("the " + name + " server has ended"
                        + (process.isAlive() ? "" : " (exit status " + process.exitValue() + ")"));
            }
            if (line.startsWith(prefix)) {
                return line;
            }
        }
    }

    /**
     * Ends the child's standard input, which stops the server; if it has not ended a while later, terminates it
     * (SIGTERM: still a graceful stop), then kills it.
     */
    @Override
    public void close() {
        try {
            commands.close();
        } catch (IOException e) {
            // Already gone: nothing to tell it.
        }
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroy();
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** The child JVM (for tests). */
    Process process() {
        return process;
    }

    /** For a JVM shutdown hook (Ctrl-C on the demo): no waiting, the child's own hook stops its server. */
    void destroy() {
        process.destroy();
    }

    private static void readLines(InputStream stream, Consumer<String> each) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.US_ASCII))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                each.accept(line);
            }
        } catch (IOException e) {
            // The child has gone: its output has ended either way.
        }
    }

    private static void daemon(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
    }
}
