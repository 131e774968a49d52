/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import io.netty.handler.codec.http2.Http2CodecUtil;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;

/**
 * The load client's settings: the command line (picocli reads the annotated fields, prints {@code --help}, and
 * names a bad flag in its error), or set directly with the fluent setters (tests, the demo).
 */
@Command(name = "pooledh2-client-example", mixinStandardHelpOptions = true, sortOptions = false,
        usageHelpAutoWidth = true,
        description = {"A load client for any h2c server (prior knowledge): connections x streams workers, one "
                + "request at a time each, every response checked (status, every body byte, trailers); a progress "
                + "line per second and a summary (req/s, latency percentiles, bytes, errors). Exits with status 1 "
                + "if any response was wrong.",
                "--demo: the stock-vs-pooled demo instead, each example server in a JVM of its own (about 2 minutes)."},
        versionProvider = ClientOptions.Version.class)
public final class ClientOptions {

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--host", paramLabel = "ADDRESS", description = "server address (default: ${DEFAULT-VALUE})")
    String host = "127.0.0.1";

    @Option(names = "--port", paramLabel = "N", description = "server port (default: ${DEFAULT-VALUE})")
    int port = 8080;

    int connections = 1;
    int streams = 8;
    long requests = -1;

    @Option(names = "--duration", paramLabel = "SECONDS", converter = SecondsConverter.class,
            description = "run for this long, e.g. 10 or 2.5s (with --requests: whichever ends first)")
    Duration duration;

    /** Null: mixed, one route after the other. */
    Route route = Route.ECHO;
    int minBodySize = 1024;
    int maxBodySize = 1024;
    long downloadSize = 65536;
    int frameSize = Http2CodecUtil.DEFAULT_MAX_FRAME_SIZE;
    boolean trailers = true;
    /** Regular request headers added to every request, the same ones each time ({@link Exchange#extraHeaders}). */
    int extraHeaders;

    @Option(names = "--stock", description = "the client on Netty's Http2FrameCodecBuilder instead of the pooled codec")
    boolean stockCodec;

    Boolean paranoid;
    Boolean reuseFrames;
    boolean progress = true;

    @Option(names = "--demo", description = "run the stock-vs-pooled demo (each example server in a child JVM, "
            + "both codecs, both pipelines, about 2 minutes); the other options do not apply")
    boolean demo;

    @Option(names = "--demo-short", description = "the demo in a few seconds, to check that it runs: its numbers "
            + "mean nothing (no real warm-up)")
    boolean demoShort;

    @Option(names = "--connections", paramLabel = "N", description = "connections (default: 1)")
    void connectionsOption(int n) {
        connections = positive(n, "--connections");
    }

    @Option(names = "--streams", paramLabel = "N", description = "concurrent streams per connection (default: 8)")
    void streamsOption(int n) {
        streams = positive(n, "--streams");
    }

    @Option(names = "--requests", paramLabel = "N",
            description = "total requests (default: 10000 unless --duration is given)")
    void requestsOption(long n) {
        if (n <= 0) {
            throw bad("--requests", n + " is not > 0");
        }
        requests = n;
    }

    @Option(names = "--route", paramLabel = "hello|echo|download|mixed",
            description = "what to request; mixed: all three in turn (default: echo)")
    void routeOption(String name) {
        if ("mixed".equalsIgnoreCase(name)) {
            route = null;
            return;
        }
        for (Route value : Route.values()) {
            if (value.name().equalsIgnoreCase(name)) {
                route = value;
                return;
            }
        }
        throw bad("--route", "'" + name + "' is not one of hello, echo, download, mixed");
    }

    @Option(names = "--body-size", paramLabel = "N|MIN-MAX",
            description = "/echo request body bytes, fixed or uniform in a range (default: 1024)")
    void bodySizeOption(String size) {
        int dash = size.indexOf('-', 1);
        try {
            int min = Integer.parseInt(dash < 0 ? size : size.substring(0, dash));
            int max = dash < 0 ? min : Integer.parseInt(size.substring(dash + 1));
            if (min < 0 || max < min) {
                throw bad("--body-size", "'" + size + "' is not N or MIN-MAX with 0 <= MIN <= MAX");
            }
            bodySize(min, max);
        } catch (NumberFormatException e) {
            throw bad("--body-size", "'" + size + "' is not N or MIN-MAX");
        }
    }

    @Option(names = "--download-size", paramLabel = "N", description = "bytes per /download (default: 65536)")
    void downloadSizeOption(long n) {
        if (n < 0) {
            throw bad("--download-size", n + " is not >= 0");
        }
        downloadSize = n;
    }

    @Option(names = "--frame-size", paramLabel = "N", description = "request DATA frame size (default: 16384)")
    void frameSizeOption(int n) {
        frameSize = positive(n, "--frame-size");
    }

