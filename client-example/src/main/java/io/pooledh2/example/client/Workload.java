/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import java.util.SplittableRandom;

/**
 * Makes each worker's requests from the options: the route (or all routes in turn), the body size (fixed or
 * uniform in a range, from the worker's own seeded generator, so a run is repeatable) and the trailers.
 */
final class Workload {

    private static final Route[] ROUTES = Route.values();

    private final ClientOptions options;

    Workload(ClientOptions options) {
        this.options = options;
    }

    /** The generator for worker {@code worker}'s body sizes. */
    SplittableRandom random(int worker) {
        return new SplittableRandom(0x5EED_0000L + worker);
    }

    /** Request number {@code n} of worker {@code worker} in run {@code run}. */
    Exchange exchange(int run, int worker, long n, SplittableRandom random) {
        Route route = options.route != null ? options.route : ROUTES[(int) ((n + worker) % ROUTES.length)];
        int bodySize = options.minBodySize == options.maxBodySize ? options.minBodySize
                : random.nextInt(options.minBodySize, options.maxBodySize + 1);
        String id = run + "-" + worker + "-" + n;
        long seed = ((long) run << 48) ^ ((long) worker << 32) ^ n;
        return new Exchange(route, id, seed, bodySize, options.trailers, options.downloadSize, options.extraHeaders);
    }
}
