package io.lakesync.auth;

import io.lakesync.config.ConfigException;
import io.lakesync.config.LakeSyncConfig;
import io.lakesync.config.LakeSyncOptions;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.fluss.config.Password;

/**
 * Decides whether an API call may go ahead, from its {@code Authorization} header and the role the call needs.
 * Tokens come from {@code auth.tokens}; reads may be opened to callers without a token with
 * {@code auth.anonymous-read}. Presented tokens are compared in constant time against hashes of the configured
 * ones, and no message ever repeats a token.
 */
public final class Authenticator {

    /** The shortest accepted token, so that tokens cannot be guessed. */
    public static final int MIN_TOKEN_LENGTH = 16;

    private static final String TOKENS_KEY = LakeSyncOptions.AUTH_TOKENS.key();
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");
    /** RFC 6750 b64token: what may follow "Bearer ". */
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9._~+/-]+=*");
    private static final String BEARER = "Bearer ";
    /** What the placeholder tokens of the shipped manifests (deploy/kubernetes/secret.yaml) hold. */
    private static final Pattern PLACEHOLDER = Pattern.compile("change-?me", Pattern.CASE_INSENSITIVE);

    private record Entry(Principal principal, byte[] hash) {}

    private final List<Entry> entries;
    private final boolean anonymousRead;

    private Authenticator(List<Entry> entries, boolean anonymousRead) {
        this.entries = List.copyOf(entries);
        this.anonymousRead = anonymousRead;
    }

    /**
     * The authenticator that {@code auth.tokens} and {@code auth.anonymous-read} describe.
     *
     * @throws ConfigException naming {@code auth.tokens} and the entry at fault if a token entry is malformed
     */
    public static Authenticator fromConfig(LakeSyncConfig config) {
        Password tokens = config.get(LakeSyncOptions.AUTH_TOKENS);
        return of(parseTokens(tokens == null ? "" : tokens.value()), config.get(LakeSyncOptions.AUTH_ANONYMOUS_READ));
    }

    /**
     * An authenticator for {@code tokens}.
     *
     * @throws ConfigException if two tokens share a name or a secret
     */
    public static Authenticator of(List<ApiToken> tokens, boolean anonymousRead) {
        List<Entry> entries = new ArrayList<>();
        Set<String> names = new HashSet<>();
        Set<String> secrets = new HashSet<>();
        for (ApiToken token : tokens) {
            if (!names.add(token.name())) {
                throw new ConfigException("Config key '" + TOKENS_KEY + "' names token '" + token.name()
                        + "' twice; give every token its own name.");
            }
            if (!secrets.add(token.secret())) {
                throw new ConfigException("Config key '" + TOKENS_KEY + "' gives token '" + token.name()
                        + "' the same secret as another token; give every token its own secret.");
            }
            entries.add(new Entry(new Principal(token.name(), token.role()), sha256(token.secret())));
        }
        return new Authenticator(entries, anonymousRead);
    }

    /**
     * Parses {@code name:role:token} entries separated by commas; blank entries are skipped.
     *
     * @throws ConfigException naming {@code auth.tokens}, the entry's position and what is wrong, also for a
     *     placeholder token left as shipped
     */
    public static List<ApiToken> parseTokens(String text) {
        List<ApiToken> tokens = new ArrayList<>();
        String[] items = text.split(",");
        for (int i = 0; i < items.length; i++) {
            String item = items[i].trim();
            if (item.isEmpty()) {
                continue;
            }
            String where = "Entry " + (i + 1) + " of config key '" + TOKENS_KEY + "'";
            String[] parts = item.split(":", 3);
            if (parts.length != 3) {
                throw new ConfigException(where + " must look like name:role:token, for example "
                        + "alice:owner:<token>.");
            }
            String name = parts[0].trim();
            if (!NAME.matcher(name).matches()) {
                throw new ConfigException(where + " has name '" + name + "'; a name is 1 to 64 letters, digits, "
                        + "'.', '_' or '-', starting with a letter or digit.");
            }
            Role role = Role.parse(parts[1]).orElseThrow(() -> new ConfigException(where + " (token '" + name
                    + "') has role '" + parts[1].trim() + "'; use owner, operator or viewer."));
            String secret = parts[2].trim();
            if (secret.length() < MIN_TOKEN_LENGTH || !TOKEN.matcher(secret).matches()) {
                throw new ConfigException(where + " (token '" + name + "') needs a token of at least "
                        + MIN_TOKEN_LENGTH + " letters, digits or -._~+/ characters, for example the output of "
                        + "'openssl rand -hex 24'.");
            }
            if (PLACEHOLDER.matcher(secret).find()) {
                throw new ConfigException(where + " (token '" + name + "') still holds a placeholder token "
                        + "('change-me'); replace it with a random token of your own, for example the output of "
                        + "'openssl rand -hex 24'.");
            }
            tokens.add(new ApiToken(name, role, secret));
        }
        return tokens;
    }

    /**
     * Whether a call needing {@code required} may go ahead with this {@code Authorization} header.
     *
     * @param authorizationHeader the header's value, or null if the call has none
     */
    public AccessDecision authorize(String authorizationHeader, Role required) {
        if (authorizationHeader == null || authorizationHeader.isBlank()) {
            if (anonymousRead && required == Role.VIEWER) {
                return new AccessDecision.Allowed(Principal.ANONYMOUS);
            }
            return new AccessDecision.Denied(401, missingTokenMessage(required));
        }
        if (!authorizationHeader.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            String scheme = authorizationHeader.trim().split("\\s+", 2)[0];
            return new AccessDecision.Denied(401, "The Authorization header must be 'Bearer <token>'; this one uses '"
                    + scheme + "'.");
        }
        byte[] presented = sha256(authorizationHeader.substring(BEARER.length()).trim());
        Principal match = null;
        for (Entry entry : entries) {
            // Every entry is compared, in constant time, so timing tells nothing about the tokens.
            if (MessageDigest.isEqual(entry.hash(), presented)) {
                match = entry.principal();
            }
        }
        if (match == null) {
            return new AccessDecision.Denied(401, "Unknown API token: it matches none configured in '" + TOKENS_KEY
                    + "'.");
        }
        if (!match.role().includes(required)) {
            return new AccessDecision.Denied(403, "Forbidden: this call needs role " + required.label()
                    + " or higher, but token '" + match.name() + "' has role " + match.role().label() + ".");
        }
        return new AccessDecision.Allowed(match);
    }

    /** Whether calls that need only {@link Role#VIEWER} are allowed without a token. */
    public boolean anonymousRead() {
        return anonymousRead;
    }

    private String missingTokenMessage(Role required) {
        String message = "Authentication required: this call needs role " + required.label()
                + " or higher; send the header 'Authorization: Bearer <token>'";
        if (entries.isEmpty()) {
            return message + ", after adding name:role:token entries to the config key '" + TOKENS_KEY
                    + "' (none are configured).";
        }
        return message + " with a token from the config key '" + TOKENS_KEY + "'.";
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java runtime has SHA-256", e);
        }
    }
}
