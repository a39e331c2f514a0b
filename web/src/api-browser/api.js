// The API browser: Swagger UI (swagger-ui-dist, pinned in package.json) on the store's own OpenAPI document.
// Everything comes from this origin: no validator badge (it would send the document to an outside service), no
// bar to load other URLs. "Try it out" sends the session cookie of a login on /viewer/ (same origin), or the
// Basic or Bearer credentials given under "Authorize".
/* global SwaggerUIBundle */
const here = window.location.href;

/**
 * A stored file's path is one parameter holding slashes (/images/{path}); Swagger UI encodes them as %2F, which the
 * store (like most servers) does not take inside a path: send them as the separators they are.
 */
function imagePathsAsSeparators(request) {
  const url = new URL(request.url, here);
  if (url.origin === window.location.origin && /\/images\//.test(url.pathname)) {
    url.pathname = url.pathname.replace(/%2F/gi, '/');
    request.url = url.href;
  }
  return request;
}

window.ui = SwaggerUIBundle({
  url: new URL('../openapi?format=json', here).href,
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  requestInterceptor: imagePathsAsSeparators,
});
