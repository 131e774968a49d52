/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.server;

import io.netty.handler.codec.http2.Http2SecurityUtil;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import io.netty.pkitesting.CertificateBuilder;
import io.netty.pkitesting.X509Bundle;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The server's TLS context: a self-signed certificate for {@code localhost} and {@code 127.0.0.1} made at
 * start (with Netty's {@code netty-pkitesting}, which uses BouncyCastle), ALPN offering h2 then http/1.1, the
 * JDK's TLS. Clients must skip verification ({@code curl -k}).
 */
final class SelfSignedTls {

    private SelfSignedTls() {
    }

    static SslContext newServerContext() throws Exception {
        Instant now = Instant.now();
        X509Bundle certificate = new CertificateBuilder()
                .subject("CN=localhost")
                .addSanDnsName("localhost")
                .addSanIpAddress("127.0.0.1")
                .notBefore(now.minus(1, ChronoUnit.DAYS))
                .notAfter(now.plus(30, ChronoUnit.DAYS))
                .ecp256()
                // buildSelfSigned() wants a root: a CA that also serves.
                .setIsCertificateAuthority(true)
                .setKeyUsage(true, CertificateBuilder.KeyUsage.digitalSignature,
                        CertificateBuilder.KeyUsage.keyCertSign)
                .addExtendedKeyUsageServerAuth()
                .buildSelfSigned();
        return SslContextBuilder.forServer(certificate.getKeyPair().getPrivate(), certificate.getCertificate())
                .sslProvider(SslProvider.JDK)
                .ciphers(Http2SecurityUtil.CIPHERS, SupportedCipherSuiteFilter.INSTANCE)
                .applicationProtocolConfig(new ApplicationProtocolConfig(
                        ApplicationProtocolConfig.Protocol.ALPN,
                        ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                        ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1))
                .build();
    }
}
