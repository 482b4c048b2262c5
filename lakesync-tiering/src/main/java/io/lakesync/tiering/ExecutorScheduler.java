package io.lakesync.tiering;

import io.lakesync.tiering.lake.HadoopConfigFiles;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** {@link EngineScheduler} on a fixed pool of round threads and one timer thread. */
final class ExecutorScheduler implements EngineScheduler {

    private final ExecutorService roundThreads;
    private final ScheduledExecutorService timer;

    ExecutorScheduler(int workers) {
        this.roundThreads = Executors.newFixedThreadPool(workers, named("lakesync-round"));
        this.timer = Executors.newSingleThreadScheduledExecutor(named("lakesync-retry"));
    }

    @Override
    public void runRound(Runnable attempt) {
        roundThreads.execute(attempt);
    }

    @Override
    public Cancellable schedule(Runnable task, Duration delay) {
        ScheduledFuture<?> future = timer.schedule(task, Math.max(0, delay.toMillis()), TimeUnit.MILLISECONDS);
        return () -> future.cancel(false);
    }

    @Override
    public void shutdown(Duration grace) throws InterruptedException {
        timer.shutdownNow();
        roundThreads.shutdown();
        if (!roundThreads.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS)) {
            roundThreads.shutdownNow();
        }
    }

    /** Daemon threads that find the Hadoop configuration files lakesync ships (see {@link HadoopConfigFiles}). */
    static ThreadFactory named(String prefix) {
        AtomicInteger counter = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + counter.incrementAndGet());
            thread.setDaemon(true);
            thread.setContextClassLoader(HadoopConfigFiles.over(thread.getContextClassLoader()));
            return thread;
        };
    }
}
