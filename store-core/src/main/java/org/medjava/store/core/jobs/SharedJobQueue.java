package org.medjava.store.core.jobs;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.medjava.store.core.cluster.ClusterDatabase;

/**
 * The jobs of a cluster, in its PostgreSQL: a queue table claimed with {@code FOR UPDATE SKIP LOCKED}, so nodes never
 * claim the same job twice and never wait for each other, and with a heartbeat per running job: a job whose node has
 * not beaten for the lease (killed, cut off) is claimed again by the next free node, and the old
 * node, should it come back, learns at its next progress report that it lost the job. The lease is
 * {@value #DEFAULT_LEASE_SECONDS} s unless configured ({@code medjava.jobs.lease-seconds}); a worker beats well
 * within it (every 5 s, and at every progress report). Cancelling a running job sets its {@code cancel_requested}
 * (a column added to older databases at start), which its node reads back at its next progress report.
 */
public final class SharedJobQueue implements JobQueue {

    public static final int DEFAULT_LEASE_SECONDS = 15;
    private static final String COLUMNS = "id, kind, params, state, node, done, total, attempts, result, created,"
            + " started, finished, cancel_requested, owner";

    /** The oldest job a node may claim (its one parameter: the lease in seconds), read through the partial index. */
    static final String CLAIMABLE = "select id from medjava_job where state = 'QUEUED' or (state = 'RUNNING'"
            + " and heartbeat < now() - make_interval(secs => ?)) order by created limit 1 for update skip locked";

    private final ClusterDatabase database;
    private final int leaseSeconds;

    public SharedJobQueue(ClusterDatabase database, int leaseSeconds) {
        this.database = database;
        this.leaseSeconds = Math.max(leaseSeconds, 6); // above the workers' 5 s heartbeat
        database.createIfMissing("create table if not exists medjava_job (id varchar(36) primary key,"
                + " kind varchar(64) not null, params text not null, state varchar(16) not null, node varchar(128),"
                + " done int not null default 0, total int not null default 0, attempts int not null default 0,"
                + " result text, created timestamptz not null, started timestamptz, finished timestamptz,"
                + " heartbeat timestamptz)",
                "alter table medjava_job add column if not exists cancel_requested boolean not null default false",
                "alter table medjava_job add column if not exists owner varchar(255)",
                // every poll looks for the oldest claimable job: only queued and running rows are in this index,
                // so a poll costs the same however many finished jobs the table keeps
                "create index if not exists medjava_job_claimable on medjava_job (created)"
                        + " where state = 'QUEUED' or state = 'RUNNING'");
    }

    @Override
    public JobStatus submit(String kind, Map<String, String> params, String owner) {
        String id = UUID.randomUUID().toString();
        database.run("queueing a " + kind + " job", c -> {
            try (PreparedStatement i = c.prepareStatement("insert into medjava_job (id, kind, params, state, created,"
                    + " owner) values (?, ?, ?, 'QUEUED', now(), ?)")) {
                i.setString(1, id);
                i.setString(2, kind);
                i.setString(3, Params.encode(params));
                i.setString(4, owner);
                i.executeUpdate();
            }
            return null;
        });
        return get(id).orElseThrow();
    }

    @Override
    public Optional<JobStatus> get(String id) {
        return database.run("reading job " + id, c -> {
            try (PreparedStatement q = c.prepareStatement("select " + COLUMNS + " from medjava_job where id = ?")) {
                q.setString(1, id);
                try (ResultSet rs = q.executeQuery()) {
                    return rs.next() ? Optional.of(status(rs)) : Optional.<JobStatus>empty();
                }
            }
        });
    }

