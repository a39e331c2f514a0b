package org.medjava.viewer.series;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ByteBoundedCacheTest {

    private static ByteBoundedCache<Integer, byte[]> cache(long max) {
        return new ByteBoundedCache<>(max, b -> b.length);
    }

    @Test
    void evictsTheLeastRecentlyUsedUntilTheBytesFit() {
        var c = cache(300);
        c.put(1, new byte[100]);
        c.put(2, new byte[100]);
        c.put(3, new byte[100]);
        assertThat(c.bytes()).isEqualTo(300);
        c.get(1); // 2 is now the least recently used
        c.put(4, new byte[100]);
        assertThat(c.contains(2)).isFalse();
        assertThat(c.contains(1)).isTrue();
        assertThat(c.bytes()).isEqualTo(300);
        c.put(5, new byte[250]);
        assertThat(c.bytes()).isLessThanOrEqualTo(300);
        assertThat(c.size()).isEqualTo(1);
        assertThat(c.evictions()).isEqualTo(4);
    }

    @Test
    void neverHoldsMoreThanItsBudgetWhateverIsPut() {
        var c = cache(1000);
        for (int i = 0; i < 500; i++) {
            c.put(i % 37, new byte[(i * 7919) % 300 + 1]);
            assertThat(c.bytes()).isLessThanOrEqualTo(1000);
        }
    }

    @Test
    void aValueLargerThanTheBudgetIsKeptAloneAndReplacingAKeyCountsOnce() {
        var c = cache(100);
        c.put(1, new byte[40]);
        c.put(2, new byte[500]);
        assertThat(c.size()).isEqualTo(1);
        assertThat(c.get(2)).hasSize(500);
        c.put(3, new byte[10]);
        assertThat(c.contains(2)).isFalse();
        c.put(3, new byte[20]);
        assertThat(c.bytes()).isEqualTo(20);
        c.clear();
        assertThat(c.bytes()).isZero();
        assertThat(c.get(3)).isNull();
        assertThatThrownBy(() -> cache(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
