package org.medjava.store.server.config;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.medjava.store.core.storage.S3Settings;

/**
 * The store's settings, from MicroProfile Config (system properties, environment such as
 * {@code MEDJAVA_UPLOAD_MAX_BYTES}, or {@code META-INF/microprofile-config.properties}). Read once at start. Each
 * key's javadoc is its entry in docs/configuration.md, which ConfigurationReferenceTest renders and checks.
 */
@ApplicationScoped
public class StoreConfig {

    /**
     * The data directory: the H2 index ({@code index/}), {@code images/}, {@code plugins/}, the accounts
     * ({@code users.properties}), {@code session.key}, {@code logs/} and {@code work/} (staging, journal); a relative
     * path is taken from the store's working directory. One store per directory: a second is refused at start.
     * {@code ./medjava start} sets it from {@code MEDJAVA_DATA}.
     */
    @Inject
    @ConfigProperty(name = "medjava.data-dir", defaultValue = "data")
    String dataDir;

    /**
     * The largest upload, in bytes: a larger {@code PUT /images/...}, STOW-RS request or resumable upload is refused
     * with 413, from {@code Content-Length} before the body is read (a resumable upload at its creation), or as soon as
     * a chunked body passes it.
     */
    @Inject
    @ConfigProperty(name = "medjava.upload.max-bytes", defaultValue = "1073741824")
    long maxUploadBytes;

    /** The largest filter plugin JAR accepted, in bytes. */
    @Inject
    @ConfigProperty(name = "medjava.plugin.max-bytes", defaultValue = "16777216")
    long maxPluginBytes;

    /**
     * How long a resumable upload (tus, {@code /uploads}) lives after its last chunk (or its creation), in hours;
     * fractions allowed, above 0. {@code Upload-Expires} says when; an expired upload is 410 and is removed by a
     * cleaner that runs every tenth of this (at most hourly) and at start.
     */
    @Inject
    @ConfigProperty(name = "medjava.upload.resumable-expiry-hours", defaultValue = "24")
    double resumableExpiryHours;

    /**
     * The most pixels an image may have: a hard ceiling independent of the heap, since a raster is one Java array; the
     * decode budget ({@code medjava.memory.decode-budget-bytes}) is what adapts to memory.
     */
    @Inject
    @ConfigProperty(name = "medjava.images.max-pixels", defaultValue = "268435456")
    long maxPixels;

    /** Whether reads need no login; writes and administration always need one. */
    @Inject
    @ConfigProperty(name = "medjava.auth.anonymous-read", defaultValue = "false")
    boolean anonymousRead;

    /**
     * The password of the {@code admin} account made on the first start (for automation; in a cluster, on the cluster's
     * first start). Unset: a random one, printed once in the start banner.
     */
    @Inject
    @ConfigProperty(name = "medjava.admin.initial-password")
    Optional<String> initialAdminPassword;

    /**
     * The JDBC URL of the index database. Unset: an H2 file database in the data directory's {@code index/}, opened
     * with {@code WRITE_DELAY=0} (a URL given here decides that itself). A cluster needs the PostgreSQL all nodes
     * share, e.g. {@code jdbc:postgresql://db:5432/medjava}.
     */
    @Inject
    @ConfigProperty(name = "medjava.db.url")
    Optional<String> dbUrl;

    /** The index database's user, with {@code medjava.db.url}. */
    @Inject
    @ConfigProperty(name = "medjava.db.user")
    Optional<String> dbUser;

    /** The index database's password, with {@code medjava.db.url}. */
    @Inject
    @ConfigProperty(name = "medjava.db.password")
    Optional<String> dbPassword;

    /**
     * The most connections this node holds to a PostgreSQL index database, all pools together (at least 6; unused
     * with H2). Size a cluster by nodes × this ≤ the server's {@code max_connections} − its reserved connections −
     * other clients: PostgreSQL's default 100 with 3 reserved takes six nodes at 12, with room for backups and psql.
     */
    @Inject
    @ConfigProperty(name = "medjava.db.max-connections", defaultValue = "12")
    int dbMaxConnections;

    /**
     * A directory whose files are stored under {@code samples/} on the first start (in a cluster: on its first start,
     * so set it on one node only); {@code ./medjava start} gives the sample images.
     */
    @Inject
    @ConfigProperty(name = "medjava.seed.images")
    Optional<String> seedImages;

    /**
     * A directory whose plugin JARs are installed on the first start (as {@code <Plugin-Id>.jar});
     * {@code ./medjava start} gives the eight built plugins. In a cluster, set it on one node only.
     */
    @Inject
    @ConfigProperty(name = "medjava.seed.plugins")
    Optional<String> seedPlugins;

    /**
     * Where clients reach the store, with a proxy's path prefix if any (e.g. {@code https://pacs.example.org/medjava}):
     * every absolute link the store writes (RetrieveURL, BulkDataURI, Location) starts with it, its host is one of the
     * store's names for the Host check, and an {@code https} URL makes the session cookie Secure. Unset: links come
     * from trusted forwarded headers, else from a {@code Host} that names this server. Setting it is the safe choice in
     * production; {@code ./medjava start} sets it to {@code http://localhost:<MEDJAVA_PORT>} (or the bind address)
     * unless {@code MEDJAVA_PUBLIC_URL} is given.
     */
    @Inject
    @ConfigProperty(name = "medjava.public-url")
    Optional<String> publicUrl;

    /**
     * Whether a proxy's {@code Forwarded} / {@code X-Forwarded-Proto/Host/Port/Prefix/For} headers are believed when
     * {@code medjava.public-url} is unset: for links, and for the client address of the access log and of login
     * throttling. Set it behind a reverse proxy, and let only the proxy reach the store.
     */
    @Inject
    @ConfigProperty(name = "medjava.http.trust-forwarded", defaultValue = "false")
    boolean trustForwarded;

    /**
     * Whether plain file GETs and HEADs under {@code /images/}, WADO-RS frames and thumbnails are answered by the
     * store's front itself (front.FrontReads) rather than relayed to the servlet container (see docs/performance.md).
     */
    @Inject
    @ConfigProperty(name = "medjava.http.direct-reads", defaultValue = "true")
    boolean directReads;

    /**
     * The store's public HTTP port, served by its own front (front.FrontServer), which relays what it does not answer
     * itself to Payara; unset: no front, Payara's port only. Every starter sets it ({@code ./medjava start}:
     * {@code MEDJAVA_PORT}).
     */
    @Inject
    @ConfigProperty(name = "medjava.http.port")
    Optional<Integer> httpPort;

