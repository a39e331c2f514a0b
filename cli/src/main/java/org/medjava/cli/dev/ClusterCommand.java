package org.medjava.cli.dev;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.medjava.cli.command.Context;
import org.medjava.cli.command.Processes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code medjava cluster}: a local three-node cluster without Docker. Its orchestration (PostgreSQL's initdb,
 * S3Proxy, an nginx configuration, the nodes' health) is deploy/local-cluster.sh, run in the caller's directory
 * (MEDJAVA_DATA is theirs). docker/compose.yaml defines the cluster; ClusterTopologyTest keeps the script's parts and
 * node settings in step with it, and nginx's rules are one shared file (deploy/cluster/nginx-proxy.conf).
 */
@Command(name = "cluster", description = {"Three store nodes behind nginx on PostgreSQL and S3Proxy, locally; "
        + "Ctrl-C stops it all (docs/operations/cluster.md).",
        "Settings: MEDJAVA_PORT (8080; nodes on +1..+N), MEDJAVA_DATA (data/cluster), MEDJAVA_NODES (3), "
                + "MEDJAVA_NODE_HEAP (512m)."})
public final class ClusterCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Context ctx = Context.of(spec);
        return Processes.run(List.of(ctx.root().resolve("deploy/local-cluster.sh").toString()), ctx.cwd(), Map.of());
    }
}
