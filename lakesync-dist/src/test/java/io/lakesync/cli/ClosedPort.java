package io.lakesync.cli;

import java.io.IOException;
import java.net.ServerSocket;

/** A port on 127.0.0.1 nothing listens on, for an unreachable server: a free one, released again. */
final class ClosedPort {

    private ClosedPort() {}

    static int pick() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
