package io.lakesync.tiering.round;

import java.util.concurrent.Callable;
import javax.annotation.Nullable;
import org.apache.fluss.metadata.TableInfo;

/**
 * Run once before a round's row path reads (a KV snapshot, or a log the columnar reader handed back): whether
 * the table's schema is still the one the round reads with. The columnar reader checks each batch's schema id
 * itself, but the Fluss client's readers project every record to the table's schema without saying in which
 * schema it was written, so a round that read its table info before its high watermarks asks again here.
 * Asked at most once per round, however many bucket groups get here.
 */
final class RowPathSchemaCheck {

    /** For a round whose table info was read after its high watermarks: nothing to check. */
    static final RowPathSchemaCheck NONE = new RowPathSchemaCheck(null, 0);

    private final @Nullable Callable<TableInfo> currentInfo;
    private final int readSchemaId;
    private boolean checked;

    /** {@code currentInfo}: asks for the table info now (and fails if the table was re-created). */
    RowPathSchemaCheck(@Nullable Callable<TableInfo> currentInfo, int readSchemaId) {
        this.currentInfo = currentInfo;
        this.readSchemaId = readSchemaId;
    }

    synchronized void check() throws Exception {
        if (currentInfo == null || checked) {
            return;
        }
        TableInfo now = currentInfo.call();
        if (now.getSchemaId() != readSchemaId) {
            throw new NewerSchemaException("The schema of " + now.getTablePath() + " changed during the round (id "
                    + readSchemaId + " is now " + now.getSchemaId() + ")");
        }
        checked = true;
    }
}
