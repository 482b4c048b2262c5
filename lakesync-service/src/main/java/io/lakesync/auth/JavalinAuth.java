package io.lakesync.auth;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.ForbiddenResponse;
import io.javalin.http.Handler;
import io.javalin.http.HandlerType;
import io.javalin.http.UnauthorizedResponse;
import io.javalin.security.RouteRole;
import java.util.Set;

/**
 * Guards the routes of a Javalin app with an {@link Authenticator}, as a {@code beforeMatched} handler.
 *
 * <p>The role a route needs is the lowest {@link Role} it declares ({@code app.post(path, handler, Role.OWNER)});
 * a route declaring {@link PublicRoute#ANYONE} is open. A route that declares nothing needs {@link Role#VIEWER}
 * for GET and HEAD and {@link Role#OPERATOR} for every other method, so a forgotten declaration never opens a
 * change to everybody. Refused calls end in Javalin's {@link UnauthorizedResponse} (401, with a
 * {@code WWW-Authenticate: Bearer} header) or {@link ForbiddenResponse} (403) carrying the explanation; allowed
 * calls carry their {@link Principal}, which handlers read with {@link #principal(Context)}.
 */
public final class JavalinAuth implements Handler {

    private static final String PRINCIPAL_ATTRIBUTE = "lakesync.principal";

    private final Authenticator authenticator;

    public JavalinAuth(Authenticator authenticator) {
        this.authenticator = authenticator;
    }

    /** Guards every route of {@code app}. */
    public static void install(Javalin app, Authenticator authenticator) {
        app.beforeMatched(new JavalinAuth(authenticator));
    }

    /** The caller of the current request, as the guard identified it. */
    public static Principal principal(Context ctx) {
        Principal principal = ctx.attribute(PRINCIPAL_ATTRIBUTE);
        if (principal == null) {
            throw new IllegalStateException("No caller identified for " + ctx.method() + " " + ctx.path()
                    + ": the route is public or JavalinAuth is not installed.");
        }
        return principal;
    }

    @Override
    public void handle(Context ctx) {
        Role required = requiredRole(ctx.routeRoles(), ctx.method());
        if (required == null) {
            return;
        }
        AccessDecision decision = authenticator.authorize(ctx.header("Authorization"), required);
        if (decision instanceof AccessDecision.Denied denied) {
            if (denied.status() == 401) {
                ctx.header("WWW-Authenticate", "Bearer realm=\"lakesync\"");
                throw new UnauthorizedResponse(denied.message());
            }
            throw new ForbiddenResponse(denied.message());
        }
        ctx.attribute(PRINCIPAL_ATTRIBUTE, ((AccessDecision.Allowed) decision).principal());
    }

    /** The role a route needs, or null if it is public. */
    static Role requiredRole(Set<RouteRole> declared, HandlerType method) {
        if (declared.contains(PublicRoute.ANYONE)) {
            return null;
        }
        Role lowest = null;
        for (RouteRole role : declared) {
            if (role instanceof Role && (lowest == null || ((Role) role).compareTo(lowest) < 0)) {
                lowest = (Role) role;
            }
        }
        if (lowest != null) {
            return lowest;
        }
        return method == HandlerType.GET || method == HandlerType.HEAD ? Role.VIEWER : Role.OPERATOR;
    }
}
