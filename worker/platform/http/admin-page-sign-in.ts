/**
 * The sign-in part of the admin pages' scripts (/admin/analytics, /admin/events): the shell's form
 * (worker/platform/http/admin-page.ts) posts to POST /api/auth, the token is kept in sessionStorage under the
 * page's KEY, sign-out. Each page's script defines `$`, `KEY`, `show(signedIn)` and `run()` before this runs.
 */
export const ADMIN_PAGE_SIGN_IN = `  $('sign-in').addEventListener('submit', async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const res = await fetch('/api/auth', { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: form.get('email'), password: form.get('password') }) });
    if (!res.ok) { $('error').textContent = 'Sign-in failed (' + res.status + ')'; return; }
    sessionStorage.setItem(KEY, (await res.json()).token);
    run();
  });
  $('sign-out').addEventListener('click', () => { sessionStorage.removeItem(KEY); show(false); });

  if (sessionStorage.getItem(KEY)) run(); else show(false);
`;
