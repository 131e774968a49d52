/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.server;

import io.pooledh2.codec.PooledHttp2FrameReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The codec's jar on the module path: its manifest names it {@code io.pooledh2.codec}, and a program (
 * {@link ModulePathProbe}, on the class path) that requires that module by name runs and uses the codec. A copy of
 * the same jar without the {@code Automatic-Module-Name} entry fails the same way of starting, which shows that
 * the test depends on the entry. An integration test (failsafe, after {@code package}): it needs the codec's jar,
 * not its classes directory.
 */
class ModulePathIT {

    private static final String MODULE = "io.pooledh2.codec";

    @TempDir
    Path dir;

    @Test
    void theCodecIsTheModuleIoPooledh2Codec() throws Exception {
        Path codecJar = codeSource(PooledHttp2FrameReader.class);
        assertTrue(codecJar.toString().endsWith(".jar"), "the codec must be on the class path as its jar (run "
                + "after package, e.g. mvn verify): " + codecJar);
        try (JarFile jar = new JarFile(codecJar.toFile())) {
            assertEquals(MODULE, jar.getManifest().getMainAttributes().getValue("Automatic-Module-Name"));
        }

        Result named = launch(codecJar);
        assertEquals(0, named.exitCode, named.output);
        assertTrue(named.output.startsWith("ok: " + MODULE), named.output);

        Result unnamed = launch(withoutModuleName(codecJar));
        assertNotEquals(0, unnamed.exitCode, unnamed.output);
        assertTrue(unnamed.output.contains("Module " + MODULE + " not found"), unnamed.output);
    }

    private record Result(int exitCode, String output) {
    }

    /**
     * java --module-path codec + Netty --add-modules io.pooledh2.codec,io.netty.codec.http2 -cp probe ModulePathProbe
     */
    private static Result launch(Path codecJar) throws Exception {
        List<String> modulePath = new ArrayList<>();
        modulePath.add(codecJar.toString());
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            String name = Path.of(entry).getFileName().toString();
            // Netty's jars are modules of their own; pkitesting would need BouncyCastle, which the codec does not.
            if (name.startsWith("netty-") && name.endsWith(".jar") && !name.startsWith("netty-pkitesting")) {
                modulePath.add(entry);
            }
        }
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--module-path", String.join(File.pathSeparator, modulePath),
                // The codec by its name; Netty's HTTP/2 module brings the Netty modules it requires. (An automatic
                // module reads every module, but resolving one does not resolve the explicit modules it uses.)
                "--add-modules", MODULE + ",io.netty.codec.http2",
                "-cp", codeSource(ModulePathProbe.class).toString(),
                ModulePathProbe.class.getName());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("did not exit: " + command);
        }
        return new Result(process.exitValue(), output + "\n(command: " + command + ")");
    }

    /** A copy of {@code jar} whose manifest lacks Automatic-Module-Name: the negative control. */
    private Path withoutModuleName(Path jar) throws IOException {
        Path copy = dir.resolve("pooledh2-codec-without-name.jar");
        try (JarFile in = new JarFile(jar.toFile())) {
            Manifest manifest = new Manifest(in.getManifest());
            manifest.getMainAttributes().remove(new Attributes.Name("Automatic-Module-Name"));
            try (OutputStream file = Files.newOutputStream(copy);
                    JarOutputStream out = new JarOutputStream(file, manifest)) {
                for (Enumeration<JarEntry> entries = in.entries(); entries.hasMoreElements(); ) {
                    JarEntry entry = entries.nextElement();
                    if (entry.getName().equalsIgnoreCase(JarFile.MANIFEST_NAME)) {
                        continue;
                    }
                    out.putNextEntry(new JarEntry(entry.getName()));
                    try (InputStream bytes = in.getInputStream(entry)) {
                        bytes.transferTo(out);
                    }
                    out.closeEntry();
                }
            }
        }
        return copy;
    }

    private static Path codeSource(Class<?> type) throws Exception {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
