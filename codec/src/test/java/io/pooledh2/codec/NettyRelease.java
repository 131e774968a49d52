/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.util.Version;

/**
 * The Netty 4.2 release the tests run on, read from the jar's version properties: the tests' own record of which
 * behaviour to expect, independent of how the codec detects Netty's API ({@link NettyApi}).
 */
final class NettyRelease {

    /** The netty-codec-http2 release on the class path, such as {@code 4.2.20.Final}. */
    static final String VERSION = artifactVersion("netty-codec-http2");
    /** Its patch number. */
    static final int PATCH = patch(VERSION);

    private NettyRelease() {
    }

    /** Whether the class path has Netty 4.2.{@code patch} or newer. */
    static boolean atLeast(int patch) {
        return PATCH >= patch;
    }

    /** The version of Netty's {@code artifact} on the class path. */
    static String artifactVersion(String artifact) {
        Version version = Version.identify().get(artifact);
        if (version == null) {
            throw new IllegalStateException(artifact + " has no version properties");
        }
        return version.artifactVersion();
    }

    private static int patch(String version) {
        String[] parts = version.split("\\.");
        if (parts.length < 3 || !"4".equals(parts[0]) || !"2".equals(parts[1])) {
            throw new IllegalStateException("not a Netty 4.2 release: " + version);
        }
        return Integer.parseInt(parts[2]);
    }
}
