/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.server;

/** The values of command-line flags, for the server's and the client's options: a bad one is a clear message. */
public final class FlagValues {

    private FlagValues() {
    }

    /** The value after {@code flag}, at {@code args[i]}. */
    public static String value(String[] args, int i, String flag) {
        if (i >= args.length) {
            throw new IllegalArgumentException(flag + " needs a value");
        }
        return args[i];
    }

    /** The value after {@code flag}, at {@code args[i]}, as a number. */
    public static long number(String[] args, int i, String flag) {
        String value = value(args, i, flag);
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + ": not a number: " + value);
        }
    }

    /** The value after {@code flag}, at {@code args[i]}, as an {@code int}. */
    public static int intNumber(String[] args, int i, String flag) {
        long n = number(args, i, flag);
        if (n != (int) n) {
            throw new IllegalArgumentException(flag + ": out of range: " + n);
        }
        return (int) n;
    }
}
