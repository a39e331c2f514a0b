package org.medjava.bench.ffm;

import java.util.Arrays;
import org.medjava.bench.setup.ImageSize;
import org.medjava.bench.setup.TestImages;

/**
 * {@code java [--enable-native-access=ALL-UNNAMED] -cp ... org.medjava.bench.ffm.CrossCheck [SIZE]}: every path this
 * JDK can run (JNI; FFM from JDK 22) over the same {@code SIZE}² frame (default 256), each operation's result
 * against JNI's. Prints one line per path and check, {@code identical} or {@code DIFFERENT}; exit 1 when anything
 * differs. The FFM side's test runs it on JDK 25 (FFM code cannot load into the JDK 17 test JVM).
 */
public final class CrossCheck {
    private CrossCheck() {
    }

    public static void main(String[] args) {
        ImageSize size = ImageSize.parse(args.length > 0 ? args[0] : "256");
        byte[] src = TestImages.xorshift(size).rgb();
        byte[] expected;
        try (NativeCalls jni = NativeCalls.open("jni")) {
            expected = blur(jni, src, size);
        }
        boolean allSame = true;
        for (String path : NativeCalls.ffmAvailable() ? new String[] {"jni", "ffm"} : new String[] {"jni"}) {
            try (NativeCalls calls = NativeCalls.open(path)) {
                allSame &= report(path, "blur", Arrays.equals(blur(calls, src, size), expected));
                byte[] dst = new byte[src.length];
                int rc = calls.passCopy(src, dst);
                allSame &= report(path, "passCopy", rc == (src[0] & 0xff) && dst[0] == src[0]
                        && dst[dst.length - 1] == src[src.length - 1]);
                dst = new byte[src.length];
                rc = calls.passPinned(src, dst);
                allSame &= report(path, "passPinned", rc == (src[0] & 0xff) && dst[0] == src[0]
                        && dst[dst.length - 1] == src[src.length - 1]);
                calls.allocateOffHeap(src.length);
                allSame &= report(path, "passOffHeap", calls.passOffHeap() == 0); // fresh native memory is zeroed
                calls.empty();
            }
        }
        System.exit(allSame ? 0 : 1);
    }

    private static byte[] blur(NativeCalls calls, byte[] src, ImageSize size) {
        byte[] dst = src.clone();
        calls.blur(src, dst, size.width(), size.height());
        return dst;
    }

    private static boolean report(String path, String check, boolean same) {
        System.out.println(path + " " + check + " " + (same ? "identical" : "DIFFERENT"));
        return same;
    }
}
