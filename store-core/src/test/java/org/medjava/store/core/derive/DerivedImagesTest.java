package org.medjava.store.core.derive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.medjava.store.core.testsupport.DerivingStore.request;

import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.SequenceAttribute;
import com.pixelmed.dicom.TagFromName;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.codec.dicom.DicomCodec;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.codec.dicom.Window;
import org.medjava.filter.runtime.CallControl;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.index.TestDicom;
import org.medjava.store.core.ingest.Ingested;
import org.medjava.store.core.render.RenderService;
import org.medjava.store.core.model.Preconditions;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.testsupport.DerivingStore;
import org.medjava.store.core.testsupport.TestCallers;
import org.medjava.store.core.testsupport.TestPlugins;

/** {@link DerivedImages}: a filtered rendering kept as derived DICOM that records where it came from. */
class DerivedImagesTest {

    private static final String STUDY = "1.2.826.0.1.3680043.9.7001";
    private static final String SERIES = "1.2.826.0.1.3680043.9.7002";
    private static final String SOP = "1.2.826.0.1.3680043.9.7003";

    @TempDir
    Path dir;
    private DerivingStore store;
    private DerivedImages derived;

    @BeforeEach
    void open() throws Exception {
        store = DerivingStore.open(dir);
        derived = store.derived();
        Path ct = TestDicom.ct().patient("DER-1", "Derived^Test").study(STUDY, "20240101").series(SERIES, "CT", 3)
                .instance(SOP, 5).writeTo(dir.resolve("ct.dcm"));
        store.put("studies/ct.dcm", ct);
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void keepsTheFilteredStoredValuesAsADerivedCtReferencingTheSource() throws Exception {
        Ingested r = derived.derive(StorePath.parse("studies/ct.dcm"),
                request("window", "40,400", "filter", "fill", "region", "0,0,10,10"), CallControl.unlimited(),
                        TestCallers.USER);

        assertThat(r.studyInstanceUid()).isEqualTo(STUDY);
        assertThat(r.seriesInstanceUid()).isNotEqualTo(SERIES).startsWith("2.25.");
        assertThat(r.path().relative()).startsWith("dicom/DER-1/" + STUDY + "/" + r.seriesInstanceUid() + "/");
        byte[] file = Files.readAllBytes(store.storage().root().resolve(r.path().relative()));
        AttributeList list = new AttributeList();
        list.read(new com.pixelmed.dicom.DicomInputStream(new ByteArrayInputStream(file)));
        assertThat(list.get(TagFromName.SOPClassUID).getSingleStringValueOrEmptyString())
                .isEqualTo("1.2.840.10008.5.1.4.1.1.2"); // a derived CT stays a CT
        assertThat(list.get(TagFromName.ImageType).getStringValues()).startsWith("DERIVED", "SECONDARY");
        SequenceAttribute source = (SequenceAttribute) list.get(TagFromName.SourceImageSequence);
        assertThat(source.getItem(0).getAttributeList().get(TagFromName.ReferencedSOPInstanceUID)
                .getSingleStringValueOrEmptyString()).isEqualTo(SOP);
        String description = list.get(TagFromName.DerivationDescription).getSingleStringValueOrEmptyString();
        assertThat(description).contains("window 40.0,400.0").contains("filters: fill")
                .contains("region").containsPattern("plugins: it-fill 77 sha256:[0-9a-f]{64}");
        SequenceAttribute equipment = (SequenceAttribute) list.get(TagFromName.ContributingEquipmentSequence);
        AttributeList item = equipment.getItem(equipment.getNumberOfItems() - 1).getAttributeList();
        assertThat(item.get(TagFromName.ManufacturerModelName).getSingleStringValueOrEmptyString())
                .isEqualTo("it-fill");
        String[] versions = item.get(TagFromName.SoftwareVersions).getStringValues();
        assertThat(versions[0]).isEqualTo("77");
        assertThat(versions[1]).matches("[0-9a-f]{64}");
        assertThat(item.get(TagFromName.ContributionDescription).getSingleStringValueOrEmptyString())
                .startsWith("fill");

        // the stored values: the region holds 77, outside it the CT's own values; same depth, rescale, window
        DicomImage back = DicomCodec.read(file, 0, 1 << 24);
        DicomImage ct = DicomCodec.read(Files.readAllBytes(dir.resolve("ct.dcm")), 0, 1 << 24);
        assertThat(back.bitsStored()).isEqualTo(ct.bitsStored());
        assertThat(back.isSigned()).isEqualTo(ct.isSigned());
        assertThat(back.rescaleIntercept()).isEqualTo(ct.rescaleIntercept());
        assertThat(back.windowPresets()).containsExactly(new Window(40, 400));
        assertThat(back.storedValues()[0]).isEqualTo(77);
        int inside = 20 * ct.width() + 20;
        assertThat(back.storedValues()[inside]).isEqualTo(ct.storedValues()[inside]);
        assertThat(back.modalityValue(20, 20)).isEqualTo(ct.modalityValue(20, 20));
        assertThat(store.index().instance(r.path().relative())).isPresent();
    }

    @Test
    void aFilterWithoutGreyKernelsIsRefusedNamingDataAndFilter() throws Exception {
        // replaces v77
        store.registry().load("it-fill", TestPlugins.fill(dir.resolve("rgb.jar"), 5, false), Map.of());
        assertThatThrownBy(() -> derived.derive(StorePath.parse("studies/ct.dcm"), request("filter", "fill"),
                CallControl.unlimited(), TestCallers.USER))
                .isInstanceOf(StoreException.class).hasMessageContaining("fill cannot filter 16-bit signed grey")
                .extracting(e -> ((StoreException) e).kind()).isEqualTo(StoreException.Kind.UNPROCESSABLE);
    }

    @Test
    void theSameChainOverOneSeriesGivesOneDerivedSeriesWhateverTheWindowOfAGreySource() throws Exception {
        Ingested a = derived.derive(StorePath.parse("studies/ct.dcm"), request("filter", "fill"),
                CallControl.unlimited(), TestCallers.USER);
        Ingested b = derived.derive(StorePath.parse("studies/ct.dcm"), request("filter", "fill"),
                CallControl.unlimited(), TestCallers.USER);
        Ingested bone = derived.derive(StorePath.parse("studies/ct.dcm"), request("filter", "fill", "window",
                "400,1800"), CallControl.unlimited(), TestCallers.USER);
        Ingested otherChain = derived.derive(StorePath.parse("studies/ct.dcm"), request("filter", "fill",
                "region", "0,0,4,4"), CallControl.unlimited(), TestCallers.USER);

        assertThat(b.seriesInstanceUid()).isEqualTo(a.seriesInstanceUid());
        assertThat(b.sopInstanceUid()).isNotEqualTo(a.sopInstanceUid());
        // the stored values are the same: the window is only the object's default presentation
        assertThat(bone.seriesInstanceUid()).isEqualTo(a.seriesInstanceUid());
        assertThat(otherChain.seriesInstanceUid()).isNotEqualTo(a.seriesInstanceUid());
    }

    @Test
    void writesTheObjectItWouldStoreWithoutStoringIt() throws Exception {
        var out = new java.io.ByteArrayOutputStream();
        RenderService.Timings timings = new RenderService.Timings();
        derived.write(StorePath.parse("studies/ct.dcm"), request("render", "dicom", "filter", "fill", "window",
                "40,400"), out, timings, CallControl.unlimited());
        Ingested stored = derived.derive(StorePath.parse("studies/ct.dcm"), request("filter", "fill"),
                CallControl.unlimited(), TestCallers.USER);

        DicomImage written = DicomCodec.read(out.toByteArray(), 0, 1 << 24);
        DicomImage kept = DicomCodec.read(
                Files.readAllBytes(store.storage().root().resolve(stored.path().relative())), 0, 1 << 24);
        assertThat(written.storedValues()).isEqualTo(kept.storedValues());
        assertThat(written.bitsStored()).isEqualTo(kept.bitsStored());
        assertThat(written.windowPresets()).containsExactly(new Window(40, 400));
        assertThat(written.header().get(TagFromName.SeriesInstanceUID).getSingleStringValueOrEmptyString())
                .isEqualTo(stored.seriesInstanceUid());
        assertThat(timings.serverTiming()).contains("decode;dur=", "filter;dur=", "encode;dur=");
        assertThat(store.index().instances(stored.seriesInstanceUid())).hasSize(1); // only the stored one
    }

    @Test
    void refusesWhatItCannotDerive() throws Exception {
        var bytes = new java.io.ByteArrayOutputStream();
        javax.imageio.ImageIO.write(new java.awt.image.BufferedImage(8, 8, java.awt.image.BufferedImage.TYPE_BYTE_GRAY),
                "png", bytes);
        byte[] png = bytes.toByteArray();
        try (var in = new ByteArrayInputStream(png)) {
            store.ingest().put(StorePath.parse("pics/grey.png"), in, png.length, null, Preconditions.NONE,
                    TestCallers.USER);
        }
        assertThatThrownBy(() -> derived.derive(StorePath.parse("pics/grey.png"), request("filter", "fill"),
                CallControl.unlimited(), TestCallers.USER))
                .isInstanceOf(StoreException.class).hasMessageContaining("not DICOM");
        assertThatThrownBy(() -> derived.derive(StorePath.parse("studies/nope.dcm"), request(),
                CallControl.unlimited(), TestCallers.USER))
                .isInstanceOf(StoreException.class).hasMessageContaining("no stored file");
        assertThatThrownBy(() -> derived.derive(StorePath.parse("studies/ct.dcm"), request("filter", "nonesuch"),
                CallControl.unlimited(), TestCallers.USER))
                .isInstanceOf(StoreException.class).extracting(e -> ((StoreException) e).kind())
                .isEqualTo(StoreException.Kind.BAD_REQUEST);
    }
}
