package org.medjava.store.server.startup;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import java.util.List;
import java.util.Map;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.logging.Logger;
import org.medjava.filter.runtime.PluginTrust;
import org.medjava.store.core.cluster.ClusterDatabase;
import org.medjava.store.core.cluster.ClusterNodes;
import org.medjava.store.core.cluster.PostgresPathLocks;
import org.medjava.store.core.cluster.SharedPlugins;
import org.medjava.store.core.cluster.SharedRevocations;
import org.medjava.store.core.cluster.SharedState;
import org.medjava.store.server.config.AuthSettings;
import org.medjava.store.server.config.DatabaseSettings;
import org.medjava.store.server.config.LogSettings;
import org.medjava.store.server.config.StorageSettings;
import org.medjava.store.server.config.OidcSettings;
import org.medjava.store.server.config.PluginSettings;
import org.medjava.store.server.config.RenderSettings;
import org.medjava.store.server.config.RouteSettings;
import org.medjava.store.server.config.StoreConfig;
import org.medjava.store.core.jobs.JobKind;
import org.medjava.store.core.jobs.JobQueue;
import org.medjava.store.core.jobs.JobWorkers;
import org.medjava.store.core.jobs.LocalJobQueue;
import org.medjava.store.core.jobs.DeriveSeriesJob;
import org.medjava.store.core.jobs.DeidentifyJob;
import org.medjava.store.core.jobs.CorrectJob;
import org.medjava.store.core.correct.Corrector;
import org.medjava.store.core.jobs.RenderSeriesJob;
import org.medjava.store.core.jobs.SharedJobQueue;
import org.medjava.store.net.dimse.DimseServer;
import org.medjava.store.core.filters.FilterRepository;
import org.medjava.store.core.backup.StoreBackup;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.ingest.ResumableUploads;
import org.medjava.store.core.ingest.IntentJournal;
import org.medjava.store.core.ingest.Reconciliation;
import org.medjava.store.core.ingest.WriteBarrier;
import org.medjava.store.core.query.ArchiveSearch;
import org.medjava.store.net.scu.RemotePacs;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.derive.DerivedImages;
import org.medjava.store.core.memory.DecodeBudget;
import org.medjava.store.core.memory.UploadSlots;
import org.medjava.store.net.dicomweb.ThumbnailCache;
import org.medjava.store.core.render.RenderService;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.repo.LocalPathLocks;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.repo.UploadValidator;
import org.medjava.store.server.http.ClientHangups;
import org.medjava.store.server.security.CorsPolicy;
import org.medjava.store.server.security.LoginThrottle;
import org.medjava.store.server.security.PasswordHasher;
import org.medjava.store.server.security.Revocations;
import org.medjava.store.server.security.StoreKeys;
import org.medjava.store.server.security.OidcLogin;
import org.medjava.store.server.security.OidcTokens;
import org.medjava.store.server.security.Sessions;
import org.medjava.store.server.security.Role;
import org.medjava.store.server.admin.DataDirectoryLock;
import org.medjava.store.server.security.ShareLinks;
import org.medjava.store.server.security.SharedAccounts;
import org.medjava.store.server.security.UserStore;
import org.medjava.store.server.monitoring.RegistryMetrics;
import org.medjava.store.core.storage.DiskSpaceGuard;
import org.medjava.store.core.storage.LocalFileStorage;
import org.medjava.store.core.storage.ObjectStorage;
import org.medjava.store.core.storage.CacheCoherence;
import org.medjava.store.core.storage.CachedStorage;
import org.medjava.store.core.storage.ObjectCache;
import org.medjava.store.core.storage.S3Storage;
import org.medjava.store.core.audit.AuditEvents;
import org.medjava.store.core.audit.AuditLog;
import org.medjava.store.core.audit.AuditSource;
import org.medjava.store.core.audit.AuditTrail;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.audit.ReadAudit;
import org.medjava.store.core.audit.RotatingFile;
import org.medjava.store.core.audit.SearchableTrail;
import org.medjava.store.core.audit.SyslogSender;
import org.medjava.store.core.retention.Retention;
import org.medjava.store.core.retention.RuleBook;
import org.medjava.store.core.route.RouteWorker;
import org.medjava.store.core.route.Routing;
import org.medjava.store.net.route.NetworkRouteSender;
import org.medjava.store.core.trash.RejectionNote;
import org.medjava.store.core.trash.Trash;
import org.medjava.store.server.logging.AccessLog;
import org.medjava.store.server.logging.ServerLog;

