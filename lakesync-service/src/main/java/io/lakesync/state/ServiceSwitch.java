package io.lakesync.state;

import java.time.Instant;

/**
 * The cluster-wide on/off switch of lake-stream integration, with who set it last, when and why.
 *
 * @param enabled whether lakesync tiers tables at all
 * @param changedBy name of the token holder who set it
 * @param changedAt when it was set
 * @param reason free text the caller gave, possibly empty
 */
public record ServiceSwitch(boolean enabled, String changedBy, Instant changedAt, String reason) {}
