package org.medjava.cli.dev;

import java.util.concurrent.Callable;
import org.medjava.cli.command.Context;
import org.medjava.cli.command.Processes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code medjava build}: everything, without tests (the bootstrap's tools first). */
@Command(name = "build", description = "Build everything without tests (./mvnw install -DskipTests).")
public final class BuildCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Processes.buildAll(Context.of(spec));
        return 0;
    }
}
