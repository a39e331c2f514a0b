package org.medjava.store.server.rest;

/**
 * Names the resources' OpenAPI annotations share, so each annotation stays one short line: tags, the security
 * schemes, and the reusable responses and schemas of {@code META-INF/openapi.yaml} (where their descriptions and
 * examples live, once).
 */
final class ApiDocs {

    // tags (described in META-INF/openapi.yaml)
    static final String IMAGES = "images";
    static final String INDEX = "index";
    static final String DICOMWEB = "DICOMweb";
    static final String JOBS = "jobs";
    static final String TRASH = "trash";
    static final String FILTERS = "filters";
    static final String ADMIN = "admin";
    static final String SESSIONS = "sessions";
    static final String PACS = "PACS";
    static final String APPLICATIONS = "applications";

    // security schemes: any one of them authenticates a request
    static final String BASIC = "basic";
    static final String BEARER = "bearer";
    static final String SESSION = "session";

    // shared responses (components/responses)
    static final String BAD_REQUEST = "BadRequest";
    static final String UNAUTHORIZED = "Unauthorized";
    static final String FORBIDDEN = "Forbidden";
    static final String NOT_FOUND = "NotFound";
    static final String NOT_ACCEPTABLE = "NotAcceptable";
    static final String CONFLICT = "Conflict";
    static final String PRECONDITION_FAILED = "PreconditionFailed";
    static final String TOO_LARGE = "TooLarge";
    static final String TOO_LARGE_TO_DECODE = "TooLargeToDecode";
    static final String INSUFFICIENT_STORAGE = "InsufficientStorage";
    static final String UNSUPPORTED_MEDIA_TYPE = "UnsupportedMediaType";
    static final String RANGE_NOT_SATISFIABLE = "RangeNotSatisfiable";
    static final String UNPROCESSABLE = "Unprocessable";
    static final String BAD_GATEWAY = "BadGateway";
    static final String UNAVAILABLE = "Unavailable";
    static final String NOT_MODIFIED = "NotModified";

    // media types the annotations name
    static final String JSON = "application/json";
    static final String DICOM_JSON = "application/dicom+json";
    static final String DICOM = "application/dicom";
    static final String MULTIPART = "multipart/related";
    static final String PNG = "image/png";
    static final String JPEG = "image/jpeg";
    static final String GIF = "image/gif";
    static final String HTML = "text/html";

    /** PS3.18 query parameters every QIDO-RS search takes besides its matching keys. */
    static final String QIDO_KEYS = "Matching keys are DICOM keywords or tags (PatientID=1CT1, 00100020=1CT1, "
            + "StudyDate=20040101-20041231, PatientName=Compressed*), with includefield (keywords or tags, "
            + "comma-separated or repeated, or all), limit, offset, fuzzymatching=true and orderby (keywords, "
            + "- for descending). A key the store cannot match on is a 400 that lists those it can.";

    /** The rendering parameters of {@code GET /images/{path}?render=} and the DICOMweb rendered resources. */
    static final String RENDER_RULES = "Rendering: filter=id[:name=value,...] (repeat for a chain, applied in order; "
            + "see GET /filters for ids and parameter rules), window=center,width (DICOM VOI; the image's own when "
            + "absent), region=x,y,w,h (where filters apply; clipped to the image), frame=n (from 0), "
            + "impl=straightforward|optimized|parallel (same pixels, different speed), timeout=seconds (the most the "
            + "filters may take, capped by medjava.filters.deadline-seconds: past it 503; every filter slot busy: "
            + "503 with Retry-After). Server-Timing says where the time went; the ETag covers the file and the query.";

    private ApiDocs() {
    }
}
