package org.medjava.store.net.dicomweb;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Thumbnails kept up to a number of bytes, the least recently used going first; none larger than an eighth. */
class ThumbnailCacheTest {

    @Test
    void keepsUpToItsCapacityDroppingTheLeastRecentlyUsed() {
        ThumbnailCache cache = new ThumbnailCache(800);
        cache.put("a", new byte[100]);
        cache.put("b", new byte[100]);
        assertThat(cache.get("a")).hasSize(100); // a is now the more recently used
        for (int i = 0; i < 6; i++) {
            cache.put("c" + i, new byte[100]);
        }
        assertThat(cache.size()).isEqualTo(800);
        cache.put("d", new byte[100]); // one too many: b goes, a stays
        assertThat(cache.get("b")).isNull();
        assertThat(cache.get("a")).isNotNull();
        assertThat(cache.size()).isEqualTo(800);
        cache.put("a", new byte[50]); // replaced: counted once
        assertThat(cache.size()).isEqualTo(750);
    }

    @Test
    void keepsNothingLargerThanAnEighthNorAnythingWithNoCapacity() {
        ThumbnailCache cache = new ThumbnailCache(800);
        cache.put("big", new byte[101]);
        assertThat(cache.get("big")).isNull();
        ThumbnailCache none = new ThumbnailCache(0);
        none.put("x", new byte[1]);
        assertThat(none.get("x")).isNull();
        assertThat(none.size()).isZero();
    }
}