/**
 * The store's parts, assembled once at start from {@link StoreConfig}, handed to the resources by CDI producers and
 * closed at shutdown: accounts, the filter repository with its registry, the DICOM index, the image repository, the
 * ingest door, the renderer and the DICOM network. The data directory holds everything: {@code images/},
 * {@code plugins/}, {@code index/} (H2), {@code users.properties}, {@code session.key} (and {@code deid.key} when a
 * move destination de-identifies).
 *
 * <p>The parts are plain objects of store-core and dicom-net; the producers are {@code @Dependent} and hand out the
 * one instance built here, so no client proxy is needed for their final classes.
 */
@ApplicationScoped
public class StoreAssembly {

    private static final Logger LOG = Logger.getLogger(StoreAssembly.class.getName());
    static final String SEEDED_MARKER = ".seeded";
    /** The certificate of the publisher that signed the plugins this build ships (the build puts it in the WAR). */
    static final String BUILT_IN_PUBLISHER = "META-INF/medjava/trusted-publishers/medjava-build.pem";
    /** How long a cancelled filter call has to stop before its plugin is quarantined. */
    static final java.time.Duration FILTER_GRACE = java.time.Duration.ofSeconds(2);
    /** How long a filter call waits for a free slot before 503: a short burst queues instead of failing. */
    static final java.time.Duration FILTER_QUEUE_WAIT = java.time.Duration.ofSeconds(2);

    @Inject
    StoreConfig config;

    @Inject
    RegistryMetrics metrics;

    private DataDirectoryLock dataLock;
    private UserStore users;
    private Sessions sessions;
    private OidcTokens oidc;
    private OidcLogin oidcLogin;
    private ShareLinks shareLinks;
    /** The sessions' key, which also signs share links. */
    private byte[] sessionKey;
    private LoginThrottle throttle;
    private CorsPolicy cors;
    private FilterRepository filters;
    private DicomIndex index;
    private ObjectStorage storage;
    private DiskSpaceGuard space;
    private ClusterDatabase clusterDatabase;
    private ClusterNodes nodes;
    private SharedState sharedState;
    private ImageRepository images;
    private RenderService renderer;
    private ThumbnailCache thumbnails;
    private ClientHangups hangups;
    private java.util.concurrent.ExecutorService validation;
    private UploadSlots uploadSlots;
    private DerivedImages derived;
    private Ingest ingest;
    private ArchiveSearch search;
    private DimseServer dimse;
    private RemotePacs remotePacs;
    private JobWorkers jobs;
    private StoreBackup backup;
    private ServerLog serverLog;
    private AccessLog accessLog;
    private AuditLog auditLog;
    /** The audit trail everything records to: audit.log (and syslog), and mj_audit for administrators' searches. */
    private SearchableTrail audit;
    private ReadAudit readAudit;
    private ResumableUploads uploads;
    private java.util.concurrent.ScheduledExecutorService uploadCleaner;
    private Trash trash;
    private Retention retention;
    private java.util.concurrent.ScheduledExecutorService trashKeeper;
    /** The cluster's path locks, whose lease renewer is stopped with the store. */
    private PostgresPathLocks writeLeases;
    /** The other nodes' word on the objects they change (a cluster on S3 with its object cache). */
    private org.medjava.store.core.cluster.SharedCacheCoherence cacheCoherence;
    /** Settles, every 2 s, the writes that ended while the index was away (see Ingest#settle). */
    private java.util.concurrent.ScheduledExecutorService settler;
    private Routing routing;
    private RouteWorker routeWorker;

    /** Builds everything when the application starts rather than on the first request. */
    void onStart(@Observes @Initialized(ApplicationScoped.class) Object event) {
        images.storage(); // touching the bean runs @PostConstruct
    }

