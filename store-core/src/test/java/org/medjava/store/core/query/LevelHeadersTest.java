package org.medjava.store.core.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import javax.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.index.IndexFiles;
import org.medjava.store.core.index.TestDicom;

/** Where study- and series-level answers of C-FIND and QIDO-RS take attributes the index has no column for. */
class LevelHeadersTest {

    @TempDir
    static Path dir;
    static DicomIndex index;

    /** A study whose first instance has no DeviceSerialNumber, then two that have one each. */
    @BeforeAll
    static void fill() {
        index = new DicomIndex(IndexDatabase.h2(dir.resolve("index")));
        put("s/1.dcm", TestDicom.ct().patient("P1", "Doe^John").study("1.9.1", "20200105").series("1.9.1.1", "SR", 1)
                .instance("1.9.1.1.1", 1));
        put("s/2.dcm", TestDicom.ct().patient("P1", "Doe^John").study("1.9.1", "20200105").series("1.9.1.2", "CT", 2)
                .instance("1.9.1.2.1", 1).set("DeviceSerialNumber", "SN-1"));
        put("s/3.dcm", TestDicom.ct().patient("P1", "Doe^John").study("1.9.1", "20200105").series("1.9.1.2", "CT", 2)
                .instance("1.9.1.2.2", 2).set("DeviceSerialNumber", "SN-2"));
    }

    private static void put(String path, TestDicom dicom) {
        IndexFiles.put(index, path, dicom.writeTo(dir.resolve("images").resolve(path)));
    }

    @AfterAll
    static void close() {
        index.close();
    }

    @Test
    void anAttributeTheFirstInstanceLacksComesFromTheFirstThatHasIt() {
        LevelHeaders study = new LevelHeaders(new ArchiveSearch(index), index, Map.of("StudyInstanceUID", "1.9.1"));
        assertThat(study.value("00181000")).get().extracting(v -> ((JsonObject) v).getJsonArray("Value").getString(0))
                .isIn("SN-1", "SN-2"); // the index's instance order decides which
        assertThat(study.value("00081040")).as("an attribute no instance has").isEmpty();
        assertThat(study.first()).isPresent();
    }

    @Test
    void aSeriesReadsOnlyItsOwnInstances() {
        LevelHeaders series = new LevelHeaders(new ArchiveSearch(index), index, Map.of("StudyInstanceUID", "1.9.1",
                "SeriesInstanceUID", "1.9.1.1"));
        assertThat(series.value("00181000")).isEmpty();
        assertThat(series.value("00080080")).as("its own header's InstitutionName").isPresent();
    }
}
