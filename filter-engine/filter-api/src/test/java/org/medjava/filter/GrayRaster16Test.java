package org.medjava.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GrayRaster16Test {

    @ParameterizedTest
    @CsvSource({
        "16, false, 0, 65535",
        "16, true, -32768, 32767",
        "12, false, 0, 4095",
        "12, true, -2048, 2047",
        "8, false, 0, 255",
        "1, false, 0, 1",
        "1, true, -1, 0",
    })
    void rangeFollowsBitsStoredAndSignedness(int bits, boolean signed, int min, int max) {
        GrayRaster16 r = new GrayRaster16(2, 1, bits, signed);
        assertThat(r.minValue()).isEqualTo(min);
        assertThat(r.maxValue()).isEqualTo(max);
        assertThat(r.range()).isEqualTo(max - min).isEqualTo((1 << bits) - 1);
        assertThat(GrayRaster16.minValue(bits, signed)).isEqualTo(min);
        assertThat(GrayRaster16.maxValue(bits, signed)).isEqualTo(max);
        r.setValue(0, 0, min);
        r.setValue(1, 0, max);
        assertThat(r.valueAt(0, 0)).isEqualTo(min);
        assertThat(r.valueAt(1, 0)).isEqualTo(max);
        assertThat(r.offsetValue(0)).as("u of the minimum").isZero();
        assertThat(r.offsetValue(1)).as("u of the maximum").isEqualTo(r.range());
        assertThat(GrayRaster16.word(r.range(), min)).isEqualTo(r.words()[1]);
        assertThat(GrayRaster16.word(0, min)).isEqualTo(r.words()[0]);
        r.requireValuesInRange();
    }

    @Test
    void wordsHoldValuesAsJavaHoldsThem() {
        GrayRaster16 unsigned = new GrayRaster16(1, 1, 16, false, new short[] {(short) 0xFFFF});
        assertThat(unsigned.valueAt(0, 0)).isEqualTo(65535);
        GrayRaster16 signed = new GrayRaster16(1, 1, 16, true, new short[] {(short) 0xFFFF});
        assertThat(signed.valueAt(0, 0)).isEqualTo(-1);
        assertThat(signed.offsetValue(0)).isEqualTo(32767);
        GrayRaster16 signed12 = new GrayRaster16(1, 1, 12, true, new short[] {-2048});
        assertThat(signed12.valueAt(0, 0)).isEqualTo(-2048);
        assertThat(signed12.offsetValue(0)).isZero();
    }

    @Test
    void valuesOutsideTheRangeAreRefusedNamingValuePositionAndRange() {
        GrayRaster16 r = new GrayRaster16(3, 2, 12, false);
        assertThatThrownBy(() -> r.setValue(1, 1, 4096)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("grey value 4096 for (1,1) is outside the 12-bit unsigned range 0..4095");
        r.words()[4] = 5000;
        assertThat(r.firstValueOutOfRange()).isEqualTo(4);
        assertThatThrownBy(r::requireValuesInRange).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("grey value 5000 at (1,1) is outside the 12-bit unsigned range 0..4095");
        GrayRaster16 s = new GrayRaster16(2, 1, 12, true, new short[] {0, 2048});
        assertThatThrownBy(s::requireValuesInRange)
                .hasMessageStartingWith("grey value 2048 at (1,0) is outside the 12-bit signed range -2048..2047");
        GrayRaster16 n = new GrayRaster16(2, 1, 12, true, new short[] {-2049, 0});
        assertThat(n.firstValueOutOfRange()).isZero();
        assertThat(new GrayRaster16(1, 1, 16, true, new short[] {Short.MIN_VALUE}).firstValueOutOfRange()).isEqualTo(-1);
    }

    @Test
    void badSizesAndBitsAreRefusedWithTheRule() {
        assertThatThrownBy(() -> new GrayRaster16(0, 1, 16, false)).hasMessageContaining("at least 1x1");
        assertThatThrownBy(() -> new GrayRaster16(1, 1, 17, false))
                .hasMessageStartingWith("bits stored must be an integer from 1 to 16, got 17");
        assertThatThrownBy(() -> new GrayRaster16(1, 1, 0, true)).hasMessageContaining("from 1 to 16, got 0");
        assertThatThrownBy(() -> new GrayRaster16(2, 2, 16, false, new short[3]))
                .hasMessageContaining("must hold 4 values, got 3");
    }

    @Test
    void copiesAndComparisonsIncludeTheFormat() {
        GrayRaster16 a = new GrayRaster16(2, 2, 12, true);
        a.setValue(1, 1, -7);
        GrayRaster16 b = a.copy();
        assertThat(b.sameContent(a)).isTrue();
        assertThat(b.words()).isNotSameAs(a.words());
        GrayRaster16 other = new GrayRaster16(2, 2, 12, false, a.words().clone());
        assertThat(other.sameContent(a)).as("same words, other signedness").isFalse();
        assertThatThrownBy(() -> other.copyFrom(a))
                .hasMessage("raster formats differ: 12-bit unsigned grey and 12-bit signed grey");
        assertThatThrownBy(() -> a.requireSameFormat(new GrayRaster16(2, 3, 12, true)))
                .hasMessageContaining("sizes differ");
        assertThat(a.describe()).isEqualTo("12-bit signed grey");
        assertThat(a).hasToString("GrayRaster16[2x2, 12-bit signed grey]");
        assertThat(Region.of(0, 0, 2, 2).coversWhole(a)).isTrue();
    }
}
