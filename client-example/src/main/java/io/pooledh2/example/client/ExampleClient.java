/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import java.util.List;

/**
 * The example client's command line: a load run against any h2c server (prior knowledge) with a progress line
 * per second and a summary, or {@code --demo}, the stock-vs-pooled comparison against the example server
 * started in-process (see {@link Demo}). Exits with status 1 if any response was wrong.
 */
public final class ExampleClient {

    private ExampleClient() {
    }

    public static void main(String[] args) throws Exception {
        ClientOptions options;
        try {
            if (List.of(args).contains("--help")) {
                System.out.println(ClientOptions.USAGE);
                return;
            }
            options = ClientOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(ClientOptions.USAGE);
            System.exit(2);
            return;
        }
        boolean clean = options.demo ? Demo.run(System.out, Demo.Timing.FULL) : load(options);
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
