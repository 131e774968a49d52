/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.server;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ways into the server, with the JDK's own HTTP client (no curl needed): h2c by HTTP/1.1 Upgrade, TLS with
 * ALPN h2 on a certificate the server made at start (on this JDK: BouncyCastle through netty-pkitesting), and
 * the answer to HTTP/1.1 without upgrade.
 */
class ServerProtocolsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    @Test
    void h2cUpgradeFromHttp11() throws Exception {
        ExampleServer server = new ExampleServer(new ServerOptions().port(0)).start();
        try {
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                    .connectTimeout(TIMEOUT).build();
            URI base = URI.create("http://127.0.0.1:" + server.port());
            // The first request upgrades the connection; the second goes on HTTP/2 directly.
            for (int i = 0; i < 2; i++) {
                HttpResponse<byte[]> hello = client.send(HttpRequest.newBuilder(base.resolve("/hello"))
                        .timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofByteArray());
                assertEquals(HttpClient.Version.HTTP_2, hello.version());
                assertEquals(200, hello.statusCode());
                assertArrayEquals(ExampleContent.helloBody(), hello.body());
            }
            HttpResponse<String> echo = client.send(HttpRequest.newBuilder(base.resolve("/echo"))
                    .timeout(TIMEOUT).header("x-echo-id", "jdk")
                    .POST(HttpRequest.BodyPublishers.ofString("echo me")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(HttpClient.Version.HTTP_2, echo.version());
            assertEquals("echo me", echo.body());
            assertEquals("jdk", echo.headers().firstValue("x-echo-id").orElse(null));
        } finally {
            server.stop();
        }
    }

    @Test
    void tlsWithAlpnH2() throws Exception {
        ExampleServer server = new ExampleServer(new ServerOptions().port(0).tls(true)).start();
        try {
            SSLContext trustAll = SSLContext.getInstance("TLS");
            trustAll.init(null, new TrustManager[] {new TrustAll()}, new SecureRandom());
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(trustAll)
                    .connectTimeout(TIMEOUT).build();
            HttpResponse<byte[]> hello = client.send(HttpRequest.newBuilder(
                    URI.create("https://localhost:" + server.port() + "/hello")).timeout(TIMEOUT).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(HttpClient.Version.HTTP_2, hello.version());
            assertArrayEquals(ExampleContent.helloBody(), hello.body());
        } finally {
            server.stop();
        }
    }

    @Test
    void http11WithoutUpgradeGets505() throws Exception {
        ExampleServer server = new ExampleServer(new ServerOptions().port(0)).start();
        try {
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(TIMEOUT).build();
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.port() + "/hello")).timeout(TIMEOUT).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(HttpClient.Version.HTTP_1_1, response.version());
            assertEquals(505, response.statusCode());
            assertTrue(response.body().contains("HTTP/2 only"), response.body());
        } finally {
            server.stop();
        }
    }

    /** h2spec 3.5/2: bytes that are neither the preface nor HTTP/1.1 close the connection, with no answer. */
    @Test
    void invalidConnectionPrefaceClosesTheConnectionWithoutAnswer() throws Exception {
        ExampleServer server = new ExampleServer(new ServerOptions().port(0)).start();
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout((int) TIMEOUT.toMillis());
            socket.getOutputStream().write(
                    "INVALID CONNECTION PREFACE\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            // A read that times out fails the test; the server must close, having written nothing.
            assertEquals(-1, socket.getInputStream().read());
        } finally {
            server.stop();
        }
    }

    /** The server's certificate is self-signed and made at start: the test trusts whatever it presents. */
    private static final class TrustAll implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
