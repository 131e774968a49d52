/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import io.netty.handler.codec.http2.Http2CodecUtil;
import io.pooledh2.example.server.FlagValues;

import java.time.Duration;

/** The load client's settings, from command-line flags or set directly (tests, the demo). */
public final class ClientOptions {

    static final String USAGE = String.join("\n",
            "Usage: ExampleClient [options]      (h2c with prior knowledge, to any server)",
            "       ExampleClient --demo         (stock vs pooled codec, server in-process, about 20 s)",
            "  --host ADDRESS       server address (default 127.0.0.1)",
            "  --port N             server port (default 8080)",
            "  --connections N      connections (default 1)",
            "  --streams N          concurrent streams per connection (default 8)",
            "  --requests N         total requests (default 10000 unless --duration is given)",
            "  --duration SECONDS   run for this long (with --requests: whichever ends first)",
            "  --route ROUTE        hello | echo | download | mixed (default echo)",
            "  --body-size N|MIN-MAX  /echo request body bytes, fixed or uniform in a range (default 1024)",
            "  --download-size N    bytes per /download (default 65536)",
            "  --frame-size N       request DATA frame size (default 16384)",
            "  --no-trailers        /echo requests without trailers (default: with trailers, checked on the echo)",
            "  --stock              the client on Netty's Http2FrameCodecBuilder instead of the pooled codec",
            "  --paranoid           pooled codec in paranoid mode (also -Dio.pooledh2.paranoid=true)",
            "  --no-reuse           pooled codec without frame reuse (also -Dio.pooledh2.reuseFrames=false)",
            "  --quiet              no progress line",
            "  --help");

    String host = "127.0.0.1";
    int port = 8080;
    int connections = 1;
    int streams = 8;
    long requests = -1;
    Duration duration;
    /** Null: mixed, one route after the other. */
    Route route = Route.ECHO;
    int minBodySize = 1024;
    int maxBodySize = 1024;
    long downloadSize = 65536;
    int frameSize = Http2CodecUtil.DEFAULT_MAX_FRAME_SIZE;
    boolean trailers = true;
    boolean stockCodec;
    Boolean paranoid;
    Boolean reuseFrames;
    boolean progress = true;
    boolean demo;

    public ClientOptions host(String host) {
        this.host = host;
        return this;
    }

    public ClientOptions port(int port) {
        this.port = port;
        return this;
    }

    public ClientOptions connections(int connections) {
        this.connections = positive(connections, "connections");
        return this;
    }

    public ClientOptions streams(int streams) {
        this.streams = positive(streams, "streams");
        return this;
    }

    /** Total requests, spread evenly over the connections x streams workers. */
    public ClientOptions requests(long requests) {
        this.requests = positive(requests, "requests");
        return this;
    }

    public ClientOptions duration(Duration duration) {
        this.duration = duration;
        return this;
    }

    /** A route, or {@code null} for all routes in turn. */
    ClientOptions route(Route route) {
        this.route = route;
        return this;
    }

    public ClientOptions bodySize(int min, int max) {
        if (min < 0 || max < min) {
            throw new IllegalArgumentException("bad body size range: " + min + '-' + max);
        }
        minBodySize = min;
        maxBodySize = max;
        return this;
    }

    public ClientOptions downloadSize(long downloadSize) {
        if (downloadSize < 0) {
            throw new IllegalArgumentException("download size < 0: " + downloadSize);
        }
        this.downloadSize = downloadSize;
        return this;
    }

    public ClientOptions frameSize(int frameSize) {
        this.frameSize = positive(frameSize, "frame size");
        return this;
    }

    public ClientOptions trailers(boolean trailers) {
        this.trailers = trailers;
        return this;
    }

    public ClientOptions stockCodec(boolean stockCodec) {
        this.stockCodec = stockCodec;
        return this;
    }

    public ClientOptions paranoid(boolean paranoid) {
        this.paranoid = paranoid;
        return this;
    }

