/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.server;

import io.netty.handler.codec.http2.Http2CodecUtil;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * The example server's settings: the command line (picocli reads the annotated fields, prints {@code --help}, and
 * names a bad flag in its error), or set directly with the fluent setters (tests, the client's demo).
 */
@Command(name = "pooledh2-server-example", mixinStandardHelpOptions = true, sortOptions = false,
        usageHelpAutoWidth = true,
        description = "An HTTP/2 server on the pooled frame codec (or Netty's, --stock): GET /hello (1 KiB), "
                + "POST /echo (body and trailers back), GET /download?size=N. Cleartext h2c with prior knowledge "
                + "or HTTP/1.1 Upgrade: h2c, or TLS with ALPN (--tls). Once it listens it prints the line "
                + "\"pooledh2 example server: <protocols> on <host>:<port>, <codec>, pipeline <name>\". "
                + "SIGTERM or Ctrl-C shuts it down gracefully: GOAWAY, streams in flight finish.",
        versionProvider = ServerOptions.Version.class)
public final class ServerOptions {

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--host", paramLabel = "ADDRESS", description = "address to listen on (default: ${DEFAULT-VALUE})")
    String host = "127.0.0.1";

    @Option(names = "--port", paramLabel = "N", description = "port; 0 picks a free one (default: ${DEFAULT-VALUE})")
    int port = 8080;

    @Option(names = "--tls", description = "TLS with ALPN (h2, http/1.1) and a self-signed certificate made at start, "
            + "instead of cleartext h2c")
    boolean tls;

    @Option(names = "--stock",
            description = "Netty's own codec (Http2FrameCodecBuilder, Http2ConnectionHandlerBuilder) "
                    + "instead of the pooled one")
    boolean stockCodec;

    @Option(names = "--pipeline", paramLabel = "multiplex|frames|listener",
            converter = PipelineConverter.class,
            description = "multiplex: frame codec + Http2MultiplexHandler, a child channel per stream; frames: frame "
                    + "codec + one frame handler; listener: Http2ConnectionHandler + Http2FrameListener "
                    + "(default: multiplex)")
    Pipeline pipeline = Pipeline.MULTIPLEX;

    @Option(names = "--data-frame-size", paramLabel = "N", description = "DATA frame size of /download responses, at "
            + "most the peer's SETTINGS_MAX_FRAME_SIZE (default: 16384)")
    void dataFrameSizeOption(int size) {
        if (size < 1 || size > Http2CodecUtil.MAX_FRAME_SIZE_UPPER_BOUND) {
            throw new CommandLine.ParameterException(spec.commandLine(), "Invalid value for option "
                    + "'--data-frame-size': " + size + " is not in 1.." + Http2CodecUtil.MAX_FRAME_SIZE_UPPER_BOUND);
        }
        dataFrameSize = size;
    }

    int dataFrameSize = Http2CodecUtil.DEFAULT_MAX_FRAME_SIZE;

    @Option(names = "--threads", paramLabel = "N", description = "event loop threads (default: Netty's, 2 x cores)")
    int threads;

    @Option(names = "--shutdown-timeout-ms", paramLabel = "N",
            description = "how long a graceful shutdown waits for streams in flight (default: ${DEFAULT-VALUE})")
    long shutdownTimeoutMillis = 10_000;

    /** Null: the codec's default, from the system property. */
    Boolean paranoid;
    Boolean reuseFrames;

    @Option(names = "--paranoid", description = "pooled codec in paranoid mode (also -Dio.pooledh2.paranoid=true)")
    void paranoidOption(boolean on) {
        paranoid = on ? Boolean.TRUE : null;
    }

    @Option(names = "--no-reuse",
            description = "pooled codec without frame reuse (also -Dio.pooledh2.reuseFrames=false)")
    void noReuseOption(boolean on) {
        reuseFrames = on ? Boolean.FALSE : null;
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

    /** {@code true}: Netty's own builders; {@code false} (default): the pooled codec. */
    public ServerOptions stockCodec(boolean stockCodec) {
        this.stockCodec = stockCodec;
        return this;
    }

    public ServerOptions pipeline(Pipeline pipeline) {
        this.pipeline = pipeline;
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

    public Pipeline pipeline() {
        return pipeline;
    }

    /** One line: protocol, address, codec and pipeline. */
    String describe(int boundPort) {
        return (tls ? "TLS (ALPN h2, http/1.1)" : "h2c (prior knowledge, Upgrade: h2c)") + " on " + host + ':'
                + boundPort + ", "
                + (stockCodec
                        ? (pipeline == Pipeline.LISTENER ? "Netty's Http2ConnectionHandler" : "Netty's Http2FrameCodec")
                                + " (priority-tree scheduling)"
                        : "pooled codec (RFC 9113 scheduling)")
                + (paranoid != null && paranoid ? " (paranoid)" : "")
                + (reuseFrames != null && !reuseFrames ? " (reuse off)" : "")
                + ", pipeline " + pipeline.name().toLowerCase(Locale.ROOT);
    }

    /** {@code --pipeline}: the lower-case names the help shows, in any case. */
    static final class PipelineConverter implements CommandLine.ITypeConverter<Pipeline> {
        @Override
        public Pipeline convert(String value) {
            for (Pipeline pipeline : Pipeline.values()) {
                if (pipeline.name().equalsIgnoreCase(value)) {
                    return pipeline;
                }
            }
            throw new CommandLine.TypeConversionException("'" + value + "' is not one of multiplex, frames, listener");
        }
    }

    /** {@code --version}: the project's version, from the jar's manifest when there is one. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = ServerOptions.class.getPackage().getImplementationVersion();
            return new String[] {"pooledh2 server example " + (version == null ? "(development build)" : version)};
        }
    }
}