    /** The address the front (HTTP, and HTTPS) listens on; unset: every interface. */
    @Inject
    @ConfigProperty(name = "medjava.http.bind")
    Optional<String> httpBind;

    /** The front's HTTPS port (HTTP/1.1 and HTTP/2 chosen by ALPN); unset: no HTTPS. */
    @Inject
    @ConfigProperty(name = "medjava.https.port")
    Optional<Integer> httpsPort;

    /**
     * The address the front's HTTPS listens on when it differs from HTTP's: {@code *} for every interface. Unset:
     * {@code medjava.http.bind}'s. {@code ./medjava start} keeps HTTP on the loopback and HTTPS on every interface.
     */
    @Inject
    @ConfigProperty(name = "medjava.https.bind")
    Optional<String> httpsBind;

    /**
     * The store's certificate and key, for the front's HTTPS and DICOM TLS: a PKCS#12 or JKS key store.
     * {@code ./medjava start} gives the one it made on the first start ({@code <data>/tls/store.p12}) unless one is
     * set. Unset: Payara Micro's built-in self-signed one (the JVM's {@code javax.net.ssl.keyStore}).
     */
    @Inject
    @ConfigProperty(name = "medjava.tls.keystore")
    Optional<String> tlsKeystore;

    /** The password of {@code medjava.tls.keystore}. */
    @Inject
    @ConfigProperty(name = "medjava.tls.keystore-password")
    Optional<String> tlsKeystorePassword;

    /** Requests the front relays to Payara at once (each holds one loopback connection while it runs); at least 1. */
    @Inject
    @ConfigProperty(name = "medjava.http.max-relayed", defaultValue = "256")
    int maxRelayed;

    /** Requests that may wait for one of those; more are answered 503 with {@code Retry-After} at once. At least 1. */
    @Inject
    @ConfigProperty(name = "medjava.http.max-waiting", defaultValue = "1024")
    int maxWaiting;

    /**
     * Direct memory for the bytes of small files the front read lately (front.SmallFileCache), served again while the
     * file's ETag is unchanged, in bytes; 0 turns it off.
     */
    @Inject
    @ConfigProperty(name = "medjava.http.read-cache-bytes", defaultValue = "67108864")
    long readCacheBytes;

    /**
     * DICOMweb thumbnails kept once made (dicomweb.ThumbnailCache), by what was asked and the stored object's entity
     * tag, in bytes; 0 turns it off.
     */
    @Inject
    @ConfigProperty(name = "medjava.http.thumbnail-cache-bytes", defaultValue = "33554432")
    long thumbnailCacheBytes;

    /**
     * Payara Micro's own HTTP port (its {@code --port}), where the front relays what it does not answer itself;
     * required with {@code medjava.http.port}. {@code deploy/payara-preboot.txt} binds it to the loopback;
     * {@code ./medjava start} takes the first free port from {@code MEDJAVA_PORT}+1000.
     */
    @Inject
    @ConfigProperty(name = "medjava.http.backend-port", defaultValue = "0")
    int backendPort;

    /**
     * Seconds a request's line and headers may take to arrive (front.HeaderClock); a connection whose headers have not
     * all arrived by then is closed, as nginx's {@code client_header_timeout}. 0 turns it off.
     */
    @Inject
    @ConfigProperty(name = "medjava.http.header-timeout-seconds", defaultValue = "20")
    int headerTimeoutSeconds;

    /**
     * Where the objects live: {@code files} ({@code <data-dir>/images}: staged, forced to disk, renamed into place) or
     * {@code s3} (S3-compatible object storage, {@code medjava.storage.s3.*}; a cluster needs it).
     */
    @Inject
    @ConfigProperty(name = "medjava.storage", defaultValue = "files")
    String storage;

    /**
     * The free space, in bytes, the store keeps on the disk of its data directory (with S3, of {@code work/staging},
     * where bodies are staged): below it every write is refused before it starts (HTTP 507, C-STORE A700), and so is a
     * PUT whose {@code Content-Length} would take the disk below it; reads, renderings, queries and deletes go on. 0
     * turns it off.
     */
    @Inject
    @ConfigProperty(name = "medjava.storage.min-free-bytes", defaultValue = "1073741824")
    long minFreeBytes;

    /**
     * The S3 endpoint, an {@code http://} or {@code https://} URL (e.g. {@code http://objects.example.org:9000});
     * required with {@code medjava.storage=s3}. Path-style addressing.
     */
    @Inject
    @ConfigProperty(name = "medjava.storage.s3.endpoint")
    Optional<String> s3Endpoint;

    /** The signing region; unset: {@code us-east-1}. */
    @Inject
    @ConfigProperty(name = "medjava.storage.s3.region")
    Optional<String> s3Region;

    /** The bucket; required with {@code medjava.storage=s3}, and it must exist. */
    @Inject
    @ConfigProperty(name = "medjava.storage.s3.bucket")
    Optional<String> s3Bucket;

    /**
     * The key prefix: objects are keyed {@code <prefix>/<store path>}, so the bucket mirrors the HTTP paths and the
     * index can be rebuilt from it alone. May be empty.
     */
    @Inject
    @ConfigProperty(name = "medjava.storage.s3.prefix", defaultValue = "images")
    String s3Prefix;

    /** The S3 access key; required with {@code medjava.storage=s3}. */
    @Inject
    @ConfigProperty(name = "medjava.storage.s3.access-key")
    Optional<String> s3AccessKey;

    /** The S3 secret key; required with {@code medjava.storage=s3}; never printed. */
    @Inject
    @ConfigProperty(name = "medjava.storage.s3.secret-key")
    Optional<String> s3SecretKey;

    /**
     * Several nodes as one store, coordinated through the PostgreSQL they share ({@code medjava.db.url}) and S3
     * storage: a node refuses to start without a PostgreSQL {@code medjava.db.url} and {@code medjava.storage=s3}, or
     * when a live node uses another storage (see docs/cluster.md).
     */
    @Inject
    @ConfigProperty(name = "medjava.cluster.enabled", defaultValue = "false")
    boolean clusterEnabled;

    /**
     * This node's name, unique in the cluster ({@code node1}, {@code store2}, ...): in logs and in the coordination
     * tables. Unset: the host name and the data directory's name ({@code host:dir}).
     */
    @Inject
    @ConfigProperty(name = "medjava.cluster.node")
    Optional<String> clusterNode;

    /**
     * Seconds a cluster's job survives its node's silence (a running job's node beats every 5 s) before another node
     * runs it again.
     */
    @Inject
    @ConfigProperty(name = "medjava.jobs.lease-seconds", defaultValue = "15")
    int jobLeaseSeconds;

