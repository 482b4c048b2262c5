package io.lakesync.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** A command that talks to a running lakesync service; a refusal prints the service's reason and exits 1. */
abstract class ClientCommand implements Callable<Integer> {

    @Mixin ApiClient api;

    @Spec CommandSpec spec;

    @Override
    public final Integer call() throws Exception {
        try {
            run(spec.commandLine().getOut());
            return 0;
        } catch (ApiClient.ApiException e) {
            spec.commandLine().getErr().println("lakesync: " + e.getMessage());
            return 1;
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("lakesync: " + e.getMessage());
            return LakeSyncCli.BAD_INPUT;
        }
    }

    abstract void run(PrintWriter out) throws Exception;

    /** {@code db.table} as the API's path segment {@code db/table}. */
    static String tablePath(String qualifiedName) {
        int dot = qualifiedName.indexOf('.');
        if (dot <= 0 || dot == qualifiedName.length() - 1) {
            throw new IllegalArgumentException("A table is named <database>.<table>, got '" + qualifiedName + "'.");
        }
        return qualifiedName.substring(0, dot) + "/" + qualifiedName.substring(dot + 1);
    }
}
