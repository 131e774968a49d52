/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import picocli.CommandLine;

import java.io.PrintWriter;

/**
 * The example client's command line: a load run against any h2c server (prior knowledge) with a progress line
 * per second and a summary, or {@code --demo}, the stock-vs-pooled comparison against the example server,
 * each server in a JVM of its own (see {@link Demo}). Exits with status 1 if any response was wrong.
 */
public final class ExampleClient {

    private ExampleClient() {
    }

    /** Exits with status 2, naming the flag, on a bad command line; with 1 if any response was wrong. */
    public static void main(String[] args) throws Exception {
        ClientOptions options = new ClientOptions();
        try {
            if (!options.parse(new PrintWriter(System.out, true), args)) {
                return;
            }
        } catch (CommandLine.ParameterException e) {
            PrintWriter err = new PrintWriter(System.err, true);
            err.println(e.getMessage());
            e.getCommandLine().usage(err);
            System.exit(2);
            return;
        }
        boolean clean = options.demo || options.demoShort
                ? Demo.run(System.out, options.demoShort ? Demo.Timing.QUICK : Demo.Timing.FULL)
                : load(options);
        if (!clean) {
            System.exit(1);
        }
    }

    private static boolean load(ClientOptions options) throws InterruptedException {
        System.out.println("pooledh2 client: " + options.describe());
        LoadResult result;
        try (LoadClient client = LoadClient.connect(options)) {
            result = client.run(options.progress ? System.out : null);
        }
        System.out.print(result.summary());
        return result.errors() == 0;
    }
}
