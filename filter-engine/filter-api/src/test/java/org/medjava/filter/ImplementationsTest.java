package org.medjava.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ImplementationsTest {
    @Test
    void eachImplementationHasItsKernel() {
        Implementations<String> table = Implementations.of("s", "o", "p");
        assertThat(table.get(Implementation.STRAIGHTFORWARD)).isEqualTo("s");
        assertThat(table.get(Implementation.OPTIMIZED)).isEqualTo("o");
        assertThat(table.get(Implementation.PARALLEL)).isEqualTo("p");
        assertThatThrownBy(() -> table.get(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Implementations.of("s", null, "p")).hasMessage("optimized");
    }
}
