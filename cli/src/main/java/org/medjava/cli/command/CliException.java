package org.medjava.cli.command;

/**
 * A failure the user can act on: its message is the one line printed (what, why, what to do), with no stack trace;
 * its exit code is 1 unless said (2: a usage error).
 */
public class CliException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int exitCode;

    public CliException(String message) {
        this(message, 1);
    }

    public CliException(String message, int exitCode) {
        super(message);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}
