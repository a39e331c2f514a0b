package org.medjava.bench.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.medjava.store.core.query.ArchiveQuery;

/** The synthetic population and the queries of {@link IndexScale}: what it measures is what it says. */
class IndexScaleTest {

    @Test
    void everyPatientHasANameOfItsOwnAndStudiesSpreadOverTenYears() {
        Set<String> names = new HashSet<>();
        for (long p = 0; p < 50_000; p++) {
            assertThat(names.add(IndexScale.patientName(p))).as("patient %d", p).isTrue();
        }
        Set<Integer> years = new HashSet<>();
        for (long s = 0; s < 1_000; s++) {
            String date = IndexScale.studyDate(s);
            assertThat(date).matches("20(1[6-9]|2[0-5])[01]\\d[0-3]\\d");
            years.add(Integer.parseInt(date.substring(0, 4)));
        }
        assertThat(years).hasSize(10);
    }

    @Test
    void theQueriesAskForValuesTheLoadedIndexHolds() {
        IndexScale.Population population = new IndexScale.Population(100_000);
        ArchiveQuery accession = population.queries().get("accession number").apply(7);
        long study = Long.parseLong(accession.keys().get("AccessionNumber").substring(3));
        assertThat(study).isBetween(0L, 100_000L / IndexScale.PER_STUDY - 1);
        ArchiveQuery name = population.queries().get("patient name wildcard").apply(3);
        assertThat(name.keys().get("PatientName")).matches("[A-Z]+\\^[A-Z]\\*");
        assertThat(name.limit()).isEqualTo(IndexScale.LIMIT);
        assertThat(population.queries()).hasSize(5);
    }

    @Test
    void plansAreCutFromAutoExplainsLogLinesOnly() {
        String log = """
                2026-12-07 16:00:00.000 UTC [1] LOG:  duration: 0.050 ms  plan:
                \tQuery Text: SELECT 1 FROM mj_study
                \tSeq Scan on mj_study
                2026-12-07 16:00:00.001 UTC [1] LOG:  checkpoint starting: time
                2026-12-07 16:00:00.002 UTC [1] LOG:  duration: 0.010 ms  plan:
                \tQuery Text: SELECT typname FROM pg_catalog.pg_type
                """;
        assertThat(IndexScale.planLines(log)).isEqualTo("plan:\n\tQuery Text: SELECT 1 FROM mj_study\n"
                + "\tSeq Scan on mj_study\n");
    }
}
