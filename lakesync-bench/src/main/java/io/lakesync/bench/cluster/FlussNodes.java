package io.lakesync.bench.cluster;

/** The Fluss servers of the embedded cluster, as the campaign's node faults stop and start them. */
public interface FlussNodes {

    int tabletServerCount();

    void stopTabletServer(int index) throws Exception;

    void startTabletServer(int index) throws Exception;

    boolean tabletServerRunning(int index);

    /** Stops the coordinator and starts it again on the same address; returns once it serves again. */
    void restartCoordinator() throws Exception;

    /** An action on the tablet server at an index. */
    @FunctionalInterface
    interface IndexAction {
        void run(int index) throws Exception;
    }

    /** A test on the tablet server at an index. */
    @FunctionalInterface
    interface IndexTest {
        boolean test(int index);
    }

    /** A whole-cluster action. */
    @FunctionalInterface
    interface Action {
        void run() throws Exception;
    }

    /** Nodes made of the cluster's methods (see {@link BenchCluster#nodes()}). */
    static FlussNodes of(java.util.function.IntSupplier count, IndexAction stop, IndexAction start, IndexTest running,
            Action restartCoordinator) {
        return new FlussNodes() {
            @Override
            public int tabletServerCount() {
                return count.getAsInt();
            }

            @Override
            public void stopTabletServer(int index) throws Exception {
                stop.run(index);
            }

            @Override
            public void startTabletServer(int index) throws Exception {
                start.run(index);
            }

            @Override
            public boolean tabletServerRunning(int index) {
                return running.test(index);
            }

            @Override
            public void restartCoordinator() throws Exception {
                restartCoordinator.run();
            }
        };
    }
}
