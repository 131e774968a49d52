/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

/** The example server's routes, which the client knows how to check. */
enum Route {
    /** {@code GET /hello}: 1 KiB of the server's known text. */
    HELLO,
    /** {@code POST /echo}: the request's body and trailers, back. */
    ECHO,
    /** {@code GET /download?size=N}: N bytes of the server's known pattern. */
    DOWNLOAD
}
