package org.medjava.cli.store;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.medjava.cli.command.CliException;

/**
 * The store's own TLS certificate when the administrator gives none: made on the first start by the JDK's keytool
 * (self-signed, EC P-256, two years, for this machine's name, {@code localhost}, its loopback and interface
 * addresses) in a PKCS#12 whose random password sits beside it; both readable by the owner only, in a directory only
 * the owner may enter. It serves HTTPS and DICOM TLS, and authenticates the store to DICOM TLS peers that ask for a
 * client certificate (hence clientAuth beside serverAuth).
 *
 * @param created whether this start made it (its fingerprint is then worth showing)
 */
public record StoreCertificate(Path keystore, String password, String fingerprint, boolean created) {
    static final String ALIAS = "medjava";
    static final int VALIDITY_DAYS = 730;

    /** {@code keystore}'s password file. */
    public static Path passwordFile(Path keystore) {
        return keystore.resolveSibling(keystore.getFileName() + ".password");
    }

    /** The certificate in {@code keystore}, made first when it does not exist. */
    public static StoreCertificate ensure(Path keystore) throws IOException {
        Path passwordFile = passwordFile(keystore);
        boolean created = false;
        if (!Files.isRegularFile(keystore) || !Files.isRegularFile(passwordFile)) {
            create(keystore, names(), addresses());
            created = true;
        }
        String password = Files.readString(passwordFile, StandardCharsets.UTF_8).strip();
        try {
            return new StoreCertificate(keystore, password,
                    fingerprint(KeyStore.getInstance(keystore.toFile(), password.toCharArray())), created);
        } catch (GeneralSecurityException | IOException e) {
            throw new CliException("cannot open the store's certificate " + keystore + " with the password in "
                    + passwordFile + " (" + e.getMessage() + "); delete both to have a new one made", 1);
        }
    }

    /** Makes a new key store with a new password; both replace what was there. */
    static void create(Path keystore, List<String> names, List<String> addresses) throws IOException {
        Path dir = keystore.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        byte[] random = new byte[24];
        new SecureRandom().nextBytes(random);
        String password = HexFormat.of().formatHex(random);
        Path temp = dir.resolve(keystore.getFileName() + ".new");
        Files.deleteIfExists(temp);
        List<String> san = new ArrayList<>();
        names.forEach(n -> san.add("dns:" + n));
        addresses.forEach(a -> san.add("ip:" + a));
        // the password reaches keytool through its environment, not its command line (which ps shows everyone)
        ProcessBuilder keytool = new ProcessBuilder(keytool(), "-genkeypair", "-noprompt", "-alias", ALIAS,
                "-keyalg", "EC", "-groupname", "secp256r1", "-sigalg", "SHA256withECDSA",
                "-validity", Integer.toString(VALIDITY_DAYS), "-dname", "CN=" + names.get(0) + ", O=MedJava image store",
                "-ext", "SAN=" + String.join(",", san), "-ext", "EKU=serverAuth,clientAuth", "-ext", "KU=digitalSignature",
                "-storetype", "PKCS12", "-keystore", temp.toString(),
                "-storepass:env", "MEDJAVA_KEYTOOL_PASSWORD", "-keypass:env", "MEDJAVA_KEYTOOL_PASSWORD")
                .redirectErrorStream(true);
        keytool.environment().put("MEDJAVA_KEYTOOL_PASSWORD", password);
        Process process = keytool.start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (process.waitFor() != 0) {
                Files.deleteIfExists(temp);
                throw new CliException("keytool could not make the store's certificate: " + output.strip(), 1);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException("interrupted while making the store's certificate", 1);
        }
        Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rw-------"));
        Path passwordFile = passwordFile(keystore);
        Path passwordTemp = dir.resolve(passwordFile.getFileName() + ".new");
        Files.deleteIfExists(passwordTemp);
        Files.createFile(passwordTemp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(passwordTemp, password + "\n", StandardCharsets.UTF_8);
        Files.move(passwordTemp, passwordFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        Files.move(temp, keystore, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** The JDK's keytool beside the java running this command. */
    static String keytool() {
        Path java = ProcessHandle.current().info().command().map(Path::of)
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java"));
        Path keytool = java.resolveSibling("keytool");
        return Files.isExecutable(keytool) ? keytool.toString()
                : Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    }

    /** This machine's name (and its fully qualified one), then {@code localhost}. */
    static List<String> names() {
        Set<String> names = new LinkedHashSet<>();
        try {
            InetAddress local = InetAddress.getLocalHost();
            for (String name : List.of(local.getHostName(), local.getCanonicalHostName())) {
                if (name.matches("[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*")
                        && !name.matches("[0-9.]+")) {
                    names.add(name.toLowerCase(java.util.Locale.ROOT));
                }
            }
        } catch (UnknownHostException e) {
            // a machine without a resolvable name: localhost and its addresses only
        }
        names.add("localhost");
        return List.copyOf(names);
    }

    /** The loopback addresses, then those of the interfaces that are up (not link-local: they need a zone). */
    static List<String> addresses() {
        Set<String> addresses = new LinkedHashSet<>(List.of("127.0.0.1", "::1"));
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (nic.isUp()) {
                    Collections.list(nic.getInetAddresses()).stream()
                            .filter(a -> !a.isLinkLocalAddress() && !a.isLoopbackAddress())
                            .forEach(a -> addresses.add(a.getHostAddress().replaceAll("%.*", "")));
                }
            }
        } catch (SocketException e) {
            // no interfaces to list: the loopback only
        }
        return List.copyOf(addresses);
    }

    /** The SHA-256 of the first key entry's certificate, as browsers show it (AB:CD:...). */
    static String fingerprint(KeyStore store) throws GeneralSecurityException {
        for (String alias : Collections.list(store.aliases())) {
            Certificate certificate = store.isKeyEntry(alias) ? store.getCertificate(alias) : null;
            if (certificate != null) {
                byte[] digest = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
                return HexFormat.ofDelimiter(":").withUpperCase().formatHex(digest);
            }
        }
        throw new GeneralSecurityException("no key entry");
    }
}