    @Override
    public Map<JobStatus.State, Long> countByState() {
        return database.run("counting the jobs", c -> {
            Map<JobStatus.State, Long> counts = new java.util.EnumMap<>(JobStatus.State.class);
            for (JobStatus.State state : JobStatus.State.values()) {
                counts.put(state, 0L);
            }
            try (PreparedStatement q = c.prepareStatement("select state, count(*) from medjava_job group by state");
                 ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                    counts.put(JobStatus.State.valueOf(rs.getString(1)), rs.getLong(2));
                }
            }
            return counts;
        });
    }

    @Override
    public List<JobStatus> list(int limit, String owner) {
        return database.run("listing the jobs", c -> {
            List<JobStatus> jobs = new ArrayList<>();
            try (PreparedStatement q = c.prepareStatement("select " + COLUMNS + " from medjava_job"
                    + (owner == null ? "" : " where owner = ?") + " order by created desc limit ?")) {
                int i = 1;
                if (owner != null) {
                    q.setString(i++, owner);
                }
                q.setInt(i, limit);
                try (ResultSet rs = q.executeQuery()) {
                    while (rs.next()) {
                        jobs.add(status(rs));
                    }
                }
            }
            return jobs;
        });
    }

    @Override
    public Optional<JobStatus> claim(String node) {
        return database.run("claiming a job", c -> {
            try (PreparedStatement u = c.prepareStatement("update medjava_job set state = 'RUNNING', node = ?,"
                    + " attempts = attempts + 1, started = now(), heartbeat = now(), done = 0, total = 0"
                    + " where id = (" + CLAIMABLE + ") returning " + COLUMNS)) {
                u.setString(1, node);
                u.setInt(2, leaseSeconds);
                try (ResultSet rs = u.executeQuery()) {
                    return rs.next() ? Optional.of(status(rs)) : Optional.<JobStatus>empty();
                }
            }
        });
    }

    @Override
    public void progress(String id, String node, int done, int total) {
        Boolean cancelRequested = database.run("recording job progress", c -> {
            try (PreparedStatement u = c.prepareStatement("update medjava_job set done = ?, total = ?,"
                    + " heartbeat = now() where id = ? and node = ? and state = 'RUNNING' returning cancel_requested")) {
                u.setInt(1, done);
                u.setInt(2, total);
                u.setString(3, id);
                u.setString(4, node);
                try (ResultSet rs = u.executeQuery()) {
                    return rs.next() ? rs.getBoolean(1) : null;
                }
            }
        });
        if (cancelRequested == null) {
            throw new Lost(id);
        }
        if (cancelRequested) {
            throw new Cancelled("job " + id + " was cancelled");
        }
    }

    @Override
    public void finish(String id, String node, JobStatus.State end, String result) {
        database.run("finishing job " + id, c -> {
            try (PreparedStatement u = c.prepareStatement("update medjava_job set state = ?, result = ?,"
                    + " finished = now() where id = ? and node = ? and state = 'RUNNING'")) {
                u.setString(1, end.name());
                u.setString(2, result);
                u.setString(3, id);
                u.setString(4, node);
                return u.executeUpdate();
            }
        });
    }

    @Override
    public Optional<Cancellation> cancel(String id) {
        return database.run("cancelling job " + id, c -> {
            // queued: cancelled at once; running: marked (each statement is atomic, so a job claimed between the two
            // is caught by the second)
            try (PreparedStatement u = c.prepareStatement("update medjava_job set state = 'CANCELLED',"
                    + " cancel_requested = true, finished = now(), result = 'cancelled before it started'"
                    + " where id = ? and state = 'QUEUED' returning " + COLUMNS)) {
                u.setString(1, id);
                try (ResultSet rs = u.executeQuery()) {
                    if (rs.next()) {
                        return Optional.of(new Cancellation(CancelOutcome.CANCELLED, status(rs)));
                    }
                }
            }
            try (PreparedStatement u = c.prepareStatement("update medjava_job set cancel_requested = true"
                    + " where id = ? and state = 'RUNNING' returning " + COLUMNS)) {
                u.setString(1, id);
                try (ResultSet rs = u.executeQuery()) {
                    if (rs.next()) {
                        return Optional.of(new Cancellation(CancelOutcome.REQUESTED, status(rs)));
                    }
                }
            }
            try (PreparedStatement q = c.prepareStatement("select " + COLUMNS + " from medjava_job where id = ?")) {
                q.setString(1, id);
                try (ResultSet rs = q.executeQuery()) {
                    return rs.next() ? Optional.of(new Cancellation(CancelOutcome.ALREADY_FINISHED, status(rs)))
                            : Optional.<Cancellation>empty();
                }
            }
        });
    }

    private static JobStatus status(ResultSet rs) throws SQLException {
        return new JobStatus(rs.getString(1), rs.getString(2), Params.decode(rs.getString(3)),
                JobStatus.State.valueOf(rs.getString(4)), rs.getString(5), rs.getInt(6), rs.getInt(7), rs.getInt(8),
                rs.getString(9), instant(rs.getTimestamp(10)), instant(rs.getTimestamp(11)),
                instant(rs.getTimestamp(12)), rs.getBoolean(13), rs.getString(14));
    }

    private static java.time.Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }

    @Override
    public void close() {
    }

    /** Job parameters as text: one {@code key=value} a line, values with their newlines escaped. */
    static final class Params {
        private Params() {
        }

        static String encode(Map<String, String> params) {
            StringBuilder sb = new StringBuilder();
            params.forEach((k, v) -> sb.append(k).append('=').append(v.replace("\\", "\\\\").replace("\n", "\\n"))
                    .append('\n'));
            return sb.toString();
        }

        static Map<String, String> decode(String text) {
            Map<String, String> params = new LinkedHashMap<>();
            for (String line : text.split("\n")) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    params.put(line.substring(0, eq), unescape(line.substring(eq + 1)));
                }
            }
            return params;
        }

        private static String unescape(String value) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c == '\\' && i + 1 < value.length()) {
                    char next = value.charAt(++i);
                    sb.append(next == 'n' ? '\n' : next);
                } else {
                    sb.append(c);
                }
            }
            return sb.toString();
        }
    }
}
