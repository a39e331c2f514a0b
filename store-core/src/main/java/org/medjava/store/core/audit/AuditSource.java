package org.medjava.store.core.audit;

/**
 * This store as the audit messages name it: AuditSourceIdentification ({@code id}, {@code site}) and the store's own
 * ActiveParticipant (its application name, DICOM AE title and host).
 *
 * @param id      AuditSourceID, e.g. {@code MEDJAVA@pacs1}
 * @param site    AuditEnterpriseSiteID; null when none
 * @param aeTitle the store's DICOM AE title
 * @param host    the store's host name
 */
public record AuditSource(String id, String site, String aeTitle, String host) {

    /** The source on this host: {@code <aeTitle>@<host>}. */
    public static AuditSource of(String aeTitle, String site) {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            host = "localhost";
        }
        return new AuditSource(aeTitle + "@" + host, site, aeTitle, host);
    }
}
