package org.medjava.bench.environment;

/**
 * Prints the bit size of the Vector API's preferred species on the JVM that runs it, the width the Java kernels
 * use there (the report's environment block runs it on each JDK column with that column's options). Reflection:
 * the benchmarks are not compiled against the incubator module.
 */
public final class VectorWidth {
    private VectorWidth() {
    }

    public static void main(String[] args) throws ReflectiveOperationException {
        Object species = Class.forName("jdk.incubator.vector.ByteVector").getField("SPECIES_PREFERRED").get(null);
        // through the public interface: the species class itself is not accessible
        System.out.println(Class.forName("jdk.incubator.vector.VectorSpecies").getMethod("vectorBitSize")
                .invoke(species));
    }
}
