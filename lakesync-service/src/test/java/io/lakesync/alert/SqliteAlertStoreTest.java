package io.lakesync.alert;

import io.lakesync.state.StateStore;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteAlertStoreTest extends AlertStoreContract {

    @TempDir
    Path dir;

    @Override
    protected StateStore openFresh() {
        return StateStore.open("jdbc:sqlite:" + dir.resolve("state.db"), "", "", clock);
    }
}
