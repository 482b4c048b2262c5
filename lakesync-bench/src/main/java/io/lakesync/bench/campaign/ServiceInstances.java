package io.lakesync.bench.campaign;

import io.lakesync.bench.contender.ChildArgs;
import io.lakesync.bench.contender.ChildJvm;
import io.lakesync.bench.contender.ChildProtocol;
import io.lakesync.config.LakeSyncOptions;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The campaign's lakesync instances, each in its own JVM ({@link ServiceMain}) with its own data folder, HTTP
 * port and name, all on one shared state: slot {@code i} keeps its port and name across restarts, so a restarted
 * instance takes its dead self's place. Every instance's log goes to {@code instance-<i>.log} (all restarts).
 */
final class ServiceInstances implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofMinutes(2);

    private final Map<String, String> shared;
    private final Path dir;
    private final String heap;
    private final List<Integer> ports = new ArrayList<>();
    private final List<ChildJvm> running = new ArrayList<>();
    private final List<Duration> clockOffsets = new ArrayList<>();
    /** Whether each instance said READY since its last launch. */
    private final List<Boolean> ready = new ArrayList<>();

    /** {@code shared}: the lakesync settings every instance gets (Fluss, lake, state, tokens, intervals). */
    ServiceInstances(int count, Map<String, String> shared, Path dir, String heap) throws Exception {
        this.shared = shared;
        this.dir = dir;
        this.heap = heap;
        for (int i = 0; i < count; i++) {
            ports.add(FlussProxies.freePort());
            running.add(null);
            clockOffsets.add(Duration.ZERO);
            ready.add(false);
        }
    }

    int count() {
        return ports.size();
    }

    /** Starts every instance and waits until all serve. */
    void startAll() throws Exception {
        for (int i = 0; i < count(); i++) {
            launch(i, Duration.ZERO);
        }
        for (int i = 0; i < count(); i++) {
            awaitReady(i);
        }
    }

    /** Starts instance {@code i} (it must not run) with its clock {@code clockOffset} off; does not wait. */
    synchronized void launch(int i, Duration clockOffset) throws Exception {
        Map<String, String> settings = new LinkedHashMap<>(shared);
        settings.put(LakeSyncOptions.DATA_DIR.key(), dir.resolve("instance-" + i).toString());
        settings.put(LakeSyncOptions.SERVICE_PORT.key(), Integer.toString(ports.get(i)));
        settings.put(LakeSyncOptions.CLUSTER_INSTANCE_ID.key(), "campaign-" + i);
        settings.put(ServiceMain.CLOCK_OFFSET, Long.toString(clockOffset.toMillis()));
        running.set(i, ChildJvm.launch(ServiceMain.class, new ChildArgs(settings), heap, dir.resolve("instance-" + i + ".log")));
        clockOffsets.set(i, clockOffset);
        ready.set(i, false);
    }

    /** Starts instance {@code i} again with the clock it had. */
    void relaunch(int i) throws Exception {
        launch(i, clockOffset(i));
    }

    synchronized Duration clockOffset(int i) {
        return clockOffsets.get(i);
    }

    /** Waits until instance {@code i} serves its API. */
    void awaitReady(int i) throws Exception {
        child(i).await(ChildProtocol.Type.READY, READY_TIMEOUT);
        setReady(i);
    }

    /** Whether instance {@code i} has served since its last launch (said READY); does not block. */
    boolean served(int i) throws InterruptedException {
        ChildJvm child = child(i);
        Optional<ChildProtocol.Event> event;
        while ((event = child.nextEvent(Duration.ZERO)).isPresent()) {
            if (event.get().type() == ChildProtocol.Type.READY) {
                setReady(i);
            }
        }
        synchronized (this) {
            return ready.get(i);
        }
    }

    private synchronized void setReady(int i) {
        ready.set(i, true);
    }

    /** SIGKILLs every instance and starts it again with the true clock; waits until all serve. */
    void restartAll() throws Exception {
        for (int i = 0; i < count(); i++) {
            kill(i);
            launch(i, Duration.ZERO);
        }
        for (int i = 0; i < count(); i++) {
            awaitReady(i);
        }
    }

    /** SIGKILLs instance {@code i}. */
    void kill(int i) throws InterruptedException {
        child(i).kill();
    }

    /** Why instance {@code i} stopped by itself, if it did (not a kill of the campaign's). */
    Optional<String> exited(int i) {
        return child(i).failure();
    }

    /** The status API of instance {@code i}. */
    URI url(int i) {
        return URI.create("http://127.0.0.1:" + ports.get(i));
    }

    /** Stops every instance (STOP, then SIGKILL if it does not exit in time). */
    void stopAll() throws InterruptedException {
        for (int i = 0; i < count(); i++) {
            child(i).stop();
        }
    }

    @Override
    public synchronized void close() {
        running.stream().filter(child -> child != null).forEach(ChildJvm::close);
    }

    private synchronized ChildJvm child(int i) {
        return running.get(i);
    }
}
