/**
 * The sign-in part of the admin pages' scripts (/admin/analytics, /admin/events): the shell's form
 * (worker/platform/http/admin-page.ts) posts to POST /api/auth, the token is kept in sessionStorage under the
 * page's KEY, sign-out, and `run()`, which loads the page and shows what failed. Each page's script defines `$`, `KEY`,
 * `show(signedIn)` and `load()` before this runs.
 */
export const ADMIN_PAGE_SIGN_IN = `  function run() {
    $('error').textContent = '';
    load().catch((error) => { $('error').textContent = error.message; });
  }

  $('sign-in').addEventListener('submit', async (event) => {
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

/**
 * The signed-in read of the analytics and ops pages' scripts: `get(path)` sends the kept token, and on a refusal of it
 * forgets it and shows the sign-in again; any other failure names `what` answered. Needs `$`, `KEY` and `show`.
 */
export const adminPageGet = (what: string) => `  async function get(path) {
    const res = await fetch(path, { headers: { 'x-auth-token': sessionStorage.getItem(KEY) || '' } });
    if (res.status === 401 || res.status === 403 || res.status === 400) {
      sessionStorage.removeItem(KEY);
      show(false);
      throw new Error((await res.text()) || 'Not allowed');
    }
    if (!res.ok) throw new Error('${what} answered ' + res.status);
    return res.json();
  }
`;

/**
 * The read-and-write calls of the desk pages' scripts (/admin/events, /admin/moderation): `api(method, path, body)` on
 * /api/admin with the kept token and a JSON body; a refused token is forgotten and the sign-in shown again (a 400 on a
 * read is the token's; on a write it is the body's), any other failure throws the answer's `error`, else names `what`
 * answered; `loaded()` marks a load done and `act(step)` runs an action, loads the page again and shows what failed.
 * Needs `$`, `KEY`, `show` and `load`.
 */
export const adminPageApi = (what: string) => `  async function api(method, path, body) {
    const headers = { 'x-auth-token': sessionStorage.getItem(KEY) || '' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch('/api/admin' + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (res.status === 401 || res.status === 403 || (res.status === 400 && method === 'GET')) {
      sessionStorage.removeItem(KEY);
      show(false);
      throw new Error((await res.text()) || 'Not allowed');
    }
    if (!res.ok) {
      const text = await res.text();
      let message = text;
      try { message = JSON.parse(text).error; } catch {}
      throw new Error(message || '${what} answered ' + res.status);
    }
    return res.json();
  }

  // The page counts its loads (data-loads), a failed action's included, so a test can wait for the one after a click.
  function counted() {
    document.body.dataset.loads = String(Number(document.body.dataset.loads || 0) + 1);
  }

  function loaded() {
    document.body.dataset.state = 'loaded';
    counted();
  }

  async function act(step) {
    $('error').textContent = '';
    try { await step(); await load(); } catch (error) {
      $('error').textContent = error.message;
      counted();
    }
  }
`;

/** `draw(id, config)`: a Chart.js chart on the canvas `id`, replacing the one drawn there before, without animation. */
export const ADMIN_PAGE_DRAW = `  function draw(id, config) {
    const canvas = $(id);
    Chart.getChart(canvas)?.destroy();
    return new Chart(canvas, { ...config, options: { animation: false, maintainAspectRatio: true, ...config.options } });
  }
`;
