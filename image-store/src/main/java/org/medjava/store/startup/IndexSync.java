package org.medjava.store.startup;

import java.nio.file.Path;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.medjava.codec.ImageFormat;
import org.medjava.store.index.DicomIndex;
import org.medjava.store.repo.RepositoryListener;
import org.medjava.store.repo.StorePath;

/**
 * Keeps the DICOM index in step with the repository. The file is the truth: if the index cannot be updated the
 * write still stands, a warning says so, and {@code POST /admin/index/rebuild} repairs the index from the files.
 */
final class IndexSync implements RepositoryListener {

    private static final Logger LOG = Logger.getLogger(IndexSync.class.getName());

    private final DicomIndex index;

    IndexSync(DicomIndex index) {
        this.index = index;
    }

    @Override
    public void stored(StorePath path, Path file, ImageFormat format) {
        try {
            if (format == ImageFormat.DICOM) {
                index.put(path.relative(), file);
            } else {
                index.remove(path.relative()); // a DICOM replaced by a GIF leaves the index
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "index not updated for " + path + " (" + e.getMessage()
                    + "); POST /admin/index/rebuild repairs it", e);
        }
    }

    @Override
    public void deleted(StorePath path) {
        try {
            index.remove(path.relative());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "index not updated for deleted " + path + " (" + e.getMessage()
                    + "); POST /admin/index/rebuild repairs it", e);
        }
    }
}
