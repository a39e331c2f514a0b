package org.medjava.bench.report;

import java.util.ArrayList;
import java.util.List;
import org.medjava.bench.setup.JvmColumn;
import org.medjava.bench.variant.Impl;

/**
 * A line in the charts and a column in the tables: an implementation on a JVM column ({@code java-optimized},
 * {@code java-optimized@jdk25}, {@code java-straightforward@xint}, {@code c-optimized-native}, ...), or the copy
 * baseline ({@code impl == null}).
 */
public record SeriesKey(Impl impl, JvmColumn jvm) {
    public static final SeriesKey COPY = new SeriesKey(null, JvmColumn.JIT);

    /** C and OpenCV run native code: the JVM column means nothing for them. */
    public static SeriesKey of(Impl impl, JvmColumn jvm) {
        return new SeriesKey(impl, impl.isJava() ? jvm : JvmColumn.JIT);
    }

    public boolean isCopy() {
        return impl == null;
    }

    public String id() {
        if (impl == null) {
            return "copy";
        }
        return jvm == JvmColumn.JIT ? impl.id() : impl.id() + "@" + jvm.id();
    }

    public String title() {
        if (impl == null) {
            return "copy (memory floor)";
        }
        if (!impl.isJava()) {
            return impl.title();
        }
        return impl.title() + (jvm == JvmColumn.JIT ? "" : ", " + jvm.title().replace("JDK 17 ", ""));
    }

    /** Every series there can be, in the order of legends and table columns (also fixes each one's colour). */
    public static List<SeriesKey> all() {
        List<SeriesKey> all = new ArrayList<>();
        for (JvmColumn jvm : List.of(JvmColumn.JIT, JvmColumn.JDK25, JvmColumn.XINT)) {
            for (Impl impl : Impl.java()) {
                if (jvm != JvmColumn.XINT || impl != Impl.JAVA_PARALLEL) {
                    all.add(new SeriesKey(impl, jvm));
                }
            }
        }
        for (Impl impl : Impl.c()) {
            all.add(new SeriesKey(impl, JvmColumn.JIT));
        }
        all.add(new SeriesKey(Impl.OPENCV, JvmColumn.JIT));
        all.add(COPY);
        return all;
    }

    public int order() {
        return all().indexOf(this);
    }

    public static SeriesKey parse(String id) {
        for (SeriesKey k : all()) {
            if (k.id().equals(id)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown series " + id);
    }
}