    /** The most instances one derive-series or deidentify job may copy (more: 413 when it is submitted). */
    @Inject
    @ConfigProperty(name = "medjava.jobs.max-series-instances", defaultValue = "5000")
    int maxSeriesInstances;

    /** The DICOM (DIMSE) port; unset or 0: no DIMSE service. A port in use stops the start with a message saying so. */
    @Inject
    @ConfigProperty(name = "medjava.dicom.port")
    Optional<Integer> dicomPort;

    /**
     * The address the DICOM port listens on. {@code ./medjava start} sets it to {@code MEDJAVA_HTTP_BIND} when that is
     * set and {@code MEDJAVA_DICOM_BIND} is not.
     */
    @Inject
    @ConfigProperty(name = "medjava.dicom.bind", defaultValue = "0.0.0.0")
    String dicomBind;

    /** The store's AE title (the called AE title it answers to). */
    @Inject
    @ConfigProperty(name = "medjava.dicom.aet", defaultValue = "MEDJAVA")
    String dicomAeTitle;

    /**
     * The calling AE titles allowed to associate, {@code AE[=host], ...} (e.g. {@code MODALITY1=10.0.0.5, ORTHANC};
     * with a host, only from that host); unset or empty: nobody may associate.
     */
    @Inject
    @ConfigProperty(name = "medjava.dicom.allowed-aets")
    Optional<String> dicomAllowedAeTitles;

    /**
     * The DICOM TLS port (2762 is DICOM's well-known one): a second listener with the same AE title, services and
     * allowed peers, over TLS 1.2/1.3 with the front's certificate ({@code medjava.tls.keystore}); unset or 0: none.
     * Needs {@code medjava.dicom.port}.
     */
    @Inject
    @ConfigProperty(name = "medjava.dicom.tls-port")
    Optional<Integer> dicomTlsPort;

    /**
     * Whether the DICOM TLS listener asks callers for a certificate: {@code none}, {@code want} (checked when
     * given) or {@code need} (no certificate, no association). {@code want} and {@code need} check them against
     * {@code medjava.dicom.tls.truststore}.
     */
    @Inject
    @ConfigProperty(name = "medjava.dicom.tls.client-auth", defaultValue = "none")
    String dicomTlsClientAuth;

    /**
     * A trust store (PKCS#12 or JKS) of the CAs or certificates DICOM TLS trusts: callers' certificates on the TLS
     * listener, and, besides the JDK's CAs, the certificates of peers marked {@code tls}.
     */
    @Inject
    @ConfigProperty(name = "medjava.dicom.tls.truststore")
    Optional<String> dicomTlsTruststore;

    /** The password of {@code medjava.dicom.tls.truststore}. */
    @Inject
    @ConfigProperty(name = "medjava.dicom.tls.truststore-password")
    Optional<String> dicomTlsTruststorePassword;

    /**
     * Where C-MOVE may send: {@code AE=host:port, ...}; after the port, {@code tls}: over DICOM TLS;
     * {@code deidentify}: what is moved there is de-identified on the way (PS3.15 Basic Profile, UIDs and patient
     * pseudonyms the same on every move, derived from {@code deid.key} in the data directory; an instance that cannot
     * be de-identified is not sent), {@code deidentify(option, ...)} with the de-identify job's options, e.g.
     * {@code RESEARCH=10.0.0.9:104 tls deidentify(clean-descriptors, retain-patient-characteristics)}.
     */
    @Inject
    @ConfigProperty(name = "medjava.dicom.move-destinations")
    Optional<String> dicomMoveDestinations;

    /**
     * Under access by project ({@code medjava.access.by-project}), the projects of each calling AE title:
     * {@code AE=project|project, ...}. C-FIND finds, and C-MOVE and C-GET retrieve, only the studies labelled like
     * the calling AE's projects; an AE title not listed finds nothing.
     */
    @Inject
    @ConfigProperty(name = "medjava.dicom.ae-projects")
    Optional<String> dicomAeProjects;

    /**
     * The remote PACS the store's DICOM client sends to, queries and retrieves from ({@code /pacs/remotes/...}):
     * {@code AE=host:port, ...}; {@code AE=host:port tls}: over DICOM TLS.
     */
    @Inject
    @ConfigProperty(name = "medjava.dicom.remotes")
    Optional<String> dicomRemotes;

    /**
     * What an object whose SOP Instance UID is stored already does (C-STORE, STOW-RS): {@code reject} it, or
     * {@code replace} the stored one.
     */
    @Inject
    @ConfigProperty(name = "medjava.dicom.duplicate-policy", defaultValue = "reject")
    String duplicatePolicy;

    // --- browser sessions and CORS (security.Sessions, security.CorsPolicy) ----------------------------------------

    /**
     * Minutes without a request after which a browser session ends (the cookie is renewed once half of it has passed).
     */
    @Inject
    @ConfigProperty(name = "medjava.session.idle-minutes", defaultValue = "30")
    int sessionIdleMinutes;

    /** Hours after its login at which a browser session ends, however active. */
    @Inject
    @ConfigProperty(name = "medjava.session.max-hours", defaultValue = "12")
    int sessionMaxHours;

    /**
     * Other web origins whose pages may call the store: exact origins, comma-separated, credentials allowed; {@code *}
     * lets any origin read what needs no login, without credentials. Unset: none (other origins get no CORS header).
     */
    @Inject
    @ConfigProperty(name = "medjava.cors.origins")
    Optional<String> corsOrigins;

    /**
     * Wrong passwords for one account from one client address, within 15 minutes, after which that account's checks
     * from that address are throttled (429 with {@code Retry-After}, without hashing, even for the right password). The
     * count is kept per address so an attacker never locks the real user out from elsewhere.
     */
    @Inject
    @ConfigProperty(name = "medjava.auth.max-failures", defaultValue = "5")
    int authMaxFailures;

    /**
     * Wrong passwords from one client address, over all accounts, within 15 minutes, after which every check from that
     * address is throttled.
     */
    @Inject
    @ConfigProperty(name = "medjava.auth.max-address-failures", defaultValue = "20")
    int authMaxAddressFailures;

    /**
     * The longest a throttled address or account waits, in seconds: the delay starts at 1 s and doubles with each
     * further failure up to this.
     */
    @Inject
    @ConfigProperty(name = "medjava.auth.max-delay-seconds", defaultValue = "300")
    int authMaxDelaySeconds;

    public int authMaxFailures() {
        return authMaxFailures;
    }

    public int authMaxAddressFailures() {
        return authMaxAddressFailures;
    }

