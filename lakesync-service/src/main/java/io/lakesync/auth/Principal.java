package io.lakesync.auth;

/**
 * Who makes an API call: the name of the token used (what the audit log records) and its role.
 *
 * @param name the token's name from {@code auth.tokens}, or {@code anonymous}
 * @param role what the caller may do
 */
public record Principal(String name, Role role) {

    /** A caller without a token, let read when {@code auth.anonymous-read} is on. */
    public static final Principal ANONYMOUS = new Principal("anonymous", Role.VIEWER);
}
