package org.medjava.store.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.security.enterprise.credential.Credential;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.IdentityStore;
import java.util.Optional;

/** Jakarta Security identity store over the store's {@link UserStore}: role names become the caller's groups. */
@ApplicationScoped
public class StoreIdentityStore implements IdentityStore {

    @Inject
    UserStore users;

    @Override
    public CredentialValidationResult validate(Credential credential) {
        if (!(credential instanceof UsernamePasswordCredential login)) {
            return CredentialValidationResult.NOT_VALIDATED_RESULT;
        }
        Optional<Role> role = users.authenticate(login.getCaller(), login.getPassword().getValue());
        return role.map(r -> new CredentialValidationResult(login.getCaller(), r.groups()))
                .orElse(CredentialValidationResult.INVALID_RESULT);
    }
}
