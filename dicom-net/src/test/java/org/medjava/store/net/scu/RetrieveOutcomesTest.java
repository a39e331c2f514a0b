package org.medjava.store.net.scu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * How a retrieve's result counts what the remote reported and what the store's SCP answered: a copy of an instance
 * the store holds is "already held", not a failure, though the remote counts it as failed.
 */
class RetrieveOutcomesTest {

    private static final String DUPLICATE = "duplicate: SOP Instance stored already and the duplicate policy is reject"
            + " (2.25.1 at a/b.dcm)";

    @Test
    void copiesOfInstancesTheStoreHoldsAreAlreadyHeldNotFailed() {
        RemotePacs.Outcomes outcomes = new RemotePacs.Outcomes(null);
        for (int i = 1; i <= 10; i++) { // the store's SCP refused each copy as a duplicate (heard while moving)
            outcomes.add(new RemotePacs.FailedInstance("2.25." + i, "0111", DUPLICATE));
        }
        // the remote counts them as failed and ends with a failure status and comment
        outcomes.merge(new RetrieveScu.Outcome(0xA702, 0, 10, 0, List.of(), "sub-operations failed"));

        RemotePacs.RetrieveResult r = outcomes.result("C-MOVE", 0, 10);

        assertThat(r.alreadyHeld()).isEqualTo(10);
        assertThat(r.failed()).isZero();
        assertThat(r.failedInstances()).isEmpty();
        assertThat(r.errors()).isEmpty();
        assertThat(r.complete()).as("nothing is missing").isTrue();
    }

    @Test
    void aRemoteThatStopsAtTheFirstRefusedCopyStillLeavesEveryHeldInstanceAlreadyHeld() {
        RemotePacs.Outcomes outcomes = new RemotePacs.Outcomes(null);
        Set<String> asked = new HashSet<>();
        for (int i = 1; i <= 10; i++) {
            asked.add("2.25." + i);
        }
        outcomes.heldAlready(asked, Set.copyOf(asked)); // the store held all ten before the retrieve
        outcomes.add(new RemotePacs.FailedInstance("2.25.1", "0111", DUPLICATE)); // the one copy the remote sent
        outcomes.merge(new RetrieveScu.Outcome(0xC000, 0, 0, 0, List.of(), "")); // Orthanc: C000, no counts

        RemotePacs.RetrieveResult r = outcomes.result("C-MOVE", 0, 10);

        assertThat(r.alreadyHeld()).isEqualTo(10);
        assertThat(r.failed()).isZero();
        assertThat(r.complete()).isTrue();
    }

    @Test
    void otherRefusalsStayFailuresWithTheirWholeReason() {
        String reason = "missing Pixel Data: CT Image Storage needs Pixel Data (7FE0,0010) and this data set, "
                + "complete otherwise, has none";
        RemotePacs.Outcomes outcomes = new RemotePacs.Outcomes(null);
        outcomes.add(new RemotePacs.FailedInstance("2.25.1", "0111", DUPLICATE));
        outcomes.add(new RemotePacs.FailedInstance("2.25.2", "C000", reason));
        outcomes.merge(new RetrieveScu.Outcome(0xB000, 1, 2, 0, List.of("2.25.1", "2.25.2"), ""));

        RemotePacs.RetrieveResult r = outcomes.result("C-GET", 1, 2);

        assertThat(r.alreadyHeld()).isEqualTo(1);
        assertThat(r.failed()).isEqualTo(1);
        assertThat(r.failedInstances()).extracting(RemotePacs.FailedInstance::reason).containsExactly(reason);
        assertThat(r.errors()).containsExactly("2.25.2: " + reason);
        assertThat(r.complete()).isFalse();
    }
}
