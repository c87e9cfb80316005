/**
 * A self-contained reference page over /api/openapi.json: no CDN, so it renders the same
 * on a laptop with no network as in production. Its stylesheet and script are served beside it
 * (the page policy allows nothing inline: worker/platform/http/page-policy.ts).
 */
export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Rider service API</title>
<link rel="stylesheet" href="/api/docs/styles.css">
</head>
<body>
<h1>Rider service API</h1>
<p class="muted">Generated from <a href="/api/openapi.json">/api/openapi.json</a>.</p>
<div id="root">Loading…</div>
<script src="/api/docs/app.js"></script>
</body>
</html>`;

/** The reference page's stylesheet (GET /api/docs/styles.css). */
export const DOCS_STYLES = `body { font: 15px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 960px; padding: 1.5rem; color: #1d2329; }
h1 { margin-bottom: 0; } .muted { color: #667; }
details { border: 1px solid #d8dde3; border-radius: 6px; margin: .4rem 0; }
summary { cursor: pointer; padding: .45rem .7rem; }
.m { display: inline-block; min-width: 4.2rem; font-weight: 700; font-family: ui-monospace, monospace; }
.get { color: #0b7a3e; } .post { color: #1c5fd1; } .put, .patch { color: #9a5b00; } .delete { color: #b3261e; }
code, pre { font-family: ui-monospace, monospace; font-size: 13px; }
pre { background: #f5f7f9; padding: .6rem; overflow-x: auto; margin: .3rem .7rem .7rem; }
h2 { margin-top: 2rem; text-transform: capitalize; }
`;

/** The reference page's script (GET /api/docs/app.js): renders /api/openapi.json. */
export const DOCS_SCRIPT = `fetch('/api/openapi.json').then(r => r.json()).then(doc => {
  const root = document.getElementById('root');
  root.textContent = '';
  // Which header carries the token, per security scheme: the checks read different ones.
  const schemes = (doc.components && doc.components.securitySchemes) || {};
  const headerOf = (name) => {
    const scheme = schemes[name] || {};
    return scheme.type === 'http' ? 'Authorization: Bearer <token>' : scheme.name + ': <token>';
  };
  const intro = document.createElement('ul');
  for (const [name, scheme] of Object.entries(schemes)) {
    const li = document.createElement('li');
    li.textContent = headerOf(name) + ' — ' + (scheme.description || name);
    intro.appendChild(li);
  }
  root.appendChild(intro);
  const byTag = {};
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const tag = (op.tags && op.tags[0]) || 'other';
      (byTag[tag] ||= []).push({ path, method, op });
    }
  }
  for (const tag of Object.keys(byTag).sort()) {
    const h = document.createElement('h2'); h.textContent = tag; root.appendChild(h);
    for (const { path, method, op } of byTag[tag]) {
      const d = document.createElement('details');
      const s = document.createElement('summary');
      s.innerHTML = '<span class="m ' + method + '">' + method.toUpperCase() + '</span> <code></code> <span class="muted"></span>';
      s.querySelector('code').textContent = path;
      const headers = (op.security || []).flatMap((entry) => Object.keys(entry)).map(headerOf);
      s.querySelector('.muted').textContent = (op.summary || '') + (headers.length ? '  [' + headers.join(', ') + ']' : '');
      d.appendChild(s);
      const pre = document.createElement('pre');
      pre.textContent = JSON.stringify({ security: op.security, parameters: op.parameters, requestBody: op.requestBody, responses: op.responses }, null, 2);
      d.appendChild(pre);
      root.appendChild(d);
    }
  }
}).catch(err => { document.getElementById('root').textContent = 'Could not load the API description: ' + err; });
`;
