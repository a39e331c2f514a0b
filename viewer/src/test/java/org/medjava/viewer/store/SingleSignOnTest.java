package org.medjava.viewer.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.Issuer;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallenge;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.oauth2.sdk.util.URLUtils;
import com.nimbusds.openid.connect.sdk.Nonce;
import com.nimbusds.openid.connect.sdk.SubjectType;
import com.nimbusds.openid.connect.sdk.op.OIDCProviderMetadata;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SingleSignOnTest {

    @Test
    void theBrowserIsSentToTheProviderWithPkceS256StateAndNonce() {
        OIDCProviderMetadata provider = new OIDCProviderMetadata(new Issuer("https://sso.example.org/realms/h"),
                List.of(SubjectType.PUBLIC), URI.create("https://sso.example.org/realms/h/certs"));
        provider.setAuthorizationEndpointURI(URI.create("https://sso.example.org/realms/h/auth"));
        State state = new State();
        Nonce nonce = new Nonce();
        CodeVerifier verifier = new CodeVerifier();
        URI redirect = URI.create("http://127.0.0.1:54321/callback");

        URI page = SingleSignOn.authorization(provider, new ClientID("medjava-viewer"), redirect, state, nonce,
                verifier).toURI();

        assertThat(page.toString()).startsWith("https://sso.example.org/realms/h/auth?");
        Map<String, List<String>> query = URLUtils.parseParameters(page.getRawQuery());
        assertThat(query.get("response_type")).containsExactly("code");
        assertThat(query.get("client_id")).containsExactly("medjava-viewer");
        assertThat(query.get("redirect_uri")).containsExactly(redirect.toString());
        assertThat(query.get("scope").get(0).split(" ")).contains("openid");
        assertThat(query.get("state")).containsExactly(state.getValue());
        assertThat(query.get("nonce")).containsExactly(nonce.getValue());
        assertThat(query.get("code_challenge_method")).containsExactly("S256");
        assertThat(query.get("code_challenge")).containsExactly(CodeChallenge.compute(CodeChallengeMethod.S256,
                verifier).getValue());
        assertThat(page.toString()).doesNotContain(verifier.getValue()); // the verifier goes to the token endpoint only
    }
}
