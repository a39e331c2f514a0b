package org.medjava.cli.dev;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.medjava.cli.command.Context;
import org.medjava.cli.command.Processes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code medjava fuzz [ROUNDS]}: every @FuzzTest (Jazzer) for its maxDuration, each in its own JVM (Jazzer fuzzes
 * one test a JVM). A round goes on from the corpus the last one grew (<module>/.cifuzz-corpus); a crashing input is
 * written into the test's committed Inputs directory, which every test run replays, and fails the round. PixelMed
 * is instrumented for guidance. A finding is also printed in base64: a CI clone, and the input in it, is gone after
 * the run.
 */
@Command(name = "fuzz", description = "Fuzz the DICOM, image and multipart parsers (~4 min a round).")
public final class FuzzCommand implements Callable<Integer> {
    static final Map<String, String> ENV = Map.of("JAZZER_FUZZ", "1", "JAZZER_INSTRUMENT", "org.medjava.**,com.pixelmed.**");

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "ROUNDS", defaultValue = "1", description = "how many rounds (default ${DEFAULT-VALUE})")
    int rounds;

    /** One round's Maven command (run with {@link #ENV}, in the checkout). */
    static List<String> round(Context ctx) {
        return Processes.mvnw(ctx, "-q", "-pl", "image-codec,dicom-net", "-am", "test", "-Dtest=*FuzzTest",
                "-Dsurefire.failIfNoSpecifiedTests=false", "-DreuseForks=false", "-Djazzer.hooks=true");
    }

    @Override
    public Integer call() {
        Context ctx = Context.of(spec);
        for (int round = 1; round <= rounds; round++) {
            ctx.out().println("fuzzing round " + round + " of " + rounds);
            int status = Processes.run(round(ctx), ctx.root(), ENV);
            if (status != 0) {
                reportFindings(ctx);
                return 1;
            }
        }
        return 0;
    }

    /** The new (untracked) inputs in the fuzz tests' Inputs directories, in base64. */
    static void reportFindings(Context ctx) {
        try {
            Process git = new ProcessBuilder("git", "-C", ctx.root().toString(), "ls-files", "--others",
                    "--exclude-standard", "--", "*FuzzTestInputs/*").redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            for (String found : new String(git.getInputStream().readAllBytes()).lines().toList()) {
                byte[] input = Files.readAllBytes(ctx.root().resolve(found));
                ctx.out().println("fuzz finding: " + found + " (" + input.length + " bytes), base64 (base64 -d > "
                        + Path.of(found).getFileName() + "):");
                ctx.out().println(Base64.getEncoder().encodeToString(input));
            }
        } catch (IOException e) {
            ctx.err().println("cannot list the fuzz findings: " + e.getMessage());
        }
    }
}
