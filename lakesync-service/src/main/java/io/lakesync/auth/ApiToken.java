package io.lakesync.auth;

/**
 * One entry of {@code auth.tokens}.
 *
 * @param name who holds it; what the audit log records
 * @param role what it may do
 * @param secret the token itself, which clients send as {@code Authorization: Bearer <secret>}
 */
public record ApiToken(String name, Role role, String secret) {

    /** Never prints the secret. */
    @Override
    public String toString() {
        return "ApiToken[name=" + name + ", role=" + role.label() + "]";
    }
}
