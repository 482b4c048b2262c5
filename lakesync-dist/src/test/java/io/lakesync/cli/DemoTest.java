package io.lakesync.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.tiering.TieringService;
import io.lakesync.tiering.TieringTestBase;
import java.util.List;
import org.apache.fluss.exception.LakeTableAlreadyExistException;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.junit.jupiter.api.Test;

/**
 * The {@code --demo} tables on a restart of the local stack: their lake tables hold data by then, which Fluss
 * 0.9.1's {@code CREATE TABLE IF NOT EXISTS} refuses, and the demo must start anyway on the tables it has.
 */
class DemoTest extends TieringTestBase {

    @Test
    void theDemoStartsAgainOnItsTablesOnceTheirLakeTablesHoldData() throws Exception {
        Demo.createTablesIfAbsent(fluss);
        long ordersId = admin.getTableInfo(Demo.ORDERS).get().getTableId();
        long clicksId = admin.getTableInfo(Demo.CLICKS).get().getTableId();
        upsert(Demo.ORDERS, List.<InternalRow>of(GenericRow.of(1L, 2L, 3, 400), GenericRow.of(5L, 6L, 7, 800)), false);
        append(Demo.CLICKS, List.<InternalRow>of(GenericRow.of(1L, 2L, BinaryString.fromString("/shop/1/item/9"))));
        try (TieringService service = startService("demo-instance")) {
            awaitTiered(Demo.ORDERS);
            awaitTiered(Demo.CLICKS);
        }

        // What the demo used to do on every start; refused by Fluss 0.9.1 once the lake table has data.
        assertThatThrownBy(() -> admin.createTable(
                        Demo.ORDERS, admin.getTableInfo(Demo.ORDERS).get().toTableDescriptor(), true).get())
                .hasCauseInstanceOf(LakeTableAlreadyExistException.class);

        Demo.createTablesIfAbsent(fluss);

        assertThat(admin.getTableInfo(Demo.ORDERS).get().getTableId()).as("the same orders table").isEqualTo(ordersId);
        assertThat(admin.getTableInfo(Demo.CLICKS).get().getTableId()).as("the same clicks table").isEqualTo(clicksId);
        assertThat(readLake(Demo.ORDERS, "shop_id", "user_id", "num_orders", "total_amount"))
                .containsExactlyInAnyOrder(List.of(1L, 2L, 3, 400), List.of(5L, 6L, 7, 800));
    }
}