    public java.time.Duration authMaxDelay() {
        return java.time.Duration.ofSeconds(authMaxDelaySeconds);
    }

    public java.time.Duration sessionIdle() {
        return java.time.Duration.ofMinutes(sessionIdleMinutes);
    }

    public java.time.Duration sessionMax() {
        return java.time.Duration.ofHours(sessionMaxHours);
    }

    public String corsOrigins() {
        return corsOrigins.orElse("");
    }

    // --- end of browser sessions and CORS ----------------------------------------------------------------------

    // --- single sign-on (security.OidcTokens, security.OidcLogin) ---------------------------------------------------

    /**
     * The OpenID provider's issuer URL (Keycloak: {@code https://host/realms/NAME}): its JWT access tokens are then
     * accepted as {@code Authorization: Bearer} on every API, and the login page offers single sign-on. The provider's
     * discovery document and keys are read from it. Unset: no single sign-on; local accounts only.
     */
    @Inject
    @ConfigProperty(name = "medjava.oidc.issuer")
    Optional<String> oidcIssuer;

    /** The store's client id at the OpenID provider (the browser login's {@code client_id}). */
    @Inject
    @ConfigProperty(name = "medjava.oidc.client-id", defaultValue = "medjava")
    String oidcClientId;

    /**
     * The client id of native applications (the desktop viewer) at the OpenID provider: a public client, without a
     * secret, allowed the authorization code flow with PKCE and loopback redirect URIs ({@code http://127.0.0.1}
     * with any port and path, RFC 8252). {@code GET /auth/oidc} tells it to the viewer with the issuer. Its tokens must carry the
     * store's audience ({@code medjava.oidc.audience}): at Keycloak, an audience mapper on that client.
     */
    @Inject
    @ConfigProperty(name = "medjava.oidc.native-client-id", defaultValue = "medjava-viewer")
    String oidcNativeClientId;

    /**
     * The client's secret, for a confidential client (sent with HTTP Basic to the token endpoint). Unset: a public
     * client; the login is protected by PKCE either way.
     */
    @Inject
    @ConfigProperty(name = "medjava.oidc.client-secret")
    Optional<String> oidcClientSecret;

    /** The {@code aud} value a token must carry to be accepted. Unset: the client id. */
    @Inject
    @ConfigProperty(name = "medjava.oidc.audience")
    Optional<String> oidcAudience;

    /** The claim naming the user (audit trail, {@code /auth/me}); the subject ({@code sub}) when a token lacks it. */
    @Inject
    @ConfigProperty(name = "medjava.oidc.username-claim", defaultValue = "preferred_username")
    String oidcUsernameClaim;

    /**
     * The claim listing the caller's roles, a dotted path into nested objects (Keycloak's realm roles:
     * {@code realm_access.roles}; a client's: {@code resource_access.CLIENT.roles}; Entra ID: {@code roles}). Its
     * values {@code reader}, {@code uploader}, {@code admin}, or names mapped by {@code medjava.oidc.role-map}, give
     * the store's role (the highest one); a token with none is refused with 403.
     */
    @Inject
    @ConfigProperty(name = "medjava.oidc.roles-claim", defaultValue = "realm_access.roles")
    String oidcRolesClaim;

    /**
     * The provider's role names for the store's roles: {@code provider-role=store-role} pairs, comma-separated
     * ({@code pacs-admins=admin,radiologists=reader}). The store's own role names need no entry.
     */
    @Inject
    @ConfigProperty(name = "medjava.oidc.role-map", defaultValue = " ")
    String oidcRoleMap;

    /** The claim listing the caller's projects (groups), a dotted path; Keycloak's group paths lose their slash. */
    @Inject
    @ConfigProperty(name = "medjava.oidc.projects-claim", defaultValue = "groups")
    String oidcProjectsClaim;

    /** The scopes the browser login asks for, space-separated ({@code openid} is always asked for). */
    @Inject
    @ConfigProperty(name = "medjava.oidc.scopes", defaultValue = "openid profile")
    String oidcScopes;

    /** Seconds by which the provider's clock may differ from the store's when expiry and issue times are checked. */
    @Inject
    @ConfigProperty(name = "medjava.oidc.clock-skew-seconds", defaultValue = "60")
    int oidcClockSkewSeconds;

    /** The label of the login page's single sign-on button. */
    @Inject
    @ConfigProperty(name = "medjava.oidc.display-name", defaultValue = "Single sign-on")
    String oidcDisplayName;

    /** The OpenID provider's issuer, when single sign-on is configured. */
    public Optional<URI> oidcIssuer() {
        return oidcIssuer.filter(s -> !s.isBlank()).map(s -> URI.create(s.trim()));
    }

    public String oidcAudience() {
        return oidcAudience.filter(a -> !a.isBlank()).orElse(oidcClientId);
    }

    public String oidcUsernameClaim() {
        return oidcUsernameClaim;
    }

    public String oidcRolesClaim() {
        return oidcRolesClaim;
    }

    public String oidcRoleMap() {
        return oidcRoleMap.trim();
    }

    public String oidcProjectsClaim() {
        return oidcProjectsClaim;
    }

    public java.time.Duration oidcClockSkew() {
        return java.time.Duration.ofSeconds(oidcClockSkewSeconds);
    }

    public String oidcClientId() {
        return oidcClientId;
    }

    public String oidcNativeClientId() {
        return oidcNativeClientId;
    }

    public Optional<String> oidcClientSecret() {
        return oidcClientSecret.filter(s -> !s.isBlank());
    }

    public String oidcScopes() {
        return oidcScopes;
    }

    public String oidcDisplayName() {
        return oidcDisplayName;
    }

    /**
     * Access by project: a caller who is not an administrator sees only the studies carrying a label named like one
     * of their projects (the OpenID provider's {@code medjava.oidc.projects-claim}, or a local account's own, set with
     * {@code PUT /admin/users/{name}}); a caller without a project sees none, and no count or lookup reveals the
     * others. Studies are labelled by administrators ({@code PUT /index/studies/{uid}/labels/{label}}). Enforced beneath QIDO-RS, WADO-RS, rendering, thumbnails,
     * the index listings, the change feed and the files under {@code /images/}; the doors that do not filter by
     * study yet ({@code /images/} listings, the trash, jobs) are for administrators only while it is on, and the
     * front's direct reads are off.
     */
    @Inject
    @ConfigProperty(name = "medjava.access.by-project", defaultValue = "false")
    boolean accessByProject;

    public boolean accessByProject() {
        return accessByProject;
    }

