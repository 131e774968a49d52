/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.server;

import io.netty.handler.codec.http2.Http2CodecUtil;

/** The example server's settings, from command-line flags or set directly (tests, the client's demo). */
public final class ServerOptions {

    static final String USAGE = String.join("\n",
            "Usage: ExampleServer [options]",
            "  --host ADDRESS          address to listen on (default 127.0.0.1)",
            "  --port N                port; 0 picks a free one (default 8080)",
            "  --tls                   TLS with ALPN (h2, http/1.1) and a self-signed certificate made at start,",
            "                          instead of cleartext h2c (prior knowledge and HTTP/1.1 Upgrade: h2c)",
            "  --stock                 Netty's own Http2FrameCodecBuilder instead of the pooled codec",
            "  --data-frame-size N     DATA frame size of /download responses, at most the peer's",
            "                          SETTINGS_MAX_FRAME_SIZE (default 16384)",
            "  --threads N             event loop threads (default: Netty's, 2 x cores)",
            "  --shutdown-timeout-ms N how long a graceful shutdown waits for streams in flight (default 10000)",
            "  --paranoid              pooled codec in paranoid mode (also -Dio.pooledh2.paranoid=true)",
            "  --no-reuse              pooled codec without frame reuse (also -Dio.pooledh2.reuseFrames=false)",
            "  --help");

    String host = "127.0.0.1";
    int port = 8080;
    boolean tls;
    boolean stockCodec;
    int dataFrameSize = Http2CodecUtil.DEFAULT_MAX_FRAME_SIZE;
    int threads;
    long shutdownTimeoutMillis = 10_000;
    /** Null: the codec's default, from the system property. */
    Boolean paranoid;
    Boolean reuseFrames;

    public ServerOptions host(String host) {
        this.host = host;
        return this;
    }

    public ServerOptions port(int port) {
        this.port = port;
        return this;
    }

    public ServerOptions tls(boolean tls) {
        this.tls = tls;
        return this;
    }

    /** {@code true}: Netty's {@code Http2FrameCodecBuilder}; {@code false} (default): the pooled codec. */
    public ServerOptions stockCodec(boolean stockCodec) {
        this.stockCodec = stockCodec;
        return this;
    }

    public ServerOptions dataFrameSize(int dataFrameSize) {
        if (dataFrameSize < 1 || dataFrameSize > Http2CodecUtil.MAX_FRAME_SIZE_UPPER_BOUND) {
            throw new IllegalArgumentException("data frame size out of range: " + dataFrameSize);
        }
        this.dataFrameSize = dataFrameSize;
        return this;
    }

    public ServerOptions threads(int threads) {
        this.threads = threads;
        return this;
    }

    public ServerOptions shutdownTimeoutMillis(long shutdownTimeoutMillis) {
        this.shutdownTimeoutMillis = shutdownTimeoutMillis;
        return this;
    }

    public ServerOptions paranoid(boolean paranoid) {
        this.paranoid = paranoid;
        return this;
    }

    public ServerOptions reuseFrames(boolean reuseFrames) {
        this.reuseFrames = reuseFrames;
        return this;
    }

    public boolean isStockCodec() {
        return stockCodec;
    }

    /** Parses command-line flags; throws {@link IllegalArgumentException} with a message for a bad one. */
    static ServerOptions parse(String... args) {
        ServerOptions options = new ServerOptions();
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            switch (flag) {
                case "--host":
                    options.host(FlagValues.value(args, ++i, flag));
                    break;
                case "--port":
                    options.port(FlagValues.intNumber(args, ++i, flag));
                    break;
                case "--tls":
                    options.tls(true);
                    break;
                case "--stock":
                    options.stockCodec(true);
                    break;
                case "--data-frame-size":
                    options.dataFrameSize(FlagValues.intNumber(args, ++i, flag));
                    break;
                case "--threads":
                    options.threads(FlagValues.intNumber(args, ++i, flag));
                    break;
                case "--shutdown-timeout-ms":
                    options.shutdownTimeoutMillis(FlagValues.intNumber(args, ++i, flag));
                    break;
                case "--paranoid":
                    options.paranoid(true);
                    break;
                case "--no-reuse":
                    options.reuseFrames(false);
                    break;
                default:
                    throw new IllegalArgumentException("unknown option: " + flag);
            }
        }
        return options;
    }

    /** One line: protocol, address and codec. */
    String describe(int boundPort) {
        return (tls ? "TLS (ALPN h2, http/1.1)" : "h2c (prior knowledge, Upgrade: h2c)") + " on " + host + ':'
                + boundPort + ", "
                + (stockCodec ? "Netty's Http2FrameCodec" : "pooled codec")
                + (paranoid != null && paranoid ? " (paranoid)" : "")
                + (reuseFrames != null && !reuseFrames ? " (reuse off)" : "");
    }
}
