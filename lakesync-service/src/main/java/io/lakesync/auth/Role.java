package io.lakesync.auth;

import io.javalin.security.RouteRole;
import java.util.Locale;
import java.util.Optional;

/**
 * What a token may do, each role including the ones below it: {@link #OWNER} > {@link #OPERATOR} >
 * {@link #VIEWER}. Also a Javalin {@link RouteRole}, so routes declare the role they need.
 */
public enum Role implements RouteRole {
    /** Reads everything, changes nothing. */
    VIEWER,
    /** Also manages tables and alerts (rules, channels). */
    OPERATOR,
    /** Also switches the service on and off for the whole cluster. */
    OWNER;

    /** Whether a holder of this role may do what {@code required} may. */
    public boolean includes(Role required) {
        return compareTo(required) >= 0;
    }

    /** The role as written in the config, in lower case. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code owner}, {@code operator} or {@code viewer} in any case. */
    public static Optional<Role> parse(String text) {
        for (Role role : values()) {
            if (role.name().equalsIgnoreCase(text.trim())) {
                return Optional.of(role);
            }
        }
        return Optional.empty();
    }
}