    @PostConstruct
    void start() {
        long t0 = System.nanoTime();
        try {
            Path data = Files.createDirectories(config.data().dataDir());
            dataLock = DataDirectoryLock.tryAcquire(data).orElseThrow(() -> new IllegalStateException(
                    "another image store" + DataDirectoryLock.holder(data).map(pid -> " (pid " + pid + ")").orElse("")
                            + " is using the data directory " + data
                            + ": stop it first, or give this one its own medjava.data-dir"));
            openLogs();
            DatabaseSettings db = config.database();
            IndexDatabase database = db.url().isEmpty() ? IndexDatabase.h2(data.resolve("index"))
                    : IndexDatabase.of(db.url().get(), db.user(), db.password())
                            .withPoolSize(db.connections().index(config.cluster().enabled()));
            storage = openStorage(data);
            // writes land first in the staging directory (under images/ with files, work/staging with S3); the
            // index and the plugins live in the data directory: the fuller disk of the two decides
            space = new DiskSpaceGuard(config.storage().minFreeBytes(), List.of(config.storage().s3Storage()
                    ? data.resolve("work/staging") : config.data().imagesDir(), data));
            // this data directory's first start; a cluster's first start is its first node's only
            boolean newDataDir = !Files.exists(data.resolve(SEEDED_MARKER));
            boolean firstStart = config.cluster().enabled() ? joinCluster(database) : newDataDir;
            String newAdminPassword;
            newAdminPassword = createUsers(data);
            startSessions(data);
            filters = new FilterRepository(config.data().pluginsDir(), data.resolve("work/registry"),
                    config.uploads().maxPluginBytes(), space, pluginTrust(newDataDir),
                    config.plugins().workers().orElse(null));
            filters.auditTo(audit);
            RenderSettings render = config.render();
            filters.registry().setLimits(new org.medjava.filter.runtime.CallLimits(render.filterMaxConcurrent(),
                    java.time.Duration.ofSeconds(render.filterDeadlineSeconds()), FILTER_GRACE, FILTER_QUEUE_WAIT));
            if (firstStart && config.data().seedPlugins().isPresent()) {
                Seeder.seedPlugins(config.data().seedPlugins().get(), config.data().pluginsDir());
            }
            filters.loadAll();
            if (sharedState != null) {
                SharedPlugins.join(sharedState, filters, firstStart);
            }
            index = new DicomIndex(database);
            shareLinks = new ShareLinks(sessionKey, index, java.time.Duration.ofDays(config.access().shareMaxDays()),
                    java.time.Clock.systemUTC());
            audit.open(index::recordAudit);
            LogSettings logs = config.logs();
            readAudit = !logs.auditReads() ? ReadAudit.OFF : new ReadAudit(audit, logs.auditReadWindow(),
                    path -> index.instance(path).map(i -> new ReadAudit.StudyRef(i.studyInstanceUid(), i.patientId()))
                            .orElse(null));
            images = new ImageRepository(storage, config.uploads().maxBytes(),
                    clusterDatabase == null ? new LocalPathLocks() : (writeLeases = new PostgresPathLocks(
                            clusterDatabase, nodes.node())), space);
            DecodeBudget decodeBudget = new DecodeBudget(render.decodeBudgetBytes(), render.decodeWaitMillis());
            uploadSlots = new UploadSlots(config.uploads().largeBytes(), config.uploads().maxConcurrentLarge());
            renderer = new RenderService(filters.registry(), config.render().maxPixels(), metrics, decodeBudget,
                    config.render().maxFilterChain());
            thumbnails = new ThumbnailCache(config.http().thumbnailCacheBytes());
            hangups = new ClientHangups();
            validation = Ingest.validationThreads();
            IntentJournal journal = IntentJournal.open(data.resolve("work/journal"));
            ingest = Ingest.builder(images, index, new UploadValidator(config.render().maxPixels(), decodeBudget),
                    config.dicom().duplicatePolicy()).barrier(new WriteBarrier(config.data().backupMaxPause()))
                    .metrics(metrics).audit(audit).journal(journal).validation(validation)
                    .storedSyntax(config.dicom().storedSyntax()).build();
            // before any request: what a crash of this node left half-done is settled first (see IntentJournal)
            Reconciliation.run(journal, images, index);
            settler = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "write-settler");
                t.setDaemon(true);
                return t;
            });
            settler.scheduleWithFixedDelay(() -> quietly("settling writes the index missed", ingest::settle), 2, 2,
                    java.util.concurrent.TimeUnit.SECONDS);
            // on a cluster the accounts, rules and keys are in the shared database, and so in its dump
            backup = new StoreBackup(sharedState == null ? StoreBackup.Sources.local(storage, database,
                    ingest.barrier(), data, config.data().pluginsDir()) : new StoreBackup.Sources(storage, database,
                    ingest.barrier(), data, null, config.data().pluginsDir(), List.of(), List.of()));
            derived = new DerivedImages(images, renderer, filters.registry(), ingest);
            startResumableUploads(data);
            startTrash();
            search = new ArchiveSearch(index);
            int seeded = 0;
            if (firstStart && config.data().seedImages().isPresent()) {
                seeded = Seeder.seedImages(config.data().seedImages().get(), StorePath.parse("samples/"), ingest);
            }
            if (index.count() == 0) {
                index.rebuild(storage); // a new or emptied database (e.g. a fresh PostgreSQL) catches up
            }
            Files.writeString(data.resolve(SEEDED_MARKER), "first started " + java.time.Instant.now() + "\n");
            remotePacs = DicomNetwork.remotePacs(config.dicom(), config.tls(), ingest, search, images,
                    data.resolve("work/scu"));
            startRouting(data); // before the DICOM service: every instance it receives is routed
            dimse = DicomNetwork.start(config.dicom(), config.tls(), config.access().byProject(),
                    ingest, search, index, images, readAudit, () -> sharedState == null
                    ? StoreKeys.DEIDENTIFICATION.local(data) : StoreKeys.DEIDENTIFICATION.shared(sharedState));
            jobs = startJobs();
            metrics.watch(index, space, filters, jobs.queue());
            metrics.watchRoutes(routing);
            if (storage instanceof CachedStorage cached) {
                metrics.watchObjectCache(cached.cache());
            }
            audit.record(AuditEvents.application(true, operator()));
            Banner.show(config.data(), Banner.facts(config, users.roles().keySet(), newAdminPassword,
                    filters.plugins().size(), seeded, Duration.ofNanos(System.nanoTime() - t0),
                    DicomNetwork.describe(dimse, remotePacs)
                            + (nodes == null ? "" : "; cluster node " + nodes.node() + " of " + nodes.alive())));

        } catch (IOException e) {
            throw new UncheckedIOException("the image store cannot start with data directory " + config.data().dataDir()
                    + ": " + e.getMessage(), e);
        }
    }

    /**
     * The server log (medjava.log, with what goes to stderr), the access log and the audit trail (audit.log, and
     * syslog when medjava.audit.syslog is set), all under {@code <data-dir>/logs}.
     */
    private void openLogs() throws IOException {
        Path logs = Files.createDirectories(config.data().logsDir());
        serverLog = ServerLog.install(logs, config.logs().logMaxBytes(), config.logs().logFiles());
        accessLog = new AccessLog(new RotatingFile(logs.resolve("access.log"), config.logs().logMaxBytes(),
                config.logs().logFiles(), false));
        AuditSource source = AuditSource.of(config.dicom().aeTitle(), config.logs().auditSite().orElse(null));
        SyslogSender syslog = config.logs().auditSyslog()
                .map(target -> new SyslogSender(target, source.host(), "MedJava"))
                .orElse(null);
        auditLog = new AuditLog(source, new RotatingFile(logs.resolve("audit.log"), config.logs().auditMaxBytes(),
                config.logs().auditFiles(), true), syslog);
        audit = new SearchableTrail(auditLog, source.id()); // written to the index once it is open
        LOG.info("audit trail " + logs.resolve("audit.log") + config.logs().auditSyslog().map(t -> " and syslog " + t)
                .orElse("") + "; access log " + logs.resolve("access.log"));
    }

    /** The operating-system account running the store (who started or stopped it, for the audit trail). */
    private static String operator() {
        return System.getProperty("user.name", "unknown");
    }

    /**
     * The background jobs: this node's two workers on its own queue, or on the cluster's (any node claims the
     * jobs, and a job whose node died is run again by another).
     */
    private JobWorkers startJobs() {
        JobQueue queue = clusterDatabase == null ? new LocalJobQueue()
                : new SharedJobQueue(clusterDatabase, config.jobs().leaseSeconds());
        Jsonb json = JsonbBuilder.create();
        Corrector corrector = new Corrector(index, images, ingest, trash, metrics);
        Map<String, JobKind> kinds = Map.of(
                "index-rebuild", (params, progress, owner) -> json.toJson(index.rebuild(storage)),
                RenderSeriesJob.KIND, new RenderSeriesJob(index, images, renderer, ingest),
                DeriveSeriesJob.KIND, new DeriveSeriesJob(index, derived, renderer, ingest,
                        config.jobs().maxSeriesInstances()),
                DeidentifyJob.KIND, new DeidentifyJob(index, images, ingest, config.jobs().maxSeriesInstances()),
                CorrectJob.KIND, new CorrectJob(false, index, corrector, config.jobs().maxSeriesInstances()),
                CorrectJob.MERGE, new CorrectJob(true, index, corrector, config.jobs().maxSeriesInstances()),
                "retrieve", pacsJob((params, progress, owner) -> json.toJson(retrieve(params, progress, owner))),
                "send", pacsJob((params, progress, owner) -> json.toJson(send(params, progress, owner))),
                StoreBackup.JOB_KIND, (params, progress, owner) -> {
                    Path target = backup.prepareTarget(params.get("directory"));
                    return backup.run(target, progress).toJson(target);
                });
        return new JobWorkers(queue, nodes == null ? config.cluster().node() : nodes.node(), kinds, 2);
    }

    /** A retrieve job: {@code ae}, {@code method} (move or get) and the UIDs to retrieve; progress by instance. */
    private RemotePacs.RetrieveResult retrieve(Map<String, String> params, JobKind.Progress progress, Caller owner) {
        String ae = params.getOrDefault("ae", "");
        return remotePacs.retrieve(remotePacs.remote(ae), uidsOf(params), "get".equalsIgnoreCase(params.get("method")),
                progress::update, owner);
    }

    /** A send job: {@code ae} and the UIDs of the stored instances to send; progress by instance. */
    private RemotePacs.SendResult send(Map<String, String> params, JobKind.Progress progress, Caller owner) {
        return remotePacs.send(remotePacs.remote(params.getOrDefault("ae", "")), uidsOf(params), progress::update,
                owner);
    }

    /** A retrieve or send job, checked when submitted: a configured remote ({@code ae}) and a StudyInstanceUID. */
    private JobKind pacsJob(JobKind work) {
        return new JobKind() {
            @Override
            public void validate(Map<String, String> params) {
                remotePacs.remote(params.getOrDefault("ae", ""));
                if (!params.containsKey("StudyInstanceUID")) {
                    throw new org.medjava.store.core.StoreException(org.medjava.store.core.StoreException.Kind.BAD_REQUEST,
                            "the params name at least ae and the "
                            + "StudyInstanceUID (and optionally SeriesInstanceUID, SOPInstanceUID)");
                }
            }

            @Override
            public String run(Map<String, String> params, Progress progress, Caller owner) throws Exception {
                return work.run(params, progress, owner);
            }
        };
    }

    private static Map<String, String> uidsOf(Map<String, String> params) {
        Map<String, String> keys = new java.util.LinkedHashMap<>();
        for (String k : List.of("StudyInstanceUID", "SeriesInstanceUID", "SOPInstanceUID")) {
            if (params.containsKey(k)) {
                keys.put(k, params.get(k));
            }
        }
        return keys;
    }

    /**
     * Joins the cluster whose nodes share {@code database} (PostgreSQL: the index, the path locks, the accounts and
     * the plugin catalog) and the object storage (StoreConfig refuses a node without either).
     *
     * @return whether this node initializes a new cluster (seeds it, publishes its plugins): exactly one node does
     */
    private boolean joinCluster(IndexDatabase database) {
        // StoreConfig made sure of both already: a PostgreSQL medjava.db.url and S3 storage
        clusterDatabase = new ClusterDatabase(database, config.database().connections().coordination());
        nodes = ClusterNodes.join(clusterDatabase, config.cluster().node(), storage.describe());
        sharedState = new SharedState(clusterDatabase);
        if (storage instanceof CachedStorage cached) { // every node announces its changes, with a cache or not
            cacheCoherence = new org.medjava.store.core.cluster.SharedCacheCoherence(clusterDatabase, nodes.node(),
                    cached.cache());
            cached.coherence(cacheCoherence);
        }
        boolean first = sharedState.putIfAbsent("cluster", "initialized",
                nodes.node().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        LOG.info("joined the cluster as " + nodes.node() + (first ? ", initializing it" : ""));
        return first;
    }

    /**
     * The objects' storage: files under the data directory, or S3-compatible object storage whose bodies are staged
     * under {@code work/staging}. Bad object-storage settings stop the start with a message naming the setting.
     */
    /**
     * The plugin publishers this store trusts: the trust store directory, filled with the built-in plugins'
     * publisher from the seed on the first start (or while it does not exist yet, as after an upgrade).
     */
    /**
     * Whose plugins this node loads. A node's first start puts the certificate of the publisher of the plugins this
     * build ships (inside the WAR) in its trust store, and those beside the seed plugins: every node of a cluster,
     * though only one seeds, since each has its own trust store and loads the built-in plugins from the catalog.
     */
    private PluginTrust pluginTrust(boolean newDataDir) throws IOException {
        PluginSettings settings = config.plugins();
        Path publishers = settings.trustedPublishers();
        if (newDataDir || !Files.exists(publishers)) {
            try (java.io.InputStream builtIn = StoreAssembly.class.getClassLoader()
                    .getResourceAsStream(BUILT_IN_PUBLISHER)) {
                Path target = Files.createDirectories(publishers).resolve("medjava-build.pem");
                if (builtIn != null && !Files.exists(target)) {
                    Files.copy(builtIn, target);
                }
            }
            if (config.data().seedPlugins().isPresent()) {
                Seeder.seedPublishers(config.data().seedPlugins().get(), publishers);
            }
        }
        PluginTrust trust = PluginTrust.load(settings.signatures(), publishers);
        LOG.info("filter plugins: signatures " + trust + " (" + publishers + ")");
        return trust;
    }

    private ObjectStorage openStorage(Path data) throws IOException {
        if (!config.storage().s3Storage()) {
            return new LocalFileStorage(config.data().imagesDir());
        }
        S3Storage s3 = S3Storage.open(config.storage().s3().orElseThrow(), data.resolve("work/staging"));
        try {
            int aborted = s3.abortStaleUploads(Duration.ofDays(1));
            if (aborted > 0) {
                LOG.info("aborted " + aborted + " unfinished multipart uploads older than a day");
            }
        } catch (IOException e) { // housekeeping only: never a reason not to start
            LOG.warning("could not abort unfinished multipart uploads (" + e.getMessage() + "); continuing");
        }
        StorageSettings settings = config.storage();
        if (settings.cacheBytes() <= 0 && !config.cluster().enabled()) {
            return s3;
        }
        // a cluster node without a cache of its own still tells the others' caches of its writes
        CachedStorage cached = new CachedStorage(s3, new ObjectCache(settings.cacheDir()
                .orElse(data.resolve("work/object-cache")), Math.max(0, settings.cacheBytes()),
                Math.max(0, settings.cacheBytes()) / 4));
        if (!config.cluster().enabled()) {
            cached.coherence(CacheCoherence.ALONE); // its own writes are all there are
        }
        return cached;
    }

    /** @return the first admin's password when this start created it, else null */
    private String createUsers(Path data) throws IOException {
        users = sharedState == null ? new UserStore(data.resolve("users.properties"))
                : new UserStore(new SharedAccounts(sharedState));
        users.auditTo(audit);
        if (!users.isEmpty()) {
            return null;
        }
        String password = config.auth().initialAdminPassword().orElseGet(PasswordHasher::randomPassword);
        // the first account is the operator's doing
        if (!users.putIfAbsent("admin", password.toCharArray(), Role.ADMIN, Caller.account(operator(), null))) {
            return null; // another node of the cluster created it first
        }
        LOG.info("created the first account, admin");
        return password;
    }

    /**
     * Browser sessions, signed with the key of this node's data directory or of the cluster, and which other
     * origins may call the store. A bad setting stops the start naming it.
     */
    private void startSessions(Path data) throws IOException {
        byte[] key = sharedState == null ? StoreKeys.SESSION.local(data) : StoreKeys.SESSION.shared(sharedState);
        Revocations revocations = clusterDatabase == null ? Revocations.local()
                : Revocations.shared(new SharedRevocations(clusterDatabase));
        sessions = new Sessions(key, users, revocations, config.auth().sessionIdle(), config.auth().sessionMax(),
                java.time.Clock.systemUTC(), (share, now) -> shareLinks == null ? "the store is starting"
                        : shareLinks.problem(share, now));
        sessionKey = key;
        cors = CorsPolicy.parse(config.auth().corsOrigins());
        AuthSettings auth = config.auth();
        throttle = LoginThrottle.of(auth.maxFailures(), auth.maxAddressFailures(), auth.maxDelay());
        OidcSettings sso = config.oidc();
        oidc = sso.issuer().map(issuer -> new OidcTokens(new OidcTokens.Settings(issuer, sso.audience(),
                sso.usernameClaim(), sso.rolesClaim(), OidcTokens.parseRoleMap(sso.roleMap()), sso.projectsClaim(),
                sso.clockSkew(), java.time.Duration.ofSeconds(5)), java.time.Clock.systemUTC())).orElse(null);
        if (oidc != null) {
            oidcLogin = new OidcLogin(oidc, key, sso.clientId(), sso.clientSecret(), sso.scopes(),
                    java.time.Clock.systemUTC());
            LOG.info("single sign-on: bearer tokens of " + oidc.settings().issuer() + " for audience "
                    + oidc.settings().audience() + ", roles from " + oidc.settings().rolesClaim());
        }
        LOG.info("browser sessions: idle " + config.auth().sessionIdle().toMinutes() + " min, at most "
                + config.auth().sessionMax().toHours() + " h; CORS: " + cors);
    }

    /**
     * tus uploads keep their partial data in {@code work/uploads} (local to this node, also with S3 storage); expired
     * ones are removed now and then every tenth of the expiry (at most hourly).
     */
    private void startResumableUploads(Path data) throws IOException {
        Duration expiry = config.uploads().resumableExpiry();
        // A large object's chunks and its final ingest count against the same cap as a large PUT.
        ResumableUploads.Admission admission = bytes -> uploadSlots.admit(bytes)::close;
        uploads = new ResumableUploads(data.resolve("work/uploads"), ingest, expiry, java.time.Clock.systemUTC(),
                admission);
        long every = Math.max(1000, Math.min(Duration.ofHours(1).toMillis(), expiry.toMillis() / 10));
        uploadCleaner = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "resumable-upload-cleaner");
            t.setDaemon(true);
            return t;
        });
        uploadCleaner.scheduleWithFixedDelay(uploads::clean, every, every,
                java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    /**
     * The trash: deleted studies restorable for medjava.trash.grace-hours, then purged in the background; on several
     * nodes each node follows the others' deletions every second (what its reads by path hide).
     */
    private void startTrash() {
        trash = new Trash(index, images, config.trash().trash(), audit, metrics, java.time.Clock.systemUTC());
        // an IOCM rejection note received by C-STORE or STOW-RS moves what it names to the trash
        ingest.afterReceive((stored, dataSet, from) -> RejectionNote.of(dataSet)
                .ifPresent(note -> trash.reject(note, stored.sopInstanceUid(), from)));
        // labels by sender (medjava.access.receive-labels): a modality's studies land in their project
        java.util.Map<String, java.util.Set<String>> labelRules = config.access().receiveLabels();
        if (!labelRules.isEmpty()) {
            ingest.afterReceive(new org.medjava.store.core.ingest.ReceiveLabels(index, labelRules));
            LOG.info("labels on receive: " + labelRules);
        }
        retention = new Retention(index, trash, sharedState == null ? RuleBook.directory(config.data().dataDir()
                .resolve("retention")) : RuleBook.shared(sharedState), java.time.Clock.systemUTC());
        // two threads: a long purge or retention run must not hold up following the other nodes' deletions
        trashKeeper = java.util.concurrent.Executors.newScheduledThreadPool(2, r -> {
            Thread t = new Thread(r, "trash-keeper");
            t.setDaemon(true);
            return t;
        });
        long every = config.trash().purgeInterval().toMillis();
        trashKeeper.scheduleWithFixedDelay(() -> quietly("purging the trash", trash::purgeDue), every, every,
                java.util.concurrent.TimeUnit.MILLISECONDS);
        if (clusterDatabase != null) {
            trashKeeper.scheduleWithFixedDelay(() -> quietly("following the trash", trash::refresh), 1, 1,
                    java.util.concurrent.TimeUnit.SECONDS);
        }
        long rules = config.trash().retentionInterval().toMillis();
        trashKeeper.scheduleWithFixedDelay(() -> quietly("running the retention rules", retention::runAll), rules,
                rules, java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    /**
     * Routing rules: instances that match go to the queue as they arrive (an after-receive hook), this node's worker
     * sends what is due (on a cluster, any node: the queue is in the shared database, the rules in the shared state).
     */
    private void startRouting(Path data) {
        Map<String, org.medjava.store.net.dimse.RemoteAe> remotes = new java.util.LinkedHashMap<>();
        remotePacs.remotes().forEach(r -> remotes.put(r.aeTitle(), r));
        NetworkRouteSender sender = new NetworkRouteSender(remotes, config.dicom().aeTitle());
        routing = Routing.of(index, data.resolve("routes"), sharedState, sender, java.time.Clock.systemUTC());
        ingest.afterReceive(routing);
        RouteSettings routes = config.routes();
        routeWorker = new RouteWorker(routing, index, images, sender, new RouteWorker.Settings(nodes == null
                ? config.cluster().node() : nodes.node(), routes.lease(), routes.batch(), routes.backoff(),
                routes.poll()), data.resolve("work/route"), audit, metrics, java.time.Clock.systemUTC()).start();
        java.time.Duration history = config.routes().history();
        trashKeeper.scheduleWithFixedDelay(() -> quietly("forgetting the routing history", () -> routing.forgetSent(
                history)), 1, 60, java.util.concurrent.TimeUnit.MINUTES);
    }

    /** Runs a background task whose failure (the database down a moment) must not end its schedule. */
    private static void quietly(String what, Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            LOG.warning(what + " failed (tried again at the next round): " + e.getMessage());
        }
    }

    @PreDestroy
    void stop() {
        if (hangups != null) {
            hangups.close();
        }
        if (uploadCleaner != null) {
            uploadCleaner.shutdownNow();
        }
        if (trashKeeper != null) {
            trashKeeper.shutdownNow();
        }
        if (settler != null) {
            settler.shutdownNow();
        }
        if (writeLeases != null) {
            writeLeases.close();
        }
        if (routeWorker != null) {
            routeWorker.close();
        }
        if (jobs != null) {
            jobs.close();
        }
        if (cacheCoherence != null) {
            cacheCoherence.close();
        }
        if (sharedState != null) {
            sharedState.close();
        }
        if (nodes != null) {
            nodes.close();
        }
        if (dimse != null) {
            dimse.close();
        }
        if (validation != null) { // after the doors that receive: no check is waiting on it now
            validation.shutdownNow();
        }
        if (filters != null) {
            filters.close();
        }
        if (readAudit != null) {
            readAudit.close(); // the last window's reads, before the trail's last batch
        }
        if (audit != null) {
            audit.close(); // its last batch, before the index closes
        }
        if (index != null) {
            index.close();
        }
        if (ingest != null) {
            ingest.journal().close();
        }
        if (storage != null) {
            storage.close();
        }
        if (clusterDatabase != null) {
            clusterDatabase.close();
        }
        if (dataLock != null) {
            try {
                dataLock.close();
            } catch (IOException e) {
                LOG.warning("could not release " + config.data().dataDir() + "/store.lock: " + e.getMessage());
            }
        }
        closeLogs();
    }

    private void closeLogs() {
        if (auditLog != null) {
            auditLog.record(AuditEvents.application(false, operator())); // the searchable copy is closed already
            auditLog.close();
        }
        try {
            if (accessLog != null) {
                accessLog.close();
            }
        } catch (IOException e) {
            LOG.fine("closing the access log: " + e.getMessage());
        }
        if (serverLog != null) {
            serverLog.close();
        }
    }

    @Produces
    public Trash trash() {
        return trash;
    }

    @Produces
    public Retention retention() {
        return retention;
    }

    @Produces
    public Routing routing() {
        return routing;
    }

    @Produces
    public AuditTrail auditTrail() {
        return audit == null ? AuditTrail.NONE : audit;
    }

    /** The audit of reads, queries and exports (aggregated per window; {@link ReadAudit#OFF} when turned off). */
    @Produces
    public ReadAudit readAudit() {
        return readAudit == null ? ReadAudit.OFF : readAudit;
    }

    /** The audit trail administrators search (mj_audit); injected as AuditTrail through {@link #auditTrail}. */
    @Produces
    @jakarta.enterprise.inject.Typed(SearchableTrail.class)
    public SearchableTrail searchableTrail() {
        return audit;
    }

    @Produces
    public AccessLog accessLog() {
        return accessLog;
    }

    @Produces
    public UserStore users() {
        return users;
    }

    @Produces
    public Sessions sessions() {
        return sessions;
    }

    @Produces
    public ShareLinks shareLinks() {
        return shareLinks;
    }

    /** Null when no OpenID provider is configured ({@code medjava.oidc.issuer}). */
    @Produces
    public OidcTokens oidcTokens() {
        return oidc;
    }

    /** Null when no OpenID provider is configured. */
    @Produces
    public OidcLogin oidcLogin() {
        return oidcLogin;
    }

    @Produces
    public LoginThrottle throttle() {
        return throttle;
    }

    @Produces
    public CorsPolicy cors() {
        return cors;
    }

    @Produces
    public FilterRepository filters() {
        return filters;
    }

    @Produces
    public DicomIndex index() {
        return index;
    }

    /** The free-space floor every write is held to. */
    @Produces
    public DiskSpaceGuard space() {
        return space;
    }

    @Produces
    public ImageRepository images() {
        return images;
    }

    @Produces
    public RenderService renderer() {
        return renderer;
    }

    /** Thumbnails made, for DICOMweb's thumbnail resources on either path (the front's or the container's). */
    @Produces
    public ThumbnailCache thumbnails() {
        return thumbnails;
    }

    /** Who watches for clients that hung up during a filter call (one reader thread, closed with the store). */
    @Produces
    public ClientHangups hangups() {
        return hangups;
    }

    /** The cap on concurrent large uploads. */
    @Produces
    public UploadSlots uploadSlots() {
        return uploadSlots;
    }

    @Produces
    public Ingest ingest() {
        return ingest;
    }

    @Produces
    public ResumableUploads uploads() {
        return uploads;
    }

    @Produces
    public DerivedImages derived() {
        return derived;
    }

    @Produces
    public ArchiveSearch search() {
        return search;
    }

    @Produces
    public JobWorkers jobs() {
        return jobs;
    }

    @Produces
    public StoreBackup backup() {
        return backup;
    }

    /** The remote PACS the store can query, retrieve from and send to. */
    @Produces
    public RemotePacs remotePacs() {
        return remotePacs;
    }
}
