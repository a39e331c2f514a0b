package org.medjava.store.startup;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.logging.Logger;
import org.medjava.store.config.StoreConfig;
import org.medjava.store.dimse.DimseServer;
import org.medjava.store.filters.FilterRepository;
import org.medjava.store.ingest.Ingest;
import org.medjava.store.ingest.DuplicatePolicy;
import org.medjava.store.query.ArchiveSearch;
import org.medjava.store.scu.RemotePacs;
import org.medjava.store.index.DicomIndex;
import org.medjava.store.index.IndexDatabase;
import org.medjava.store.render.RenderService;
import org.medjava.store.repo.ImageRepository;
import org.medjava.store.repo.StorePath;
import org.medjava.store.repo.UploadValidator;
import org.medjava.store.security.PasswordHasher;
import org.medjava.store.security.Role;
import org.medjava.store.security.UserStore;
import org.medjava.store.storage.LocalFileStorage;
import org.medjava.store.storage.ObjectStorage;
import org.medjava.store.storage.S3Storage;

/**
 * The store's parts, assembled once at start from {@link StoreConfig}, handed to the resources by CDI producers and
 * closed at shutdown: accounts, the filter repository with its registry, the DICOM index, the image repository, the
 * ingest door, the renderer and the DICOM network. The data directory holds everything: {@code images/},
 * {@code plugins/}, {@code index/} (H2), {@code users.properties}.
 *
 * <p>The parts are plain objects of store-core and dicom-net; the producers are {@code @Dependent} and hand out the
 * one instance built here, so no client proxy is needed for their final classes.
 */
@ApplicationScoped
public class StoreAssembly {

    private static final Logger LOG = Logger.getLogger(StoreAssembly.class.getName());
    static final String SEEDED_MARKER = ".seeded";

    @Inject
    StoreConfig config;

    private UserStore users;
    private FilterRepository filters;
    private DicomIndex index;
    private ObjectStorage storage;
    private ImageRepository images;
    private RenderService renderer;
    private Ingest ingest;
    private ArchiveSearch search;
    private DimseServer dimse;
    private RemotePacs remotePacs;

    /** Builds everything when the application starts rather than on the first request. */
    void onStart(@Observes @Initialized(ApplicationScoped.class) Object event) {
        images.storage(); // touching the bean runs @PostConstruct
    }

    @PostConstruct
    void start() {
        long t0 = System.nanoTime();
        try {
            Path data = Files.createDirectories(config.dataDir());
            boolean firstStart = !Files.exists(data.resolve(SEEDED_MARKER));
            String newAdminPassword = createUsers(data);
            filters = new FilterRepository(config.pluginsDir(), data.resolve("work/registry"),
                    config.maxPluginBytes());
            if (firstStart && config.seedPlugins().isPresent()) {
                Seeder.seedPlugins(config.seedPlugins().get(), config.pluginsDir());
            }
            filters.loadAll();
            index = new DicomIndex(config.dbUrl() == null ? IndexDatabase.h2(data.resolve("index"))
                    : IndexDatabase.of(config.dbUrl(), config.dbUser(), config.dbPassword()));
            storage = openStorage(data);
            images = new ImageRepository(storage, config.maxUploadBytes());
            renderer = new RenderService(filters.registry(), config.maxPixels());
            ingest = new Ingest(images, index, new UploadValidator(config.maxPixels()),
                    DuplicatePolicy.parse(config.duplicatePolicy()));
            search = new ArchiveSearch(index);
            int seeded = 0;
            if (firstStart && config.seedImages().isPresent()) {
                seeded = Seeder.seedImages(config.seedImages().get(), StorePath.parse("samples/"), ingest);
            }
            if (index.count() == 0) {
                index.rebuild(storage); // a new or emptied database (e.g. a fresh PostgreSQL) catches up
            }
            Files.writeString(data.resolve(SEEDED_MARKER), "first started " + java.time.Instant.now() + "\n");
            dimse = DicomNetwork.start(config, ingest, search, index, images);
            remotePacs = DicomNetwork.remotePacs(config, ingest, search, images, data.resolve("work/scu"));
            Banner.print(config, users, newAdminPassword, filters.plugins().size(), seeded,
                    Duration.ofNanos(System.nanoTime() - t0), DicomNetwork.describe(dimse, remotePacs));

        } catch (IOException e) {
            throw new UncheckedIOException("the image store cannot start with data directory " + config.dataDir()
                    + ": " + e.getMessage(), e);
        }
    }

    /**
     * The objects' storage: files under the data directory, or S3-compatible object storage whose bodies are staged
     * under {@code work/staging}. Bad object-storage settings stop the start with a message naming the setting.
     */
    private ObjectStorage openStorage(Path data) throws IOException {
        if (!config.s3Storage()) {
            return new LocalFileStorage(config.imagesDir());
        }
        S3Storage s3 = S3Storage.open(config.s3Settings(), data.resolve("work/staging"));
        try {
            int aborted = s3.abortStaleUploads(Duration.ofDays(1));
            if (aborted > 0) {
                LOG.info("aborted " + aborted + " unfinished multipart uploads older than a day");
            }
        } catch (IOException e) { // housekeeping only: never a reason not to start
            LOG.warning("could not abort unfinished multipart uploads (" + e.getMessage() + "); continuing");
        }
        return s3;
    }

    /** @return the first admin's password when this start created it, else null */
    private String createUsers(Path data) throws IOException {
        users = new UserStore(data.resolve("users.properties"));
        if (!users.isEmpty()) {
            return null;
        }
        String password = config.initialAdminPassword().orElseGet(PasswordHasher::randomPassword);
        users.put("admin", password.toCharArray(), Role.ADMIN);
        LOG.info("created the first account, admin");
        return password;
    }

    @PreDestroy
    void stop() {
        if (dimse != null) {
            dimse.close();
        }
        if (filters != null) {
            filters.close();
        }
        if (index != null) {
            index.close();
        }
        if (storage != null) {
            storage.close();
        }
    }

    @Produces
    public UserStore users() {
        return users;
    }

    @Produces
    public FilterRepository filters() {
        return filters;
    }

    @Produces
    public DicomIndex index() {
        return index;
    }

    @Produces
    public ImageRepository images() {
        return images;
    }

    @Produces
    public RenderService renderer() {
        return renderer;
    }

    @Produces
    public Ingest ingest() {
        return ingest;
    }

    @Produces
    public ArchiveSearch search() {
        return search;
    }

    /** The remote PACS the store can query, retrieve from and send to. */
    @Produces
    public RemotePacs remotePacs() {
        return remotePacs;
    }
}