    /**
     * The longest a share link may stay valid, in days ({@code POST /shares}: one study, read only, without an
     * account, until it expires or is revoked); 0 turns share links off (those made before stop opening).
     */
    @Inject
    @ConfigProperty(name = "medjava.share.max-days", defaultValue = "30")
    int shareMaxDays;

    public int shareMaxDays() {
        if (shareMaxDays < 0 || shareMaxDays > 3660) {
            throw new IllegalArgumentException("medjava.share.max-days is 0 (off) to 3660, got " + shareMaxDays);
        }
        return shareMaxDays;
    }

    /**
     * Labels put on a study as it arrives, by who sent it: {@code SENDER=label|label} pairs, comma-separated, a sender
     * being the calling AE title of a C-STORE (or the PACS a retrieve came from) or the account of a STOW-RS
     * ({@code CARDIO_CT=cardiology, trials-upload=research|trials}). Applies whether or not access by project is on.
     */
    @Inject
    @ConfigProperty(name = "medjava.access.receive-labels")
    Optional<String> receiveLabels;

    public String receiveLabels() {
        return receiveLabels.orElse("");
    }

    // --- end of single sign-on --------------------------------------------------------------------------------------

    /**
     * The longest a backup pauses writes for its snapshot, in seconds (at least 1): a snapshot that would take longer
     * is given up, writes continue and the backup fails saying so; a write never waits more than twice this (then 503,
     * nothing changed).
     */
    @Inject
    @ConfigProperty(name = "medjava.backup.max-pause-seconds", defaultValue = "30")
    int backupMaxPauseSeconds;

    public java.time.Duration backupMaxPause() {
        return java.time.Duration.ofSeconds(Math.max(1, backupMaxPauseSeconds));
    }


    // --- logs and audit trail (logging.ServerLog, logging.AccessLog, audit.AuditLog) -----------------------------

    /** medjava.log and access.log are rotated when the next line would take them past this size, in bytes. */
    @Inject
    @ConfigProperty(name = "medjava.log.max-bytes", defaultValue = "10485760")
    long logMaxBytes;

    /** Rotated copies kept of medjava.log and of access.log ({@code .1} the newest; older ones deleted). */
    @Inject
    @ConfigProperty(name = "medjava.log.files", defaultValue = "10")
    int logFiles;

    /** audit.log is rotated when the next line would take it past this size, in bytes. */
    @Inject
    @ConfigProperty(name = "medjava.audit.max-bytes", defaultValue = "10485760")
    long auditMaxBytes;

    /** Rotated copies kept of audit.log: more than of the other logs, it is evidence. */
    @Inject
    @ConfigProperty(name = "medjava.audit.files", defaultValue = "50")
    int auditFiles;

    /**
     * Also send each audit message to this syslog collector (an audit record repository): {@code udp://host:port} (one
     * datagram per message, RFC 5426) or {@code tcp://host:port} (octet-counted frames, RFC 6587; no TLS: use a local
     * relay such as rsyslog). Unset: audit.log only.
     */
    @Inject
    @ConfigProperty(name = "medjava.audit.syslog")
    Optional<String> auditSyslog;

    /** The AuditEnterpriseSiteID of the audit messages (the hospital or department); none when unset. */
    @Inject
    @ConfigProperty(name = "medjava.audit.site")
    Optional<String> auditSite;

    /**
     * Audit every read, query and export of studies (DICOM Instances Accessed, Query, Export): by HTTP, DICOMweb,
     * DIMSE and the front, searchable by administrators at {@code GET /audit/events}. Off: writes and logins only.
     */
    @Inject
    @ConfigProperty(name = "medjava.audit.reads", defaultValue = "true")
    boolean auditReads;

    /**
     * The reads of one study by one caller through one door within this many seconds are one audit event, with
     * their counts (so the read path never writes the trail itself); an administrator's search closes the window
     * at once.
     */
    @Inject
    @ConfigProperty(name = "medjava.audit.read-window-seconds", defaultValue = "60")
    int auditReadWindowSeconds;

    /** {@code <data-dir>/logs}: medjava.log, access.log, audit.log. */
    public Path logsDir() {
        return dataDir().resolve("logs");
    }

    public long logMaxBytes() {
        return positive(logMaxBytes, "medjava.log.max-bytes");
    }

    public int logFiles() {
        return (int) notNegative(logFiles, "medjava.log.files");
    }

    public long auditMaxBytes() {
        return positive(auditMaxBytes, "medjava.audit.max-bytes");
    }

    public int auditFiles() {
        return (int) notNegative(auditFiles, "medjava.audit.files");
    }

    public Optional<String> auditSyslog() {
        return auditSyslog.filter(s -> !s.isBlank()).map(String::trim);
    }

    public Optional<String> auditSite() {
        return auditSite.filter(s -> !s.isBlank()).map(String::trim);
    }

    public boolean auditReads() {
        return auditReads;
    }

    public java.time.Duration auditReadWindow() {
        if (auditReadWindowSeconds < 1) {
            throw new IllegalArgumentException("medjava.audit.read-window-seconds is " + auditReadWindowSeconds
                    + "; write a number of seconds, 1 or more (60 by default)");
        }
        return java.time.Duration.ofSeconds(auditReadWindowSeconds);
    }

    private static long positive(long value, String key) {
        if (value < 1) {
            throw new IllegalArgumentException(key + " is " + value + "; write a size in bytes, e.g. 10485760");
        }
        return value;
    }

    private static long notNegative(long value, String key) {
        if (value < 0) {
            throw new IllegalArgumentException(key + " is " + value + "; write how many rotated files to keep (0 or more)");
        }
        return value;
    }

    // --- end of logs and audit trail ---------------------------------------------------------------------------

    public Path dataDir() {
        return Path.of(dataDir).toAbsolutePath().normalize();
    }

    public Path imagesDir() {
        return dataDir().resolve("images");
    }

    public Path pluginsDir() {
        return dataDir().resolve("plugins");
    }

    public long maxUploadBytes() {
        return maxUploadBytes;
    }

    public long maxPluginBytes() {
        return maxPluginBytes;
    }

    public long maxPixels() {
        return maxPixels;
    }

    public boolean anonymousRead() {
        return anonymousRead;
    }

    public Optional<String> initialAdminPassword() {
        return initialAdminPassword.filter(s -> !s.isBlank());
    }

    /** The index database; an H2 file database under the data directory unless configured. */
    public String dbUrl() {
        return dbUrl.filter(s -> !s.isBlank()).orElse(null);
    }

    public String dbUser() {
        return dbUser.orElse("");
    }

    public String dbPassword() {
        return dbPassword.orElse("");
    }

