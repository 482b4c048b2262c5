package io.lakesync.fluss;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A server on 127.0.0.1 that accepts every connection and never answers: what a hung Fluss server looks like. */
public final class SilentServer implements AutoCloseable {

    private final ServerSocket socket;
    private final List<Socket> accepted = new CopyOnWriteArrayList<>();
    private final Thread acceptor;

    /** Listens on {@code port} (0: any free port). */
    public SilentServer(int port) throws IOException {
        socket = new ServerSocket();
        socket.setReuseAddress(true);
        socket.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port));
        acceptor = new Thread(() -> {
            try {
                while (true) {
                    accepted.add(socket.accept());
                }
            } catch (IOException closed) {
                // close() ends the loop
            }
        }, "silent-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return socket.getLocalPort();
    }

    /** How many connections it accepted (and left unanswered). */
    public int connections() {
        return accepted.size();
    }

    @Override
    public void close() throws IOException {
        socket.close();
        for (Socket connection : accepted) {
            connection.close();
        }
    }
}
