package org.medjava.bench.ffm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.medjava.bench.jni.CBuild;
import org.medjava.bench.jni.CFilters;
import org.medjava.bench.setup.ImageSize;
import org.medjava.bench.setup.JvmColumn;
import org.medjava.bench.setup.TestImages;
import org.medjava.filter.Raster;

/**
 * The JNI-vs-FFM benchmark's two paths compute what the filter bridge computes: JNI here (JDK 17), and FFM against
 * JNI byte for byte in a JDK 25 process ({@link CrossCheck}), since FFM code cannot load into this JVM.
 */
class NativeCallsTest {
    @Test
    void jniBlurEqualsTheFilterBridgesBlur() {
        ImageSize size = new ImageSize(96, 64);
        Raster src = TestImages.xorshift(size);
        byte[] viaBench = src.rgb().clone();
        try (NativeCalls jni = NativeCalls.open("jni")) {
            jni.blur(src.rgb(), viaBench, size.width(), size.height());
        }
        Raster viaBridge = src.copy();
        try (CFilters.Prepared blur = CFilters.of(CBuild.O2).prepare("blur", "")) {
            blur.run(CFilters.OPTIMIZED, src, viaBridge);
        }
        assertThat(viaBench).isEqualTo(viaBridge.rgb()).isNotEqualTo(src.rgb());
    }

    @Test
    void jniPassesTheFrameEveryWay() {
        byte[] src = TestImages.xorshift(new ImageSize(32, 32)).rgb();
        try (NativeCalls jni = NativeCalls.open("jni")) {
            jni.empty();
            byte[] dst = new byte[src.length];
            assertThat(jni.passCopy(src, dst)).isEqualTo(src[0] & 0xff);
            assertThat(dst[dst.length - 1]).isEqualTo(src[src.length - 1]);
            dst = new byte[src.length];
            assertThat(jni.passPinned(src, dst)).isEqualTo(src[0] & 0xff);
            assertThat(dst[dst.length - 1]).isEqualTo(src[src.length - 1]);
            jni.allocateOffHeap(src.length);
            assertThat(jni.passOffHeap()).isZero();
        }
    }

    @Test
    void ffmOnJdk25GivesJnisBytes() throws Exception {
        assumeTrue(JvmColumn.jdk25Installed(), "JDK 25 not installed");
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process p = new ProcessBuilder(JvmColumn.jdk25Home().resolve("bin/java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-Dmedjava.root=" + System.getProperty("medjava.root"),
                "-Dmedjava.bench.native.dir=" + System.getProperty("medjava.bench.native.dir"),
                "-cp", classPath, CrossCheck.class.getName(), "200x120").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("ffm blur identical", "ffm passCopy identical", "ffm passPinned identical",
                "ffm passOffHeap identical", "jni blur identical").doesNotContain("DIFFERENT");
        assertThat(Path.of(System.getProperty("medjava.bench.native.dir"), "libmedjava_callbench.so")).isRegularFile();
    }
}