    /** How this node's connections to a PostgreSQL index database are bounded and split. */
    public org.medjava.store.core.index.ConnectionBudget dbConnections() {
        return new org.medjava.store.core.index.ConnectionBudget(dbMaxConnections); // its message names the key
    }

    public Optional<Path> seedImages() {
        return seedImages.filter(s -> !s.isBlank()).map(Path::of);
    }

    public Optional<Path> seedPlugins() {
        return seedPlugins.filter(s -> !s.isBlank()).map(Path::of);
    }

    /** medjava.public-url without a trailing {@code /}, checked as {@link #publicBaseUri()} checks it. */
    public Optional<String> publicUrl() {
        return publicBaseUri().map(u -> u.toString().substring(0, u.toString().length() - 1));
    }

    /**
     * medjava.public-url as the base of the store's absolute links, ending with {@code /}
     * ({@code https://pacs.example.org/medjava/}).
     *
     * @throws IllegalArgumentException when it is not an absolute http or https URL without query or fragment
     */
    public Optional<URI> publicBaseUri() {
        return publicUrl.filter(s -> !s.isBlank()).map(String::trim).map(StoreConfig::baseUri);
    }

    static URI baseUri(String text) {
        URI uri;
        try {
            uri = new URI(text.endsWith("/") ? text : text + "/");
        } catch (java.net.URISyntaxException e) {
            uri = null;
        }
        if (uri == null || uri.getHost() == null || uri.getRawQuery() != null || uri.getRawFragment() != null
                || !("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))) {
            throw new IllegalArgumentException("medjava.public-url is \"" + text + "\": write the absolute http(s) "
                    + "URL clients reach the store at, with its path prefix if any (e.g. https://pacs.example.org/medjava)");
        }
        return uri;
    }

    /** Whether a proxy's Forwarded / X-Forwarded-* headers may decide links when medjava.public-url is unset. */
    public boolean trustForwarded() {
        return trustForwarded;
    }

    /**
     * Whether plain file GETs and HEADs are answered by the front itself rather than the container: never under
     * access by project, where the container decides each read by the study's labels.
     */
    public boolean directReads() {
        return directReads && !accessByProject;
    }

    /** The public port the front listens on, when the store runs one. */
    public Optional<Integer> httpPort() {
        return httpPort;
    }

    /** The address the front listens on; empty: every interface. */
    public Optional<String> httpBind() {
        return httpBind.filter(s -> !s.isBlank());
    }

    /** The front's HTTPS port, when it serves HTTPS. */
    public Optional<Integer> httpsPort() {
        return httpsPort;
    }

    /** The address the front's HTTPS listens on; empty: every interface. */
    public Optional<String> httpsBind() {
        Optional<String> own = httpsBind.map(String::trim).filter(s -> !s.isEmpty());
        return own.isPresent() ? own.filter(s -> !s.equals("*")) : httpBind();
    }

    /**
     * The key store of the front's certificate and its password: {@code medjava.tls.keystore}, else the one the JVM
     * was given ({@code javax.net.ssl.keyStore}: Payara Micro's, with its self-signed certificate).
     */
    public Map.Entry<Path, char[]> tlsKeystore() {
        String path = tlsKeystore.filter(p -> !p.isBlank()).orElse(System.getProperty("javax.net.ssl.keyStore"));
        if (path == null) {
            throw new IllegalArgumentException("medjava.https.port is set but no key store is: set medjava.tls.keystore"
                    + " (PKCS#12) and medjava.tls.keystore-password");
        }
        String password = tlsKeystore.isPresent() ? tlsKeystorePassword.orElse("")
                : System.getProperty("javax.net.ssl.keyStorePassword", "");
        return Map.entry(Path.of(path), password.toCharArray());
    }

    /** How many requests the front relays to Payara at once. */
    public int maxRelayed() {
        return positive("medjava.http.max-relayed", maxRelayed);
    }

    /** How many relayed requests may wait for a connection to Payara before the front answers 503. */
    public int maxWaiting() {
        return positive("medjava.http.max-waiting", maxWaiting);
    }

    private static int positive(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be 1 or more, not " + value);
        }
        return value;
    }

    /** How much direct memory the front may keep small files' bytes in (0: it keeps none). */
    public long readCacheBytes() {
        if (readCacheBytes < 0) {
            throw new IllegalArgumentException("medjava.http.read-cache-bytes must be 0 (none) or more, not "
                    + readCacheBytes);
        }
        return readCacheBytes;
    }

    public long thumbnailCacheBytes() {
        if (thumbnailCacheBytes < 0) {
            throw new IllegalArgumentException("medjava.http.thumbnail-cache-bytes must be 0 (none) or more, not "
                    + thumbnailCacheBytes);
        }
        return thumbnailCacheBytes;
    }

    /** Payara's HTTP port on the loopback, behind the front. */
    public int backendPort() {
        if (httpPort.isPresent() && (backendPort <= 0 || backendPort > 65535)) {
            throw new IllegalArgumentException("medjava.http.backend-port must be Payara's HTTP port (its --port) when "
                    + "medjava.http.port is set, not " + backendPort);
        }
        return backendPort;
    }

    /** How long a request's line and headers may take to arrive before the connection is closed; 0: no limit. */
    public int headerTimeoutSeconds() {
        if (headerTimeoutSeconds < 0) {
            throw new IllegalArgumentException("medjava.http.header-timeout-seconds must be 0 (no limit) or more, not "
                    + headerTimeoutSeconds);
        }
        return headerTimeoutSeconds;
    }

    /** Whether the objects live in S3-compatible object storage rather than under the data directory. */
    public boolean s3Storage() {
        String kind = storage.trim().toLowerCase(java.util.Locale.ROOT);
        if (!kind.equals("files") && !kind.equals("s3")) {
            throw new IllegalArgumentException("medjava.storage is \"" + storage + "\"; use files or s3");
        }
        return kind.equals("s3");
    }

    /** medjava.storage.min-free-bytes: the free-space floor below which writes are refused. */
    public long minFreeBytes() {
        return minFreeBytes;
    }

    /**
     * The object storage settings (medjava.storage.s3.*).
     *
     * @throws IllegalArgumentException naming the setting that is missing or malformed
     */
    public S3Settings s3Settings() {
        URI endpoint;
        try {
            endpoint = s3Endpoint.filter(s -> !s.isBlank()).map(s -> URI.create(s.trim())).orElse(null);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(S3Settings.ENDPOINT + " is not a URL: " + e.getMessage(), e);
        }
        return new S3Settings(endpoint, s3Region.orElse(null), s3Bucket.orElse(null), s3Prefix,
                s3AccessKey.orElse(null), s3SecretKey.orElse(null));
    }

