package org.medjava.store.core.ingest;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * A body as it is received, whose first bytes are handed to a check as soon as they are in (or the body ends
 * sooner), before the rest is read: a refusal the check throws stops the receiving there, so a body that its header
 * already condemns is not received whole.
 */
final class HeadCheck extends FilterInputStream {

    private final Consumer<byte[]> check;
    private byte[] head;
    private int filled;

    /** @param length how many first bytes {@code check} gets */
    HeadCheck(InputStream body, int length, Consumer<byte[]> check) {
        super(body);
        this.check = check;
        this.head = new byte[length];
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (head != null) {
            if (n < 0) {
                checkHead(); // a body shorter than the head: all of it
            } else {
                int take = Math.min(n, head.length - filled);
                System.arraycopy(b, off, head, filled, take);
                filled += take;
                if (filled == head.length) {
                    checkHead();
                }
            }
        }
        return n;
    }

    private void checkHead() {
        byte[] first = Arrays.copyOf(head, filled);
        head = null;
        check.accept(first);
    }
}
