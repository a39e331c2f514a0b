package org.medjava.codec.dicom;

import java.io.IOException;
import java.io.InputStream;
import org.medjava.codec.DicomReading;
import org.medjava.filter.Raster;

/** This package's side of {@link DicomReading}, registered in META-INF/services. */
public final class DicomReadingService implements DicomReading {

    @Override
    public Raster readRaster(InputStream in, long maxPixels) throws IOException {
        return DicomCodec.readRaster(in, maxPixels);
    }

    @Override
    public InputStream checkedHeader(InputStream in) throws IOException {
        return DicomPreScan.checkedHeader(in);
    }
}
