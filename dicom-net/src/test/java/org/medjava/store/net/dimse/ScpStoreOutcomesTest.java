package org.medjava.store.net.dimse;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScpStoreOutcomesTest {

    @Test
    void aListenerHearsItsCallingAeUntilItStops() throws Exception {
        List<String> heard = new ArrayList<>();
        try (AutoCloseable listening = ScpStoreOutcomes.listen("REMOTE1", (uid, status, comment) ->
                heard.add(uid + " " + Integer.toHexString(status) + " " + comment))) {
            ScpStoreOutcomes.report("REMOTE1", "1.2.3", 0x0111, "duplicate SOP instance");
            ScpStoreOutcomes.report("OTHER", "1.2.4", 0xC000, "not for this listener");
        }
        ScpStoreOutcomes.report("REMOTE1", "1.2.5", 0, "after it stopped");
        assertThat(heard).containsExactly("1.2.3 111 duplicate SOP instance");
    }
}