    public int jobLeaseSeconds() {
        return jobLeaseSeconds;
    }

    public int maxSeriesInstances() {
        return maxSeriesInstances;
    }

    public boolean clusterEnabled() {
        return clusterEnabled;
    }

    /** This node's name in the cluster: medjava.cluster.node, else the host name and the data directory's name. */
    public String clusterNode() {
        return clusterNode.filter(s -> !s.isBlank()).map(String::trim).orElseGet(() -> {
            String host;
            try {
                host = java.net.InetAddress.getLocalHost().getHostName();
            } catch (java.net.UnknownHostException e) {
                host = "localhost";
            }
            return host + ":" + dataDir().getFileName();
        });
    }

    /** The DICOM (DIMSE) port; empty: the store does not listen for DICOM. */
    public Optional<Integer> dicomPort() {
        return dicomPort.filter(p -> p > 0);
    }

    /** The DICOM TLS port; empty: no DICOM TLS listener. */
    public Optional<Integer> dicomTlsPort() {
        return dicomTlsPort.filter(p -> p > 0);
    }

    /** none, want or need: whether the DICOM TLS listener asks callers for a certificate. */
    public String dicomTlsClientAuth() {
        return dicomTlsClientAuth.trim();
    }

    /** The DICOM TLS trust store and its password; empty: none configured. */
    public Optional<Map.Entry<Path, char[]>> dicomTlsTruststore() {
        return dicomTlsTruststore.map(String::trim).filter(p -> !p.isEmpty())
                .map(p -> Map.entry(Path.of(p), dicomTlsTruststorePassword.orElse("").toCharArray()));
    }

    /** The key store of the store's certificate, when one is configured or given to the JVM. */
    public Optional<Map.Entry<Path, char[]>> tlsKeystoreIfAny() {
        return tlsKeystore.filter(p -> !p.isBlank()).isPresent() || System.getProperty("javax.net.ssl.keyStore") != null
                ? Optional.of(tlsKeystore()) : Optional.empty();
    }

    public String dicomBind() {
        return dicomBind.trim();
    }

    public String dicomAeTitle() {
        return dicomAeTitle.trim();
    }

    /** {@code AE[=host], ...}: the calling AE titles allowed to associate. */
    public String dicomAllowedAeTitles() {
        return dicomAllowedAeTitles.orElse("");
    }

    /** {@code AE=host:port, ...}: where C-MOVE may send. */
    public String dicomMoveDestinations() {
        return dicomMoveDestinations.orElse("");
    }

    public String dicomAeProjects() {
        return dicomAeProjects.orElse("");
    }

    /** {@code AE=host:port, ...}: the remote PACS the store's SCU may send to, query and retrieve from. */
    public String dicomRemotes() {
        return dicomRemotes.orElse("");
    }

    /** reject or replace: what an object whose SOP Instance UID is stored already does (C-STORE, STOW-RS). */
    public String duplicatePolicy() {
        return duplicatePolicy;
    }

    // --- filter deadlines (issue 15, bounded work) --------------------------------------------------------------

    /**
     * The most a request's filter chain may take as a whole, in seconds (at least 1); a request's {@code timeout=} may
     * ask for less. Passed: 503 with the reason.
     */
    @Inject
    @ConfigProperty(name = "medjava.filters.deadline-seconds", defaultValue = "30")
    int filterDeadlineSeconds;

    /**
     * Filter calls that may run at once (each may use every core); 0: as many as the machine has cores. The next call
     * waits up to 2 s for a slot, then gets 503 with {@code Retry-After: 1}.
     */
    @Inject
    @ConfigProperty(name = "medjava.filters.max-concurrent", defaultValue = "0")
    int filterMaxConcurrent;

    /** The most a chain of filter calls may take; a request's {@code timeout=} may ask for less. At least 1. */
    public int filterDeadlineSeconds() {
        return Math.max(1, filterDeadlineSeconds);
    }

    /** Filter calls that may run at once (each may use every core); the next waits briefly, then gets 503. */
    public int filterMaxConcurrent() {
        return filterMaxConcurrent > 0 ? filterMaxConcurrent : Runtime.getRuntime().availableProcessors();
    }

    // --- start-up banner (lifecycle) ----------------------------------------------------------------------------

    /**
     * Where the start banner goes instead of standard output ({@code ./medjava start} sets it, prints the file once
     * the store is ready, and deletes it: the first start's admin password never reaches a log).
     */
    @Inject
    @ConfigProperty(name = "medjava.banner.file")
    Optional<String> bannerFile;

    public Optional<Path> bannerFile() {
        return bannerFile.filter(s -> !s.isBlank()).map(s -> Path.of(s).toAbsolutePath().normalize());
    }

    // --- memory and size limits (docs/operations/limits-and-guarantees.md) -------------------------------------

    /**
     * Bytes all decodes together may hold (the decode budget); unset or 0: a quarter of the JVM's maximum heap. An
     * image that needs more than the whole budget is 413, at upload too when its header says so.
     */
    @Inject
    @ConfigProperty(name = "medjava.memory.decode-budget-bytes")
    Optional<Long> decodeBudgetBytes;

    /** Milliseconds a decode waits for room in the budget before it is answered 503 with {@code Retry-After}. */
    @Inject
    @ConfigProperty(name = "medjava.memory.decode-wait-millis", defaultValue = "2000")
    long decodeWaitMillis;

    /**
     * The most steps in a filter chain; a longer one is 400 naming the limit, on every door ({@code ?render=},
     * {@code render=dicom}, derived objects, DICOMweb rendered, series jobs). More than 1024 steps are refused while
     * parsing, whatever this says.
     */
    @Inject
    @ConfigProperty(name = "medjava.filters.max-chain", defaultValue = "16")
    int maxFilterChain;

    /**
     * Uploads at least this large, in bytes, by {@code Content-Length} or once a chunked body grows so large, count as
     * large.
     */
    @Inject
    @ConfigProperty(name = "medjava.upload.large-bytes", defaultValue = "67108864")
    long largeUploadBytes;

    /**
     * Large uploads (see {@code medjava.upload.large-bytes}) at once; a further one ({@code PUT /images/...}, STOW-RS
     * by its {@code Content-Length}) is 503 with {@code Retry-After} (5 s) before its body is read. Smaller uploads
     * never wait.
     */
    @Inject
    @ConfigProperty(name = "medjava.upload.max-concurrent-large", defaultValue = "2")
    int maxConcurrentLargeUploads;

    public long decodeBudgetBytes() {
        return decodeBudgetBytes.filter(b -> b > 0).orElseGet(org.medjava.store.core.memory.DecodeBudget::defaultCapacity);
    }

