package io.lakesync.state;

import java.time.Instant;

/**
 * One change to the service state.
 *
 * @param id increasing sequence number
 * @param at when it happened
 * @param actor name of the token holder who made it
 * @param action what was done, as {@code <thing>.<verb>}, for example {@code alert-rule.create}
 * @param target what it was done to, for example the rule name
 * @param detail the new value or other context, for people to read
 */
public record AuditEntry(long id, Instant at, String actor, String action, String target, String detail) {}
