package io.lakesync.bench.campaign;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy on 127.0.0.1 in front of one address, with two faults: a {@linkplain #delay delay} each chunk of
 * bytes waits before it is passed on (both ways), and a {@linkplain #cut cut} that closes every open connection
 * and every new one at once, until {@link #heal()}. Blocking sockets, two threads per connection: a proxy for a
 * handful of connections.
 */
final class TcpProxy implements AutoCloseable {

    private static final int BUFFER_BYTES = 64 * 1024;

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile Duration delay = Duration.ZERO;
    private volatile boolean cut;

    private TcpProxy(ServerSocket server, InetSocketAddress target) {
        this.server = server;
        this.target = target;
    }

    /** A proxy on a free port of 127.0.0.1 to {@code 127.0.0.1:targetPort}. */
    static TcpProxy start(int targetPort) throws IOException {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        TcpProxy proxy = new TcpProxy(new ServerSocket(0, 50, loopback), new InetSocketAddress(loopback, targetPort));
        Thread acceptor = new Thread(proxy::acceptLoop, "tcp-proxy-" + proxy.port());
        acceptor.setDaemon(true);
        acceptor.start();
        return proxy;
    }

    int port() {
        return server.getLocalPort();
    }

    /** Each chunk waits {@code delay} before it is passed on, from now on. */
    void delay(Duration delay) {
        this.delay = delay;
    }

    /** Closes every open connection; new ones are closed as soon as they are accepted. */
    void cut() {
        cut = true;
        open.forEach(TcpProxy::closeQuietly);
    }

    /** No delay, no cut: connections pass again. */
    void heal() {
        cut = false;
        delay = Duration.ZERO;
    }

    @Override
    public void close() throws IOException {
        server.close();
        open.forEach(TcpProxy::closeQuietly);
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                if (cut) {
                    closeQuietly(client);
                    continue;
                }
                connect(client);
            } catch (IOException e) {
                // closed, or one connection failed: the next accept says which
            }
        }
    }

    private void connect(Socket client) throws IOException {
        Socket upstream = new Socket();
        try {
            upstream.connect(target);
        } catch (IOException e) {
            closeQuietly(client);
            closeQuietly(upstream);
            throw e;
        }
        open.add(client);
        open.add(upstream);
        // A cut between the accept and the registration must not miss this pair.
        if (cut) {
            closeQuietly(client);
            closeQuietly(upstream);
        }
        pump(client, upstream, "up");
        pump(upstream, client, "down");
    }

    private void pump(Socket from, Socket to, String direction) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[BUFFER_BYTES];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    Duration wait = delay;
                    if (!wait.isZero()) {
                        Thread.sleep(wait.toMillis());
                    }
                    out.write(buffer, 0, read);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // the other side or a cut closed the connection
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
            }
        }, "tcp-proxy-" + port() + "-" + direction);
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
