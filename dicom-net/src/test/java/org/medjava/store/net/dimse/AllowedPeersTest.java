package org.medjava.store.net.dimse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** The allowed calling AE titles, with and without hosts, and the AE=host:port lists. */
class AllowedPeersTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    @Test
    void knownTitlesPassOthersAreRefusedWithTheReason() {
        AllowedPeers peers = AllowedPeers.parse(" MODALITY , VIEWER=127.0.0.1,\nLOCKED=192.0.2.1 ");
        assertThat(peers.peers().keySet()).containsExactly("MODALITY", "VIEWER", "LOCKED");
        assertThat(peers.refusal("MODALITY", LOOPBACK)).isEmpty();
        assertThat(peers.refusal("VIEWER", LOOPBACK)).isEmpty();
        assertThat(peers.refusal("LOCKED", LOOPBACK)).get().asString().contains("only from 192.0.2.1");
        assertThat(peers.refusal("STRANGER", LOOPBACK)).get().asString().contains("STRANGER", "allowed-aets");
    }

    @Test
    void hostNamesAreResolved() {
        assertThat(AllowedPeers.parse("A=localhost").refusal("A", LOOPBACK)).isEmpty();
        assertThat(AllowedPeers.parse("A=no-such-host.invalid").refusal("A", LOOPBACK)).isPresent();
    }

    @Test
    void emptyMeansNobody() {
        assertThat(AllowedPeers.parse("").isEmpty()).isTrue();
        assertThat(AllowedPeers.parse(null).refusal("ANY", LOOPBACK)).isPresent();
    }

    @Test
    void malformedEntriesAreRefused() {
        assertThatThrownBy(() -> AllowedPeers.parse("A=")).hasMessageContaining("empty host");
        assertThatThrownBy(() -> AllowedPeers.parse("SEVENTEEN_CHARS_X")).hasMessageContaining("1 to 16");
        assertThatThrownBy(() -> AllowedPeers.parse("BACK\\SLASH")).hasMessageContaining("not allowed");
    }

    @Test
    void remoteAeLists() {
        var list = RemoteAe.parseList("DEST=127.0.0.1:104, PACS=pacs.example.org:11112", "x");
        assertThat(list.get("DEST")).isEqualTo(new RemoteAe("DEST", "127.0.0.1", 104));
        assertThat(list.get("PACS").port()).isEqualTo(11112);
        assertThatThrownBy(() -> RemoteAe.parseList("DEST=host", "medjava.dicom.move-destinations"))
                .hasMessageContaining("medjava.dicom.move-destinations", "AE=host:port");
        assertThatThrownBy(() -> RemoteAe.parseList("DEST=host:99999", "x")).hasMessageContaining("port");
    }

    @Test
    void remoteAesMarkedTlsGetTheTlsSettingsAndOnlyThose() {
        DicomTls tls = DicomTls.initiator(null, null, null, null);
        var list = RemoteAe.parseList("PACS=pacs.example.org:2762 tls, DEST=127.0.0.1:104", "x", () -> tls);
        assertThat(list.get("PACS").tls()).isSameAs(tls);
        assertThat(list.get("PACS")).hasToString("PACS@pacs.example.org:2762 (TLS)");
        assertThat(list.get("DEST").tls()).isNull();
        assertThatThrownBy(() -> RemoteAe.parseList("PACS=h:2762 ssl", "x", () -> tls))
                .hasMessageContaining("AE=host:port tls");
    }
}
