package org.medjava.store.net.dimse;

import static org.assertj.core.api.Assertions.assertThat;

import com.pixelmed.dicom.SOPClass;
import com.pixelmed.dicom.TransferSyntax;
import com.pixelmed.network.Association;
import com.pixelmed.network.AssociationFactory;
import com.pixelmed.network.PresentationContext;
import java.lang.reflect.Field;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.LinkedList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** An association the store initiates has Nagle's algorithm off (PixelMed's own initiator leaves it on). */
class InitiatorsTest {

    @Test
    void anInitiatedAssociationSendsWithoutDelay() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Association> accepted = CompletableFuture.supplyAsync(() -> {
                try {
                    Socket socket = server.accept();
                    return AssociationFactory.createNewAssociation(socket, "INITIATORS-SCP");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            LinkedList<PresentationContext> contexts = new LinkedList<>(List.of(new PresentationContext((byte) 1,
                    SOPClass.Verification, TransferSyntax.ImplicitVRLittleEndian)));
            Association association = Initiators.open(new RemoteAe("INITIATORS-SCP", "127.0.0.1",
                    server.getLocalPort()), "INITIATORS-SCU", contexts, null);
            try {
                assertThat(socketOf(association).getTcpNoDelay()).isTrue();
                assertThat(accepted.get(30, TimeUnit.SECONDS)).isNotNull();
            } finally {
                association.abort();
                accepted.thenAccept(a -> {
                    try {
                        a.abort();
                    } catch (Exception e) {
                        // already gone
                    }
                });
            }
        }
    }

    private static Socket socketOf(Association association) throws ReflectiveOperationException {
        Field field = Association.class.getDeclaredField("socket");
        field.setAccessible(true);
        return (Socket) field.get(association);
    }
}
