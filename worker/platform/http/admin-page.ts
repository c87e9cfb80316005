/**
 * The shell every admin page the Worker serves shares (/admin/analytics, /admin/events, /admin/moderation): head, a header with the
 * title and sign-out, the sign-in form and error line that worker/platform/http/admin-page-sign-in.ts drives, and
 * <main> around the page's own part. Nothing inline: the page policy (worker/platform/http/page-policy.ts) refuses it.
 */
export interface AdminPage {
  /** Where the page is served; its script and stylesheet are served beneath it (`adminPageAssets`). */
  path: string;
  title: string;
  /** Trusted markup between the title and the sign-out button. */
  header?: string;
  /** Same-origin scripts the page's own script needs first, loaded in the head. */
  headScripts?: readonly string[];
  /** Trusted markup of the page's own part of <main>, after the error line and the sign-in form. */
  body: string;
}

/** Where a page's own script and stylesheet are served. */
export function adminPageAssets(path: string) {
  return { script: `${path}/app.js`, stylesheet: `${path}/styles.css` };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or an attribute value as HTML: a title or path can never open a tag or close an attribute. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const scriptTag = (src: string) => `<script src="${escapeHtml(src)}"></script>\n`;

/** The whole HTML of an admin page. */
export function adminPageHtml(page: AdminPage): string {
  const { script, stylesheet } = adminPageAssets(page.path);
  const title = escapeHtml(page.title);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="${escapeHtml(stylesheet)}">
${(page.headScripts ?? []).map(scriptTag).join('')}</head>
<body>
<header><h1>${title}</h1>${page.header ?? ''}<button id="sign-out" hidden>Sign out</button></header>
<main>
  <p id="error" role="alert"></p>
  <form id="sign-in" hidden>
    <h2>Admin sign-in</h2>
    <label>Email <input name="email" type="email" autocomplete="username" required></label>
    <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
    <button type="submit">Sign in</button>
  </form>
${page.body}</main>
${scriptTag(script)}</body>
</html>
`;
}

/** The stylesheet rules of the shell and of the cards the pages lay their parts out in; each page adds its own after. */
export const ADMIN_PAGE_STYLES = `body { font: 15px/1.4 system-ui, sans-serif; margin: 0; background: #f6f7f9; color: #1d2430; }
header { display: flex; align-items: baseline; gap: 1rem; padding: 1rem 1.5rem; background: #1d2430; color: #fff; }
header h1 { font-size: 1.2rem; margin: 0; }
header button { margin-left: auto; }
main { padding: 1rem 1.5rem; }
form#sign-in { display: grid; gap: .5rem; max-width: 20rem; }
section { background: #fff; border-radius: 8px; padding: 1rem; box-shadow: 0 1px 3px #0002; }
#error { color: #b3261e; }
[hidden] { display: none !important; }
`;
