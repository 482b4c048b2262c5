package io.lakesync.auth;

import io.javalin.security.RouteRole;

/** Marks a route anyone may call without a token, such as a health check: {@code app.get(path, h, ANYONE)}. */
public enum PublicRoute implements RouteRole {
    ANYONE
}
