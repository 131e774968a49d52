/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http2.Http2Headers.PseudoHeaderName;
import io.netty.util.AsciiString;

/**
 * HPACK's static table (RFC 7541, appendix A), indexes 1 to {@value #LENGTH}, with the same name and value
 * instances as Netty's {@code HpackStaticTable} (Netty's header name, method and status constants), and for each
 * entry which of Netty's validators its name and value pass ({@link PooledHttp2Headers#NAME_VALID},
 * {@link PooledHttp2Headers#VALUE_VALID}), worked out once with the validators on the class path.
 */
final class StaticHeaderTable {

    static final int LENGTH = 61;

    private static final AsciiString[] NAMES = new AsciiString[LENGTH + 1];
    private static final AsciiString[] VALUES = new AsciiString[LENGTH + 1];
    private static final byte[] VALID = new byte[LENGTH + 1];
    private static final int[] NAME_HASHES = new int[LENGTH + 1];

    static {
        int i = 1;
        i = add(i, PseudoHeaderName.AUTHORITY.value(), AsciiString.EMPTY_STRING);
        i = add(i, PseudoHeaderName.METHOD.value(), HttpMethod.GET.asciiName());
        i = add(i, PseudoHeaderName.METHOD.value(), HttpMethod.POST.asciiName());
        i = add(i, PseudoHeaderName.PATH.value(), AsciiString.cached("/"));
        i = add(i, PseudoHeaderName.PATH.value(), AsciiString.cached("/index.html"));
        i = add(i, PseudoHeaderName.SCHEME.value(), AsciiString.cached("http"));
        i = add(i, PseudoHeaderName.SCHEME.value(), AsciiString.cached("https"));
        i = add(i, PseudoHeaderName.STATUS.value(), HttpResponseStatus.OK.codeAsText());
        i = add(i, PseudoHeaderName.STATUS.value(), HttpResponseStatus.NO_CONTENT.codeAsText());
        i = add(i, PseudoHeaderName.STATUS.value(), HttpResponseStatus.PARTIAL_CONTENT.codeAsText());
        i = add(i, PseudoHeaderName.STATUS.value(), HttpResponseStatus.NOT_MODIFIED.codeAsText());
        i = add(i, PseudoHeaderName.STATUS.value(), HttpResponseStatus.BAD_REQUEST.codeAsText());
        i = add(i, PseudoHeaderName.STATUS.value(), HttpResponseStatus.NOT_FOUND.codeAsText());
        i = add(i, PseudoHeaderName.STATUS.value(), HttpResponseStatus.INTERNAL_SERVER_ERROR.codeAsText());
        i = add(i, HttpHeaderNames.ACCEPT_CHARSET, AsciiString.EMPTY_STRING);
        i = add(i, HttpHeaderNames.ACCEPT_ENCODING, AsciiString.cached("gzip, deflate"));
        AsciiString[] emptyValued = {
            HttpHeaderNames.ACCEPT_LANGUAGE, HttpHeaderNames.ACCEPT_RANGES, HttpHeaderNames.ACCEPT,
            HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, HttpHeaderNames.AGE, HttpHeaderNames.ALLOW,
            HttpHeaderNames.AUTHORIZATION, HttpHeaderNames.CACHE_CONTROL, HttpHeaderNames.CONTENT_DISPOSITION,
            HttpHeaderNames.CONTENT_ENCODING, HttpHeaderNames.CONTENT_LANGUAGE, HttpHeaderNames.CONTENT_LENGTH,
            HttpHeaderNames.CONTENT_LOCATION, HttpHeaderNames.CONTENT_RANGE, HttpHeaderNames.CONTENT_TYPE,
            HttpHeaderNames.COOKIE, HttpHeaderNames.DATE, HttpHeaderNames.ETAG, HttpHeaderNames.EXPECT,
            HttpHeaderNames.EXPIRES, HttpHeaderNames.FROM, HttpHeaderNames.HOST, HttpHeaderNames.IF_MATCH,
            HttpHeaderNames.IF_MODIFIED_SINCE, HttpHeaderNames.IF_NONE_MATCH, HttpHeaderNames.IF_RANGE,
            HttpHeaderNames.IF_UNMODIFIED_SINCE, HttpHeaderNames.LAST_MODIFIED, AsciiString.cached("link"),
            HttpHeaderNames.LOCATION, HttpHeaderNames.MAX_FORWARDS, HttpHeaderNames.PROXY_AUTHENTICATE,
            HttpHeaderNames.PROXY_AUTHORIZATION, HttpHeaderNames.RANGE, HttpHeaderNames.REFERER,
            AsciiString.cached("refresh"), HttpHeaderNames.RETRY_AFTER, HttpHeaderNames.SERVER,
            HttpHeaderNames.SET_COOKIE, AsciiString.cached("strict-transport-security"),
            HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderNames.USER_AGENT, HttpHeaderNames.VARY, HttpHeaderNames.VIA,
            HttpHeaderNames.WWW_AUTHENTICATE,
        };
        for (AsciiString name : emptyValued) {
            i = add(i, name, AsciiString.EMPTY_STRING);
        }
        if (i != LENGTH + 1) {
            throw new AssertionError(i);
        }
    }

    private StaticHeaderTable() {
    }

    private static int add(int index, AsciiString name, AsciiString value) {
        NAMES[index] = name;
        VALUES[index] = value;
        VALID[index] = (byte) PooledHttp2Headers.validity(name, value);
        NAME_HASHES[index] = name.hashCode();
        return index + 1;
    }

    /** The name of entry {@code index}, 1 to {@value #LENGTH}. */
    static AsciiString name(int index) {
        return NAMES[index];
    }

    static AsciiString value(int index) {
        return VALUES[index];
    }

    /** The hash of entry {@code index}'s name ({@link SeenHeaderStrings#hash}: {@code AsciiString}'s). */
    static int nameHash(int index) {
        return NAME_HASHES[index];
    }

    /** Which validators entry {@code index}'s name and value pass. */
    static int valid(int index) {
        return VALID[index];
    }
}
