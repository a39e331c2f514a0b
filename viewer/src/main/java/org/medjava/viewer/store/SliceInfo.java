package org.medjava.viewer.store;

/**
 * What the index says about one instance of a series, enough to order it in a stack ({@code series.SeriesOrder}).
 * The store's answer ({@link StoreClient#seriesSlices}), so it lives here: {@code series} builds on {@code store}.
 *
 * @param path          the store path of the file
 * @param instanceNumber InstanceNumber (0020,0013), or null
 * @param position      ImagePositionPatient (0020,0032), x y z in mm, or null
 * @param orientation   ImageOrientationPatient (0020,0037), row then column direction cosines, or null
 * @param frames        NumberOfFrames (1 when absent)
 */
public record SliceInfo(String path, String sopInstanceUid, Integer instanceNumber, double[] position,
                        double[] orientation, int frames) {

    public SliceInfo {
        if (path == null || path.isBlank()) {
            throw new IllegalArgumentException("a slice needs its store path");
        }
        position = position != null && position.length == 3 ? position.clone() : null;
        orientation = orientation != null && orientation.length == 6 ? orientation.clone() : null;
        frames = Math.max(1, frames);
    }

    @Override
    public double[] position() {
        return position == null ? null : position.clone();
    }

    @Override
    public double[] orientation() {
        return orientation == null ? null : orientation.clone();
    }
}
