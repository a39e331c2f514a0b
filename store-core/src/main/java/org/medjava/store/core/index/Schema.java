package org.medjava.store.core.index;

import jakarta.persistence.Column;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.Table;
import java.lang.reflect.Field;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Whether the index tables exist with every mapped column: one {@code SELECT <columns> FROM <table> WHERE 1 = 0}
 * per entity, built from the mapping annotations. When they do, {@link DicomIndex} opens without DDL generation:
 * EclipseLink's create-or-extend-tables would otherwise try to add the foreign keys again on every start (and log
 * each failure as a warning); when they do not, it creates or extends them and this check verifies the result.
 */
final class Schema {
    static final List<Class<?>> ENTITIES = List.of(PatientEntity.class, StudyEntity.class, SeriesEntity.class,
            InstanceEntity.class, TrashEntity.class, ChangeEntity.class, MetadataEntity.class, LabelEntity.class);

    private Schema() {
    }

    /** What is missing from the schema (the database's message), or null when every table has every column. */
    static String missing(Connection c) {
        for (String probe : probes()) {
            try (Statement s = c.createStatement()) {
                s.executeQuery(probe).close();
            } catch (SQLException e) {
                return IndexSession.reason(e);
            }
        }
        return null;
    }

    static List<String> probes() {
        List<String> probes = new ArrayList<>();
        for (Class<?> entity : ENTITIES) {
            List<String> columns = new ArrayList<>();
            for (Field field : entity.getDeclaredFields()) {
                Column column = field.getAnnotation(Column.class);
                JoinColumn join = field.getAnnotation(JoinColumn.class);
                if (column != null) {
                    columns.add(column.name());
                } else if (join != null) {
                    columns.add(join.name());
                }
            }
            probes.add("SELECT " + String.join(", ", columns) + " FROM " + entity.getAnnotation(Table.class).name()
                    + " WHERE 1 = 0");
        }
        probes.add(AuditTable.PROBE);
        probes.add(ShareTable.PROBE);
        probes.add(RouteQueue.PROBE);
        probes.add(ReadyMetadataTable.PROBE);
        return probes;
    }

    /**
     * A connection to {@code database}. DicomIndex holds one while it opens, which also keeps an embedded H2
     * database from being closed (and compacted) between the steps.
     *
     * @throws IndexException when the database cannot be reached
     */
    static Connection connect(IndexDatabase database) {
        try {
            return open(database);
        } catch (SQLException e) {
            throw new IndexException("cannot open the DICOM index database " + database.describe() + ": "
                    + IndexSession.reason(e), e);
        }
    }

    private static Connection open(IndexDatabase database) throws SQLException {
        String driver = database.driverClass();
        if (driver != null) {
            try {
                // registers it with DriverManager, from the class loader that holds this code and the drivers
                Class.forName(driver, true, Schema.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IndexException("cannot open the DICOM index database " + database.describe()
                        + ": no JDBC driver " + driver + " on the class path", e);
            }
        }
        Properties properties = new Properties();
        properties.setProperty("user", database.user());
        properties.setProperty("password", database.password());
        if (database.url().startsWith("jdbc:postgresql:")) {
            properties.setProperty("logServerErrorDetail", "false");
        }
        return DriverManager.getConnection(database.connectionUrl(), properties);
    }
}
