package org.medjava.store.core.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.medjava.filter.runtime.FilterRegistry;
import org.medjava.store.core.derive.DerivedImages;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.ingest.DuplicatePolicy;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.metrics.StoreMetrics;
import org.medjava.store.core.render.RenderRequest;
import org.medjava.store.core.render.RenderService;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.model.Preconditions;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.repo.UploadValidator;
import org.medjava.store.core.storage.LocalFileStorage;

/**
 * An in-process store that can render and derive: H2 index, local files, the ingest door, and a registry holding the
 * {@link TestPlugins#fill(Path, int) it-fill} plugin (version {@value #FILL_VALUE}). It lives in a test's temporary
 * directory ({@code index/}, {@code images/}, {@code registry/}, {@code fill.jar}), so the test can keep its own
 * files beside it.
 */
public record DerivingStore(DicomIndex index, LocalFileStorage storage, ImageRepository images,
                            FilterRegistry registry, Ingest ingest, RenderService renderer, DerivedImages derived)
        implements AutoCloseable {

    /** The grey level (and version) of the loaded {@code fill} filter. */
    public static final int FILL_VALUE = 77;

    /** Uploads, pixels and renderings are limited to 16 MiB / 16 Mi pixels. */
    public static final int LIMIT = 1 << 24;

    public static DerivingStore open(Path dir) throws IOException {
        return open(dir, StoreMetrics.NONE);
    }

    /** As {@link #open(Path)}, with ingest and rendering reporting to {@code metrics}. */
    public static DerivingStore open(Path dir, StoreMetrics metrics) throws IOException {
        DicomIndex index = new DicomIndex(IndexDatabase.h2(dir.resolve("index")));
        FilterRegistry registry = null;
        try {
            LocalFileStorage storage = new LocalFileStorage(dir.resolve("images"));
            ImageRepository images = new ImageRepository(storage, LIMIT);
            registry = new FilterRegistry(dir.resolve("registry"));
            registry.load("it-fill", TestPlugins.fill(dir.resolve("fill.jar"), FILL_VALUE), Map.of());
            Ingest ingest = Ingest.builder(images, index, new UploadValidator(LIMIT), DuplicatePolicy.REJECT)
                    .metrics(metrics).build();
            RenderService renderer = new RenderService(registry, LIMIT, metrics);
            DerivedImages derived = new DerivedImages(images, renderer, registry, ingest);
            return new DerivingStore(index, storage, images, registry, ingest, renderer, derived);
        } catch (IOException | RuntimeException e) {
            if (registry != null) {
                registry.close();
            }
            index.close();
            throw e;
        }
    }

    /** Stores {@code file} at {@code path} through the ingest door. */
    public ImageRepository.PutResult put(String path, Path file) throws IOException {
        try (var in = Files.newInputStream(file)) {
            return ingest.put(StorePath.parse(path), in, Files.size(file), null, Preconditions.NONE, TestCallers.USER);
        }
    }

    /** A render request from query pairs: {@code request("filter", "fill", "window", "40,400")}. */
    public static RenderRequest request(String... query) {
        Map<String, List<String>> q = new HashMap<>();
        for (int i = 0; i < query.length; i += 2) {
            q.computeIfAbsent(query[i], k -> new ArrayList<>()).add(query[i + 1]);
        }
        return RenderRequest.parse(q);
    }

    @Override
    public void close() {
        index.close();
        registry.close();
    }
}
