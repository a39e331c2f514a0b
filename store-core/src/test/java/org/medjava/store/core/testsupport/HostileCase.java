package org.medjava.store.core.testsupport;

import java.util.function.Supplier;

/**
 * One row of a bad-input corpus: a request (method, target exactly as sent, header lines, a body made on demand)
 * and what the store must answer. Built with {@link #of}; the expectation defaults to "some 4xx".
 *
 * @param group          what the case probes (a heading in the report)
 * @param expectedStatus an exact status, or 0 for any 4xx, or -1 for anything below 500
 * @param admissionControl a 503 with Retry-After is allowed (a case about admission control)
 * @param emptyBodyWhy   null, or why an empty 4xx body is accepted (the container refused before the application)
 * @param mustNotContain text that must appear neither in the body nor in the Location header
 * @param dropAfter      -1, or the number of body bytes after which the connection is reset instead of answered
 */
public record HostileCase(String group, String name, String method, String target, String headers,
                          Supplier<byte[]> body, int expectedStatus, boolean admissionControl, String emptyBodyWhy,
                          String mustNotContain, int dropAfter) {

    public static HostileCase of(String group, String name, String method, String target) {
        return new HostileCase(group, name, method, target, "", null, 0, false, null, null, -1);
    }

    public HostileCase headers(String lines) {
        return new HostileCase(group, name, method, target, headers + lines, body, expectedStatus, admissionControl,
                emptyBodyWhy, mustNotContain, dropAfter);
    }

    public HostileCase header(String name, String value) {
        return headers(name + ": " + value + "\r\n");
    }

    public HostileCase body(Supplier<byte[]> body) {
        return new HostileCase(group, name, method, target, headers, body, expectedStatus, admissionControl,
                emptyBodyWhy, mustNotContain, dropAfter);
    }

    public HostileCase body(byte[] body) {
        return body(() -> body);
    }

    public HostileCase expect(int status) {
        return new HostileCase(group, name, method, target, headers, body, status, admissionControl, emptyBodyWhy, mustNotContain, dropAfter);
    }

    /** Any answer below 500 is right (the case probes for crashes, not for one refusal). */
    public HostileCase below500() {
        return expect(-1);
    }

    public HostileCase admission() {
        return new HostileCase(group, name, method, target, headers, body, expectedStatus, true, emptyBodyWhy, mustNotContain, dropAfter);
    }

    public HostileCase emptyBodyAllowed(String why) {
        return new HostileCase(group, name, method, target, headers, body, expectedStatus, admissionControl, why,
                mustNotContain, dropAfter);
    }

    public HostileCase mustNotContain(String text) {
        return new HostileCase(group, name, method, target, headers, body, expectedStatus, admissionControl,
                emptyBodyWhy, text, dropAfter);
    }


    public HostileCase dropAfter(int bytes) {
        return new HostileCase(group, name, method, target, headers, body, expectedStatus, admissionControl,
                emptyBodyWhy, mustNotContain, bytes);
    }

    @Override
    public String toString() {
        return group + ": " + name + " (" + method + " " + (target.length() > 80 ? target.substring(0, 80) + "..."
                : target) + ")";
    }
}
