package io.lakesync.bench;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Where a command keeps its cluster, services and logs (see {@link io.lakesync.bench.cluster.DataFolder}). */
public final class DataFolderOptions {

    @Option(names = "--data-dir", description = "New or empty folder for the cluster, the processes it starts and "
            + "their logs, kept afterwards (default: a temporary folder, removed afterwards).")
    public Path dataDir;

    @Option(names = "--keep-data", description = "Keep the temporary data folder (and the logs).")
    public boolean keepData;
}
