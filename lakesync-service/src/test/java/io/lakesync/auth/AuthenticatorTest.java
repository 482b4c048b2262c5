package io.lakesync.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakesync.config.ConfigException;
import io.lakesync.config.LakeSyncConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AuthenticatorTest {

    static final String OWNER_TOKEN = "owner-token-0123456789";
    static final String OPERATOR_TOKEN = "operator-token-0123456789";
    static final String VIEWER_TOKEN = "viewer-token-0123456789";
    static final String TOKENS = " alice:owner:" + OWNER_TOKEN + ", ci-bot:Operator:" + OPERATOR_TOKEN
            + ",grafana:VIEWER:" + VIEWER_TOKEN + ",";

    private static Authenticator fromConfig(Map<String, String> options) {
        return Authenticator.fromConfig(LakeSyncConfig.fromMap(options, "test"));
    }

    private final Authenticator authenticator = fromConfig(Map.of("auth.tokens", TOKENS));

    @Test
    void parsesNamedTokensWithTheirRoles() {
        assertThat(Authenticator.parseTokens(TOKENS)).containsExactly(
                new ApiToken("alice", Role.OWNER, OWNER_TOKEN),
                new ApiToken("ci-bot", Role.OPERATOR, OPERATOR_TOKEN),
                new ApiToken("grafana", Role.VIEWER, VIEWER_TOKEN));
        assertThat(new ApiToken("alice", Role.OWNER, OWNER_TOKEN).toString())
                .isEqualTo("ApiToken[name=alice, role=owner]");
    }

    @Test
    void eachRoleIncludesTheRolesBelowIt() {
        assertThat(authenticator.authorize("Bearer " + OWNER_TOKEN, Role.OWNER))
                .isEqualTo(new AccessDecision.Allowed(new Principal("alice", Role.OWNER)));
        assertThat(authenticator.authorize("Bearer " + OWNER_TOKEN, Role.VIEWER))
                .isEqualTo(new AccessDecision.Allowed(new Principal("alice", Role.OWNER)));
        assertThat(authenticator.authorize("bearer  " + OPERATOR_TOKEN + " ", Role.OPERATOR))
                .isEqualTo(new AccessDecision.Allowed(new Principal("ci-bot", Role.OPERATOR)));
        assertThat(authenticator.authorize("Bearer " + VIEWER_TOKEN, Role.VIEWER))
                .isEqualTo(new AccessDecision.Allowed(new Principal("grafana", Role.VIEWER)));
    }

    @Test
    void aRoleTooLowIsForbiddenNamingBothRoles() {
        assertThat(authenticator.authorize("Bearer " + OPERATOR_TOKEN, Role.OWNER)).isEqualTo(new AccessDecision.Denied(
                403, "Forbidden: this call needs role owner or higher, but token 'ci-bot' has role operator."));
        assertThat(authenticator.authorize("Bearer " + VIEWER_TOKEN, Role.OPERATOR)).isEqualTo(
                new AccessDecision.Denied(403,
                        "Forbidden: this call needs role operator or higher, but token 'grafana' has role viewer."));
    }

    @Test
    void aMissingTokenSaysHowToSendOne() {
        assertThat(authenticator.authorize(null, Role.VIEWER)).isEqualTo(new AccessDecision.Denied(401,
                "Authentication required: this call needs role viewer or higher; send the header "
                        + "'Authorization: Bearer <token>' with a token from the config key 'auth.tokens'."));
        assertThat(authenticator.authorize(" ", Role.OWNER)).isInstanceOf(AccessDecision.Denied.class);
    }

    @Test
    void withoutConfiguredTokensTheMessageSaysToConfigureThem() {
        AccessDecision decision = Authenticator.fromConfig(LakeSyncConfig.defaults()).authorize(null, Role.OPERATOR);

        assertThat(decision).isEqualTo(new AccessDecision.Denied(401,
                "Authentication required: this call needs role operator or higher; send the header "
                        + "'Authorization: Bearer <token>', after adding name:role:token entries to the config key "
                        + "'auth.tokens' (none are configured)."));
    }

    @Test
    void anUnknownOrMalformedTokenIsUnauthorizedWithoutRepeatingIt() {
        assertThat(authenticator.authorize("Bearer not-a-configured-token", Role.VIEWER)).isEqualTo(
                new AccessDecision.Denied(401, "Unknown API token: it matches none configured in 'auth.tokens'."));
        assertThat(authenticator.authorize("Basic YWxpY2U6c2VjcmV0", Role.VIEWER)).isEqualTo(
                new AccessDecision.Denied(401,
                        "The Authorization header must be 'Bearer <token>'; this one uses 'Basic'."));
        assertThat(authenticator.authorize("Bearer", Role.VIEWER)).isInstanceOf(AccessDecision.Denied.class);
    }

    @Test
    void anonymousReadOpensOnlyReadsAndOnlyWithoutAHeader() {
        Authenticator open = fromConfig(Map.of("auth.tokens", TOKENS, "auth.anonymous-read", "true"));

        assertThat(open.anonymousRead()).isTrue();
        assertThat(authenticator.anonymousRead()).isFalse();
        assertThat(open.authorize(null, Role.VIEWER)).isEqualTo(new AccessDecision.Allowed(Principal.ANONYMOUS));
        assertThat(open.authorize(null, Role.OPERATOR)).isInstanceOf(AccessDecision.Denied.class);
        assertThat(open.authorize("Bearer wrong-token-0123456789", Role.VIEWER))
                .as("a wrong token is refused even where no token is needed")
                .isInstanceOf(AccessDecision.Denied.class);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "no role           | alice:0123456789abcdef0123                | Entry 1 of config key 'auth.tokens' must look like name:role:token, for example alice:owner:<token>.",
        "bad name          | al ice:owner:0123456789abcdef0123         | Entry 1 of config key 'auth.tokens' has name 'al ice'; a name is 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit.",
        "bad role          | alice:admin:0123456789abcdef0123          | Entry 1 of config key 'auth.tokens' (token 'alice') has role 'admin'; use owner, operator or viewer.",
        "short token       | x:viewer:0123456789abcdef0123,alice:owner:short | Entry 2 of config key 'auth.tokens' (token 'alice') needs a token of at least 16 letters, digits or -._~+/ characters, for example the output of 'openssl rand -hex 24'.",
        "token with space  | alice:owner:0123456789 abcdef0123         | Entry 1 of config key 'auth.tokens' (token 'alice') needs a token of at least 16 letters, digits or -._~+/ characters, for example the output of 'openssl rand -hex 24'.",
        "placeholder       | x:viewer:0123456789abcdef0123,ops:owner:Change-Me-0123456789abcdef | Entry 2 of config key 'auth.tokens' (token 'ops') still holds a placeholder token ('change-me'); replace it with a random token of your own, for example the output of 'openssl rand -hex 24'.",
        "name twice        | a:owner:0123456789abcdef0123,a:viewer:0123456789abcdef0124 | Config key 'auth.tokens' names token 'a' twice; give every token its own name.",
        "secret twice      | a:owner:0123456789abcdef0123,b:viewer:0123456789abcdef0123 | Config key 'auth.tokens' gives token 'b' the same secret as another token; give every token its own secret.",
    })
    void malformedTokenEntriesNameTheEntryButNotTheSecret(String title, String tokens, String message) {
        assertThatThrownBy(() -> fromConfig(Map.of("auth.tokens", tokens)))
                .isInstanceOf(ConfigException.class)
                .hasMessage(message)
                .hasMessageNotContaining("0123456789abcdef");
    }

    @Test
    void tokensCanBeGivenInCode() {
        Authenticator coded = Authenticator.of(List.of(new ApiToken("svc", Role.OPERATOR, OPERATOR_TOKEN)), false);

        assertThat(coded.authorize("Bearer " + OPERATOR_TOKEN, Role.OPERATOR))
                .isEqualTo(new AccessDecision.Allowed(new Principal("svc", Role.OPERATOR)));
    }
}
