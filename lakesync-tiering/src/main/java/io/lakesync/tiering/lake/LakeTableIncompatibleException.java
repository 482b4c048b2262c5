package io.lakesync.tiering.lake;

/**
 * The Paimon table no longer fits its Fluss table (changed outside Fluss, or created with options lakesync
 * cannot honour). Retrying cannot help: the table is blocked until someone fixes the lake table.
 */
public class LakeTableIncompatibleException extends Exception {
    public LakeTableIncompatibleException(String message) {
        super(message);
    }
}
