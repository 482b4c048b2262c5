package io.lakesync.alert;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP endpoint on 127.0.0.1 that records the JSON POSTed to it. It can be told to answer the first
 * requests with an error status, or to hold answers until released, to exercise retries and timeouts.
 */
public final class WebhookReceiver implements AutoCloseable {

    /** One request as received. */
    public record Received(String eventIdHeader, String contentType, JsonNode body, int answeredWith) {}

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
    private final AtomicInteger failuresLeft = new AtomicInteger();
    private volatile int failureStatus = 500;
    private volatile CountDownLatch hold = new CountDownLatch(0);

    public WebhookReceiver() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/hook", exchange -> {
            JsonNode body = JSON.readTree(exchange.getRequestBody());
            try {
                hold.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            int status = failuresLeft.getAndUpdate(left -> Math.max(0, left - 1)) > 0 ? failureStatus : 204;
            received.add(new Received(exchange.getRequestHeaders().getFirst("X-Lakesync-Event-Id"),
                    exchange.getRequestHeaders().getFirst("Content-Type"), body, status));
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
    }

    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/hook");
    }

    /** Answers the next {@code count} requests with {@code status}. */
    void failNext(int count, int status) {
        failureStatus = status;
        failuresLeft.set(count);
    }

    /** Holds every answer until {@link #release()}, so that senders time out. */
    void holdAnswers() {
        hold = new CountDownLatch(1);
    }

    void release() {
        hold.countDown();
    }

    /** Waits up to {@code timeout} for the next request. */
    public Received next(Duration timeout) throws InterruptedException {
        Received next = received.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (next == null) {
            throw new AssertionError("No webhook request arrived within " + timeout);
        }
        return next;
    }

    /** The requests received and not yet taken with {@link #next}. */
    public List<Received> drain() {
        List<Received> rest = new ArrayList<>();
        received.drainTo(rest);
        return rest;
    }

    @Override
    public void close() {
        release();
        server.stop(0);
    }
}
