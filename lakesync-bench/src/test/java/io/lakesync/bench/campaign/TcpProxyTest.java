package io.lakesync.bench.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TcpProxyTest {

    private ServerSocket echo;
    private TcpProxy proxy;

    @BeforeEach
    void startEchoServerBehindProxy() throws IOException {
        echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread server = new Thread(() -> {
            while (!echo.isClosed()) {
                try {
                    Socket socket = echo.accept();
                    Thread connection = new Thread(() -> {
                        try (socket; InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
                            in.transferTo(out);
                        } catch (IOException e) {
                            // closed
                        }
                    });
                    connection.setDaemon(true);
                    connection.start();
                } catch (IOException e) {
                    return;
                }
            }
        });
        server.setDaemon(true);
        server.start();
        proxy = TcpProxy.start(echo.getLocalPort());
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        echo.close();
    }

    @Test
    void bytesPassBothWays() throws IOException {
        try (Socket client = connect()) {
            assertThat(roundTrip(client, "hello")).isEqualTo("hello");
            assertThat(roundTrip(client, "again")).isEqualTo("again");
        }
    }

    @Test
    void aCutClosesOpenConnectionsAndRefusesNewOnesUntilHealed() throws IOException {
        try (Socket before = connect()) {
            assertThat(roundTrip(before, "a")).isEqualTo("a");

            proxy.cut();

            assertThat(closedByPeer(before)).as("the open connection is closed").isTrue();
            try (Socket during = connect()) {
                assertThat(closedByPeer(during)).as("a new connection is closed at once").isTrue();
            }
        }
        proxy.heal();
        try (Socket after = connect()) {
            assertThat(roundTrip(after, "b")).isEqualTo("b");
        }
    }

    @Test
    void aDelayHoldsEveryChunkUntilHealed() throws IOException {
        try (Socket client = connect()) {
            proxy.delay(Duration.ofMillis(100));
            long start = System.nanoTime();
            assertThat(roundTrip(client, "slow")).isEqualTo("slow");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("one chunk each way").isGreaterThanOrEqualTo(Duration.ofMillis(200));

            proxy.heal();
            assertThat(roundTrip(client, "fast")).isEqualTo("fast");
        }
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
        socket.setSoTimeout(10_000);
        return socket;
    }

    private static String roundTrip(Socket socket, String text) throws IOException {
        socket.getOutputStream().write(text.getBytes());
        socket.getOutputStream().flush();
        byte[] back = socket.getInputStream().readNBytes(text.length());
        return new String(back);
    }

    private static boolean closedByPeer(Socket socket) throws IOException {
        try {
            socket.getOutputStream().write('x');
            return socket.getInputStream().read() < 0;
        } catch (SocketException e) {
            return true;
        }
    }
}
