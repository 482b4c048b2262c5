package io.lakesync.auth;

/** The answer to "may this caller make this call": {@link Allowed} or {@link Denied}. */
public sealed interface AccessDecision permits AccessDecision.Allowed, AccessDecision.Denied {

    /** The call may go ahead on behalf of {@code principal}. */
    record Allowed(Principal principal) implements AccessDecision {}

    /**
     * The call is refused.
     *
     * @param status 401 when the caller is not identified (no, malformed or unknown token), 403 when the token's
     *     role is too low
     * @param message what is wrong and how to fix it; never contains a token
     */
    record Denied(int status, String message) implements AccessDecision {}
}