    public long decodeWaitMillis() {
        return Math.max(0, decodeWaitMillis);
    }

    public int maxFilterChain() {
        return Math.max(1, maxFilterChain);
    }

    public long largeUploadBytes() {
        return Math.max(1, largeUploadBytes);
    }

    public int maxConcurrentLargeUploads() {
        return Math.max(1, maxConcurrentLargeUploads);
    }

    /** medjava.upload.resumable-expiry-hours (fractions allowed: tests use seconds' worth). */
    public java.time.Duration resumableUploadExpiry() {
        if (!(resumableExpiryHours > 0)) {
            throw new IllegalArgumentException("medjava.upload.resumable-expiry-hours must be above 0, not "
                    + resumableExpiryHours);
        }
        return java.time.Duration.ofMillis(Math.round(resumableExpiryHours * 3_600_000));
    }

    // --- which Host headers name this server (when medjava.public-url is unset) ----------------------------------

    /**
     * Host names or addresses (comma-separated, without ports) clients may give in {@code Host} besides this
     * machine's own names and addresses, when {@code medjava.public-url} is unset and forwarded headers are not
     * trusted; any other Host is refused with 400, so that links are never built from an unchecked Host.
     */
    @Inject
    @ConfigProperty(name = "medjava.http.allowed-hosts")
    Optional<String> allowedHosts;

    public java.util.List<String> allowedHosts() {
        return allowedHosts.map(s -> java.util.Arrays.stream(s.split(",")).map(String::trim)
                .filter(h -> !h.isEmpty()).toList()).orElse(java.util.List.of());
    }

    // --- deletion: the trash and its guard -------------------------------------------------------------------------

    /**
     * How long a deleted study, series or instance stays in the trash, restorable, before the purge removes its
     * files (fractions allowed; 0: purged at the next round of the purge).
     */
    @Inject
    @ConfigProperty(name = "medjava.trash.grace-hours", defaultValue = "72")
    double trashGraceHours;

    /** How often the background purge looks for trashed files whose grace period has ended. */
    @Inject
    @ConfigProperty(name = "medjava.trash.purge-interval-seconds", defaultValue = "60")
    int trashPurgeIntervalSeconds;

    /**
     * The largest share of the store's instances (0 to 1) one deletion may take unless an administrator forces it
     * ({@code force=true}): a guard against deleting everything by mistake.
     */
    @Inject
    @ConfigProperty(name = "medjava.delete.guard-share", defaultValue = "0.25")
    double deleteGuardShare;

    /** Deletions of fewer instances than this are never held by the guard (a small store's studies are large shares). */
    @Inject
    @ConfigProperty(name = "medjava.delete.guard-min-instances", defaultValue = "1000")
    long deleteGuardMinInstances;

    public org.medjava.store.core.trash.Trash.Settings trashSettings() {
        if (!(trashGraceHours >= 0)) {
            throw new IllegalArgumentException("medjava.trash.grace-hours must be 0 or more, not " + trashGraceHours);
        }
        return new org.medjava.store.core.trash.Trash.Settings(
                java.time.Duration.ofMillis(Math.round(trashGraceHours * 3_600_000)), deleteGuardShare,
                deleteGuardMinInstances);
    }

    public java.time.Duration trashPurgeInterval() {
        return java.time.Duration.ofSeconds(Math.max(1, trashPurgeIntervalSeconds));
    }

    /** How often the enabled retention rules run (each moves what it selects to the trash). */
    @Inject
    @ConfigProperty(name = "medjava.retention.interval-minutes", defaultValue = "60")
    int retentionIntervalMinutes;

    public java.time.Duration retentionInterval() {
        return java.time.Duration.ofMinutes(Math.max(1, retentionIntervalMinutes));
    }

    /** The wait before a failed routing send is tried again; it doubles with each further failure. */
    @Inject
    @ConfigProperty(name = "medjava.route.backoff-initial-seconds", defaultValue = "5")
    double routeBackoffInitialSeconds;

    /** The longest wait between two tries of a routing send. */
    @Inject
    @ConfigProperty(name = "medjava.route.backoff-max-seconds", defaultValue = "3600")
    double routeBackoffMaxSeconds;

    /** Failed tries after which a routed instance is given up (the dead-letter list; an administrator may retry). */
    @Inject
    @ConfigProperty(name = "medjava.route.max-attempts", defaultValue = "10")
    int routeMaxAttempts;

    /** How long a node holds the routing tasks it claimed: a node that dies leaves them to another after this. */
    @Inject
    @ConfigProperty(name = "medjava.route.lease-seconds", defaultValue = "300")
    int routeLeaseSeconds;

    /** The most instances a node sends to one destination at once (one association, one STOW-RS request). */
    @Inject
    @ConfigProperty(name = "medjava.route.batch", defaultValue = "50")
    int routeBatch;

    /** How often an idle node looks for routing tasks that became due (queued ones are sent at once). */
    @Inject
    @ConfigProperty(name = "medjava.route.poll-seconds", defaultValue = "2")
    double routePollSeconds;

    /**
     * How long the routing history keeps a sent instance ({@code GET /routes/history}); older ones are forgotten
     * hourly. The queue and the dead-letter list are kept until sent, retried or removed.
     */
    @Inject
    @ConfigProperty(name = "medjava.route.history-days", defaultValue = "30")
    double routeHistoryDays;

    public java.time.Duration routeHistory() {
        return seconds(routeHistoryDays * 86_400, "medjava.route.history-days");
    }

    public org.medjava.store.core.route.Backoff routeBackoff() {
        return new org.medjava.store.core.route.Backoff(seconds(routeBackoffInitialSeconds,
                "medjava.route.backoff-initial-seconds"), seconds(Math.max(routeBackoffMaxSeconds,
                routeBackoffInitialSeconds), "medjava.route.backoff-max-seconds"), Math.max(1, routeMaxAttempts));
    }

    public java.time.Duration routeLease() {
        return java.time.Duration.ofSeconds(Math.max(10, routeLeaseSeconds));
    }

    public int routeBatch() {
        return Math.max(1, Math.min(500, routeBatch));
    }

    public java.time.Duration routePoll() {
        return seconds(routePollSeconds, "medjava.route.poll-seconds");
    }

    private static java.time.Duration seconds(double seconds, String setting) {
        if (!(seconds > 0)) {
            throw new IllegalArgumentException(setting + " must be more than 0, not " + seconds);
        }
        return java.time.Duration.ofMillis(Math.max(1, Math.round(seconds * 1000)));
    }
}
