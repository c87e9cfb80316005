/**
 * The API reference page: Swagger UI (swagger-ui-dist, bundled into the Worker by renderer-source.js) over
 * /api/openapi.json. No CDN, so it renders the same on a laptop with no network as in production; its scripts
 * and stylesheets are served beside it (the page policy allows nothing inline: worker/platform/http/page-policy.ts).
 */
export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Rider service API</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
<link rel="stylesheet" href="/api/docs/styles.css">
</head>
<body>
<header class="docs-intro">
<p>Generated from <a href="/api/openapi.json">/api/openapi.json</a>. The filter finds operations by tag or path;
<strong>Try it out</strong> sends the request to this server. <strong>Authorize</strong> takes a value for each of
three schemes: a session token in <code>x-auth-token</code> (auth and admin routes) or in
<code>Authorization: Bearer</code> (account-or-admin routes), and the payment provider's signature in
<code>x-signature</code> (its webhook only); each operation's lock names the one it reads.</p>
</header>
<div id="swagger-ui">Loading…</div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/app.js"></script>
</body>
</html>`;

/** The page's own stylesheet (GET /api/docs/styles.css), beside Swagger UI's. */
export const DOCS_STYLES = `.docs-intro { font: 14px/1.5 system-ui, sans-serif; color: #3b4151; max-width: 1460px; margin: 1rem auto 0; padding: 0 20px; box-sizing: border-box; }
.docs-intro code { font-family: ui-monospace, monospace; font-size: 13px; }
`;

/**
 * The page's script (GET /api/docs/app.js): starts Swagger UI on /api/openapi.json. The validator badge is off,
 * since it loads an image from another origin; try-it requests go to the document's server, this origin ('/').
 * Tokens pasted into Authorize stay in the page's memory (no persistAuthorization): they do not expire.
 */
export const DOCS_SCRIPT = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  filter: true,
  deepLinking: true,
  validatorUrl: null,
});
`;
