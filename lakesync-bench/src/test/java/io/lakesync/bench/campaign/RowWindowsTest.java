package io.lakesync.bench.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RowWindowsTest {

    @Test
    void eachIdBelongsToTheFaultItWasWrittenDuringIfAny() {
        KindStats kill = new KindStats("kill", "");
        KindStats cut = new KindStats("net-cut", "");
        RowWindows windows = new RowWindows();
        windows.add(10, 20, kill);
        windows.add(25, 30, cut);
        windows.add(30, 30, kill);

        assertThat(windows.kindOf(9)).isEmpty();
        assertThat(windows.kindOf(10)).contains(kill);
        assertThat(windows.kindOf(19)).contains(kill);
        assertThat(windows.kindOf(20)).isEmpty();
        assertThat(windows.kindOf(29)).contains(cut);
        assertThat(windows.kindOf(30)).as("an empty window holds no id").isEmpty();
    }
}
