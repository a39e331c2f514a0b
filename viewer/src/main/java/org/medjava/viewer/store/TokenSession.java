package org.medjava.viewer.store;

import com.nimbusds.oauth2.sdk.AccessTokenResponse;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.RefreshTokenGrant;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.http.HTTPRequest;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.token.AccessToken;
import com.nimbusds.oauth2.sdk.token.RefreshToken;
import com.nimbusds.oauth2.sdk.token.Tokens;
import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * A single sign-on's tokens, in memory only (never on disk): the access token goes to the store as
 * {@code Authorization: Bearer}; it is refreshed with the refresh token shortly before it expires, and once after the
 * store refused it (401). When the provider no longer refreshes it, the session has ended: the user signs in again.
 */
public final class TokenSession implements StoreLogin {
    /** Refresh this long before the access token expires: a request must not carry a token expiring on its way. */
    static final Duration EARLY = Duration.ofSeconds(30);
    private static final int TIMEOUT_MS = 10_000;

    private final String user;
    private final URI tokenEndpoint;
    private final ClientID client;
    private final Clock clock;
    private AccessToken access;
    private RefreshToken refresh;
    private Instant expires;

    TokenSession(String user, Tokens tokens, URI tokenEndpoint, ClientID client, Clock clock) {
        this.user = user;
        this.tokenEndpoint = tokenEndpoint;
        this.client = client;
        this.clock = clock;
        keep(tokens);
    }

    @Override
    public String user() {
        return user;
    }

    @Override
    public synchronized String authorization() throws IOException {
        if (access == null) {
            throw ended("you signed out");
        }
        if (expires != null && refresh != null && !clock.instant().isBefore(expires.minus(EARLY))) {
            refresh();
        }
        return access.toAuthorizationHeader();
    }

    @Override
    public synchronized boolean renew() throws IOException {
        if (refresh == null) {
            return false;
        }
        refresh();
        return true;
    }

    @Override
    public synchronized void forget() {
        access = null;
        refresh = null;
    }

    private void refresh() throws IOException {
        HTTPRequest request = new TokenRequest.Builder(tokenEndpoint, client, new RefreshTokenGrant(refresh)).build()
                .toHTTPRequest();
        request.setConnectTimeout(TIMEOUT_MS);
        request.setReadTimeout(TIMEOUT_MS);
        TokenResponse response;
        try {
            response = TokenResponse.parse(request.send());
        } catch (ParseException e) {
            throw ended("the sign-in service's answer could not be read: " + e.getMessage());
        } catch (IOException e) {
            throw new StoreException("the sign-in service cannot be reached to renew your sign-in (" + e.getMessage()
                    + "); check the connection and retry", e);
        }
        if (!response.indicatesSuccess()) {
            forget();
            throw ended(SingleSignOn.describe(response.toErrorResponse()));
        }
        AccessTokenResponse success = response.toSuccessResponse();
        keep(success.getTokens());
    }

    private void keep(Tokens tokens) {
        access = tokens.getAccessToken();
        if (tokens.getRefreshToken() != null) { // the provider may rotate it, or keep the one it gave
            refresh = tokens.getRefreshToken();
        }
        expires = access.getLifetime() > 0 ? clock.instant().plusSeconds(access.getLifetime()) : null;
    }

    private static StoreException ended(String why) {
        return new StoreException(401, "your single sign-on session has ended (" + why + "); sign in again", why);
    }

    @Override
    public String toString() {
        return "TokenSession[" + user + "]";
    }
}