    public ClientOptions reuseFrames(boolean reuseFrames) {
        this.reuseFrames = reuseFrames;
        return this;
    }

    public ClientOptions progress(boolean progress) {
        this.progress = progress;
        return this;
    }

    int workers() {
        return connections * streams;
    }

    /** The total request count in force: as given, else 10000 unless a duration is given. */
    long requestLimit() {
        if (requests > 0) {
            return requests;
        }
        return duration == null ? 10_000 : Long.MAX_VALUE;
    }

    String describe() {
        String what = route == null ? "mixed routes"
                : route == Route.ECHO ? "POST /echo, body " + (minBodySize == maxBodySize ? minBodySize + " B"
                        : minBodySize + "-" + maxBodySize + " B") + (trailers ? " + trailers" : "")
                : route == Route.DOWNLOAD ? "GET /download?size=" + downloadSize
                : "GET /hello";
        String limit = (requests > 0 ? requests + " requests" : "")
                + (requests > 0 && duration != null ? " or " : "")
                + (duration != null ? duration.toMillis() / 1000.0 + " s" : "")
                + (requests <= 0 && duration == null ? "10000 requests" : "");
        return what + " to " + host + ':' + port + ", " + connections + " connection(s) x " + streams
                + " streams, " + limit + ", client on " + (stockCodec ? "Netty's Http2FrameCodec" : "the pooled codec");
    }

    static ClientOptions parse(String... args) {
        ClientOptions options = new ClientOptions();
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            switch (flag) {
                case "--host":
                    options.host(FlagValues.value(args, ++i, flag));
                    break;
                case "--port":
                    options.port(FlagValues.intNumber(args, ++i, flag));
                    break;
                case "--connections":
                    options.connections(FlagValues.intNumber(args, ++i, flag));
                    break;
                case "--streams":
                    options.streams(FlagValues.intNumber(args, ++i, flag));
                    break;
                case "--requests":
                    options.requests(FlagValues.number(args, ++i, flag));
                    break;
                case "--duration":
                    String seconds = FlagValues.value(args, ++i, flag);
                    options.duration(Duration.ofMillis((long) (1000 * Double.parseDouble(
                            seconds.endsWith("s") ? seconds.substring(0, seconds.length() - 1) : seconds))));
                    break;
                case "--route":
                    String route = FlagValues.value(args, ++i, flag);
                    options.route("mixed".equals(route) ? null : Route.parse(route));
                    break;
                case "--body-size":
                    String size = FlagValues.value(args, ++i, flag);
                    int dash = size.indexOf('-');
                    if (dash < 0) {
                        int n = Integer.parseInt(size);
                        options.bodySize(n, n);
                    } else {
                        options.bodySize(Integer.parseInt(size.substring(0, dash)),
                                Integer.parseInt(size.substring(dash + 1)));
                    }
                    break;
                case "--download-size":
                    options.downloadSize(FlagValues.number(args, ++i, flag));
                    break;
                case "--frame-size":
                    options.frameSize(FlagValues.intNumber(args, ++i, flag));
                    break;
                case "--no-trailers":
                    options.trailers(false);
                    break;
                case "--stock":
                    options.stockCodec(true);
                    break;
                case "--paranoid":
                    options.paranoid(true);
                    break;
                case "--no-reuse":
                    options.reuseFrames(false);
                    break;
                case "--quiet":
                    options.progress(false);
                    break;
                case "--demo":
                    options.demo = true;
                    break;
                default:
                    throw new IllegalArgumentException("unknown option: " + flag);
            }
        }
        return options;
    }

    private static int positive(int n, String what) {
        if (n <= 0) {
            throw new IllegalArgumentException(what + " must be > 0: " + n);
        }
        return n;
    }

    private static long positive(long n, String what) {
        if (n <= 0) {
            throw new IllegalArgumentException(what + " must be > 0: " + n);
        }
        return n;
    }
}
