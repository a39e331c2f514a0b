package org.medjava.codec.dicom;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Loads one of image-codec's JNI bridges (src/main/c), which the build compiles into this jar, and says in a sentence
 * why not when it cannot: another platform, a build without the headers, or the codec library itself missing (then
 * naming its Debian package), so a store without it answers 422 for those objects rather than failing.
 */
final class NativeBridge {
    private static final String DIRECTORY = "/org/medjava/codec/native/linux-x86_64/";

    private NativeBridge() {
    }

    /**
     * One bridge and the codec library behind it.
     *
     * @param bridge         the bridge's file name in the jar, e.g. {@code libmedjava_charls.so}
     * @param format         what it is for, e.g. "JPEG-LS"
     * @param name           the codec library's name, e.g. "CharLS"
     * @param soname         its file name as the loader reports it missing, e.g. {@code libcharls.so.2}
     * @param runtimePackage its Debian package, e.g. "libcharls2"
     * @param headersPackage the Debian package of its headers, which the build needs, e.g. "libcharls-dev"
     */
    record Spec(String bridge, String format, String name, String soname, String runtimePackage,
                String headersPackage) {
    }

    /**
     * @param probe a call into the bridge that proves the codec library resolved
     * @return null when loaded, else why not
     */
    static String load(Spec spec, Runnable probe) {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")
                || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            return spec.format + " needs the " + spec.name + " bridge, built only for Linux x86-64 (this is "
                    + System.getProperty("os.name") + " " + arch + ")";
        }
        try (InputStream in = NativeBridge.class.getResourceAsStream(DIRECTORY + spec.bridge)) {
            if (in == null) {
                return spec.format + " needs the " + spec.name + " bridge, which this build of image-codec lacks "
                        + "(built without " + spec.headersPackage + "?)";
            }
            Path file = Files.createTempFile(spec.bridge.replace(".so", ""), ".so");
            file.toFile().deleteOnExit();
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            System.load(file.toAbsolutePath().toString());
            probe.run();
            return null;
        } catch (UnsatisfiedLinkError e) {
            return whyNotLoaded(spec, e);
        } catch (IOException | SecurityException e) {
            return spec.format + " needs the " + spec.name + " bridge, which could not be unpacked: "
                    + e.getMessage();
        }
    }

    /** What a failed load says to the user: the missing Debian package when it is the codec library itself. */
    static String whyNotLoaded(Spec spec, UnsatisfiedLinkError e) {
        String message = String.valueOf(e.getMessage());
        return message.contains(spec.soname)
                ? spec.format + " needs the " + spec.name + " library " + spec.soname + " (Debian package "
                        + spec.runtimePackage + "), which is not installed"
                : spec.format + " needs the " + spec.name + " bridge, which could not be loaded: " + message;
    }
}