    @Option(names = "--no-trailers", description = "/echo requests without trailers (default: with trailers, "
            + "checked on the echo)")
    void noTrailersOption(boolean on) {
        trailers = !on;
    }

    @Option(names = "--headers", paramLabel = "N", description = "N more request headers (x-app-setting-NN), the "
            + "same on every request (default: 0; at most " + Exchange.MAX_EXTRA_HEADERS + ")")
    void headersOption(int n) {
        if (n < 0 || n > Exchange.MAX_EXTRA_HEADERS) {
            throw bad("--headers", n + " is not in 0-" + Exchange.MAX_EXTRA_HEADERS);
        }
        extraHeaders = n;
    }

    @Option(names = "--paranoid", description = "pooled codec in paranoid mode (also -Dio.pooledh2.paranoid=true)")
    void paranoidOption(boolean on) {
        paranoid = on ? Boolean.TRUE : null;
    }

    @Option(names = "--no-reuse",
            description = "pooled codec without frame reuse (also -Dio.pooledh2.reuseFrames=false)")
    void noReuseOption(boolean on) {
        reuseFrames = on ? Boolean.FALSE : null;
    }

    @Option(names = "--quiet", description = "no progress line")
    void quietOption(boolean on) {
        progress = !on;
    }

    /**
     * Parses a command line into these options. Returns {@code false} when it has printed the help or the version
     * to {@code out} (nothing to run); throws {@link CommandLine.ParameterException}, whose message names the bad
     * flag or value, for a command line it cannot take.
     */
    public boolean parse(PrintWriter out, String... args) {
        CommandLine commandLine = new CommandLine(this);
        commandLine.parseArgs(args);
        if (commandLine.isUsageHelpRequested()) {
            commandLine.usage(out);
            return false;
        }
        if (commandLine.isVersionHelpRequested()) {
            commandLine.printVersionHelp(out);
            return false;
        }
        return true;
    }

    private CommandLine.ParameterException bad(String flag, String why) {
        return new CommandLine.ParameterException(spec.commandLine(),
                "Invalid value for option '" + flag + "': " + why);
    }

    private int positive(int n, String flag) {
        if (n <= 0) {
            throw bad(flag, n + " is not > 0");
        }
        return n;
    }

    public ClientOptions host(String host) {
        this.host = host;
        return this;
    }

    public ClientOptions port(int port) {
        this.port = port;
        return this;
    }

    public ClientOptions connections(int connections) {
        this.connections = positiveSetting(connections, "connections");
        return this;
    }

    public ClientOptions streams(int streams) {
        this.streams = positiveSetting(streams, "streams");
        return this;
    }

    /** Total requests, spread evenly over the connections x streams workers. */
    public ClientOptions requests(long requests) {
        if (requests <= 0) {
            throw new IllegalArgumentException("requests must be > 0: " + requests);
        }
        this.requests = requests;
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
        this.frameSize = positiveSetting(frameSize, "frame size");
        return this;
    }

    public ClientOptions trailers(boolean trailers) {
        this.trailers = trailers;
        return this;
    }

    public ClientOptions extraHeaders(int extraHeaders) {
        if (extraHeaders < 0 || extraHeaders > Exchange.MAX_EXTRA_HEADERS) {
            throw new IllegalArgumentException("extra headers not in 0-" + Exchange.MAX_EXTRA_HEADERS + ": "
                    + extraHeaders);
        }
        this.extraHeaders = extraHeaders;
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
        what += extraHeaders > 0 ? ", " + extraHeaders + " more request headers" : "";
        String limit = (requests > 0 ? requests + " requests" : "")
                + (requests > 0 && duration != null ? " or " : "")
                + (duration != null ? duration.toMillis() / 1000.0 + " s" : "")
                + (requests <= 0 && duration == null ? "10000 requests" : "");
        return what + " to " + host + ':' + port + ", " + connections + " connection(s) x " + streams
                + " streams, " + limit + ", client on " + (stockCodec ? "Netty's Http2FrameCodec" : "the pooled codec");
    }

    private static int positiveSetting(int n, String what) {
        if (n <= 0) {
            throw new IllegalArgumentException(what + " must be > 0: " + n);
        }
        return n;
    }

    /** {@code --duration}: seconds, with or without a trailing {@code s}. */
    static final class SecondsConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            String seconds = value.endsWith("s") ? value.substring(0, value.length() - 1) : value;
            try {
                double parsed = Double.parseDouble(seconds);
                if (parsed > 0 && parsed < 1e9) {
                    return Duration.ofMillis((long) (1000 * parsed));
                }
            } catch (NumberFormatException e) {
                // below
            }
            throw new CommandLine.TypeConversionException("'" + value + "' is not a number of seconds > 0");
        }
    }

    /** {@code --version}: the project's version, from the jar's manifest when there is one. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = ClientOptions.class.getPackage().getImplementationVersion();
            return new String[] {"pooledh2 client example " + (version == null ? "(development build)" : version)};
        }
    }
}
