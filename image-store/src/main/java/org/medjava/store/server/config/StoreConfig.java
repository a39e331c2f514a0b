package org.medjava.store.server.config;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The store's settings, read once at start from MicroProfile Config (system properties, environment such as
 * {@code MEDJAVA_UPLOAD_MAX_BYTES}, or {@code META-INF/microprofile-config.properties}) into one record per part of
 * the store, each checked as it is read: a bad value stops the start with a message naming the key. Each record
 * declares its keys, with their meaning (docs/configuration.md, which ConfigurationReferenceTest renders and checks);
 * a class takes the records it needs, which are produced here.
 */
@ApplicationScoped
public class StoreConfig {

    private DataSettings data;
    private DatabaseSettings database;
    private StorageSettings storage;
    private LinkSettings links;
    private HttpSettings http;
    private TlsSettings tls;
    private AuthSettings auth;
    private OidcSettings oidc;
    private AccessSettings access;
    private UploadSettings uploads;
    private RenderSettings render;
    private DicomSettings dicom;
    private LogSettings logs;
    private ClusterSettings cluster;
    private JobSettings jobs;
    private TrashSettings trash;
    private RouteSettings routes;
    private PluginSettings plugins;

    /** For CDI, which reads the settings at {@link #read()}. */
    protected StoreConfig() {
    }

    /** The settings of {@code source}, checked. */
    StoreConfig(SettingsSource source) {
        read(source);
    }

    @PostConstruct
    void read() {
        read(SettingsSource.of(ConfigProvider.getConfig()));
    }

    private void read(SettingsSource source) {
        data = DataSettings.from(source);
        database = DatabaseSettings.from(source);
        storage = StorageSettings.from(source);
        links = LinkSettings.from(source);
        access = AccessSettings.from(source);
        http = HttpSettings.from(source, access.byProject());
        tls = TlsSettings.from(source);
        auth = AuthSettings.from(source);
        oidc = OidcSettings.from(source);
        uploads = UploadSettings.from(source);
        render = RenderSettings.from(source);
        dicom = DicomSettings.from(source);
        logs = LogSettings.from(source);
        cluster = ClusterSettings.from(source, data.dataDir());
        jobs = JobSettings.from(source);
        trash = TrashSettings.from(source);
        routes = RouteSettings.from(source);
        plugins = PluginSettings.from(source, data.dataDir(), render.filterMaxConcurrent());
        if (cluster.enabled()) {
            checkCluster();
        }
    }

    /** What a cluster's node needs besides its own settings: the database and the object storage all nodes share. */
    private void checkCluster() {
        if (!database.postgres()) {
            throw new SettingException("medjava.cluster.enabled=true needs the database all nodes share: set"
                    + " medjava.db.url=jdbc:postgresql://host/db (and medjava.db.user, medjava.db.password)",
                    DatabaseSettings.URL);
        }
        if (!storage.s3Storage()) {
            throw new SettingException("medjava.cluster.enabled=true needs the object storage all nodes share:"
                    + " set medjava.storage=s3 and medjava.storage.s3.*", StorageSettings.STORAGE);
        }
    }

    @Produces
    public DataSettings data() {
        return data;
    }

    @Produces
    public PluginSettings plugins() {
        return plugins;
    }

    @Produces
    public DatabaseSettings database() {
        return database;
    }

    @Produces
    public StorageSettings storage() {
        return storage;
    }

    @Produces
    public LinkSettings links() {
        return links;
    }

    @Produces
    public HttpSettings http() {
        return http;
    }

    @Produces
    public TlsSettings tls() {
        return tls;
    }

    @Produces
    public AuthSettings auth() {
        return auth;
    }

    @Produces
    public OidcSettings oidc() {
        return oidc;
    }

    @Produces
    public AccessSettings access() {
        return access;
    }

    @Produces
    public UploadSettings uploads() {
        return uploads;
    }

    @Produces
    public RenderSettings render() {
        return render;
    }

    @Produces
    public DicomSettings dicom() {
        return dicom;
    }

    @Produces
    public LogSettings logs() {
        return logs;
    }

    @Produces
    public ClusterSettings cluster() {
        return cluster;
    }

    @Produces
    public JobSettings jobs() {
        return jobs;
    }

    @Produces
    public TrashSettings trash() {
        return trash;
    }

    @Produces
    public RouteSettings routes() {
        return routes;
    }
}
