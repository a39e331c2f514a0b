package org.medjava.store.server.rest;

import jakarta.annotation.security.DeclareRoles;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.info.Info;

/** The store's REST resources, at the root of the application. */
@ApplicationPath("/")
@DeclareRoles({"reader", "uploader", "admin"})
@OpenAPIDefinition(info = @Info(title = "MedJava image store", version = "0.1",
        description = "Hierarchical medical image repository (DICOM, GIF, PNG, JPEG) with server-side filtering "
                + "and the filter plugin repository."))
public class StoreApplication extends Application {

    /** No WADL: an OPTIONS request gets the allowed methods, not a description of every resource. */
    @Override
    public java.util.Map<String, Object> getProperties() {
        return java.util.Map.of("jersey.config.server.wadl.disableWadl", true);
    }
}
