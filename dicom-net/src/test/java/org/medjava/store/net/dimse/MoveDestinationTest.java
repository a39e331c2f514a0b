package org.medjava.store.net.dimse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** medjava.dicom.move-destinations: plain, TLS and de-identifying entries, their secrets, and what is refused. */
class MoveDestinationTest {

    private static final String KEY = "medjava.dicom.move-destinations";
    private static final DicomTls TLS = DicomTls.initiator(null, null, null, null);

    private static Map<String, MoveDestination> parse(String setting) {
        return MoveDestination.parseList(setting, KEY, () -> TLS);
    }

    @Test
    void plainAndTlsEntriesReadAsBefore() {
        var list = parse("DEST=127.0.0.1:104, SECURE=pacs.example.org:2762 tls");
        assertThat(list.get("DEST").ae()).isEqualTo(new RemoteAe("DEST", "127.0.0.1", 104));
        assertThat(list.get("DEST").deidentifies()).isFalse();
        assertThat(list.get("SECURE").ae().tls()).isSameAs(TLS);
        assertThat(list.get("SECURE").deidentifies()).isFalse();
    }

    @Test
    void deidentifyAloneOrWithOptionsInAnyOrderBesideTls() {
        var list = parse("BASIC=h:104 deidentify, RESEARCH=h:105 tls deidentify(clean-descriptors, Retain-UIDs),\n"
                + "OTHER=h:106 deidentify () tls, EMPTY=h:107 deidentify()");
        assertThat(list.keySet()).containsExactly("BASIC", "RESEARCH", "OTHER", "EMPTY");
        assertThat(list.get("BASIC").deidentify()).isEmpty();
        assertThat(list.get("BASIC").ae().tls()).isNull();
        assertThat(list.get("RESEARCH").deidentify()).containsExactly("clean-descriptors", "retain-uids");
        assertThat(list.get("RESEARCH").ae().tls()).isSameAs(TLS);
        assertThat(list.get("RESEARCH")).hasToString("RESEARCH@h:105 (TLS) de-identified (clean-descriptors,"
                + " retain-uids)");
        assertThat(list.get("OTHER").deidentify()).isEmpty();
        assertThat(list.get("OTHER").ae().tls()).isSameAs(TLS);
        assertThat(list.get("EMPTY").deidentifies()).isTrue();
    }

    @Test
    void badEntriesAreRefusedNamingTheKey() {
        assertThatThrownBy(() -> parse("DEST=h:104 deidentify(no-such-option)"))
                .hasMessageContaining(KEY).hasMessageContaining("no-such-option")
                .hasMessageContaining("clean-descriptors");
        assertThatThrownBy(() -> parse("DEST=h:104 anonymise")).hasMessageContaining(KEY)
                .hasMessageContaining("deidentify(option, ...)");
        assertThatThrownBy(() -> parse("DEST=h:104 deidentify(clean-descriptors")).hasMessageContaining(KEY);
        assertThatThrownBy(() -> parse("DEST=h:104 deidentifyx")).hasMessageContaining(KEY);
        assertThatThrownBy(() -> parse("DEST=h deidentify")).hasMessageContaining(KEY)
                .hasMessageContaining("AE=host:port");
        assertThatThrownBy(() -> parse("DEST=h:104 deidentify(retain-longitudinal-full-dates,"
                + " retain-longitudinal-modified-dates)"))
                .hasMessageContaining("exclude each other");
    }

    @Test
    void eachDeidentifyingDestinationHasItsOwnStableSecretFromTheStoresKey() {
        byte[] key = new byte[32];
        key[0] = 7;
        var list = parse("A=h:1 deidentify, B=h:2 deidentify, PLAIN=h:3");
        MoveDestination a = list.get("A").keyed(key);
        assertThat(a.secret()).hasSize(32).isEqualTo(parse("A=other:9 deidentify").get("A").keyed(key).secret());
        assertThat(a.secret()).isNotEqualTo(list.get("B").keyed(key).secret());
        assertThat(a.secret()).isNotEqualTo(list.get("A").keyed(new byte[32]).secret());
        assertThat(list.get("PLAIN").keyed(key).secret()).isNull();
        assertThat(a.deidentification().mapUid("1.2.3"))
                .isEqualTo(list.get("A").keyed(key).deidentification().mapUid("1.2.3")).startsWith("2.25.");
        assertThat(a.toString()).doesNotContain("[B@");
    }

    @Test
    void withoutASecretNothingIsDeidentifiedSoNothingIsSent() {
        assertThatThrownBy(() -> parse("A=h:1 deidentify").get("A").deidentification())
                .isInstanceOf(IllegalStateException.class);
        assertThat(new MoveDestination(new RemoteAe("A", "h", 1), List.of(), null).deidentifies()).isTrue();
    }
}
