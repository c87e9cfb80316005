import { ADMIN_PAGE_SIGN_IN } from '../../platform/http/admin-page-sign-in';
/**
 * The dashboard page (GET /admin/analytics). The admin signs in on it; the token lives in sessionStorage,
 * never in a URL. Charts use Chart.js served by the Worker (worker/growth/dashboard/chart-library.ts),
 * as are the page's script and stylesheet below (the page policy allows nothing inline: worker/platform/http/page-policy.ts).
 */
export const DASHBOARD_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Rider analytics</title>
<link rel="stylesheet" href="/admin/analytics/styles.css">
<script src="/admin/analytics/chart.umd.min.js"></script>
</head>
<body>
<header><h1>Rider analytics</h1><span id="as-of"></span><button id="sign-out" hidden>Sign out</button></header>
<main>
  <p id="error" role="alert"></p>
  <form id="sign-in" hidden>
    <h2>Admin sign-in</h2>
    <label>Email <input name="email" type="email" autocomplete="username" required></label>
    <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
    <button type="submit">Sign in</button>
  </form>
  <div id="dashboard" class="grid" hidden>
    <section><h2>Weekly progressing riders</h2>
      <p class="note">Distinct riders with a meaningful action per rolling seven days. Excluded accounts in the newest window: <span id="excluded"></span></p>
      <canvas id="wpr-chart"></canvas></section>
    <section><h2>Depth</h2><p class="note">Meaningful actions per progressing rider</p><canvas id="depth-chart"></canvas></section>
    <section><h2>Value domains</h2><p class="note">Riders with an action of each domain</p><canvas id="domains-chart"></canvas></section>
    <section><h2>Retention by signup week</h2><p class="note">Share of each cohort active in W1..W4 (elapsed windows only)</p>
      <canvas id="retention-chart"></canvas></section>
    <section><h2>Data quality</h2><p class="note">Authenticated mobile events carrying version, build, session and identity</p>
      <p class="figure" id="quality"></p></section>
  </div>
</main>
<script src="/admin/analytics/app.js"></script>
</body>
</html>
`;

/** The dashboard page's stylesheet (GET /admin/analytics/styles.css). */
export const DASHBOARD_STYLES = `body { font: 15px/1.4 system-ui, sans-serif; margin: 0; background: #f6f7f9; color: #1d2430; }
header { display: flex; align-items: baseline; gap: 1rem; padding: 1rem 1.5rem; background: #1d2430; color: #fff; }
header h1 { font-size: 1.2rem; margin: 0; }
header button { margin-left: auto; }
main { padding: 1rem 1.5rem; }
form { display: grid; gap: .5rem; max-width: 20rem; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(26rem, 1fr)); gap: 1rem; }
section { background: #fff; border-radius: 8px; padding: 1rem; box-shadow: 0 1px 3px #0002; }
section h2 { font-size: 1rem; margin: 0 0 .25rem; }
.note { color: #5b6475; font-size: .85rem; margin: 0 0 .5rem; }
.figure { font-size: 2rem; font-weight: 600; }
#error { color: #b3261e; }
#quality.meets { color: #1a7a3f; }
#quality.misses { color: #b3261e; }
[hidden] { display: none !important; }
`;

/** The dashboard page's script (GET /admin/analytics/app.js): sign-in and the charts. */
export const DASHBOARD_SCRIPT = `(() => {
  const KEY = 'rider-analytics-token';
  const $ = (id) => document.getElementById(id);
  const COLORS = { progression: '#2f6fde', discovery: '#1a9e6b', coaching: '#c27c0e', community: '#b83a8a' };
  const day = (iso) => iso.slice(5, 10);
  const label = (w) => day(w.from) + '…' + day(new Date(Date.parse(w.to) - 1).toISOString());
  const pct = (x) => (x * 100).toFixed(1) + '%';

  function show(signedIn) {
    $('sign-in').hidden = signedIn;
    $('dashboard').hidden = !signedIn;
    $('sign-out').hidden = !signedIn;
  }

  async function get(path) {
    const res = await fetch(path, { headers: { 'x-auth-token': sessionStorage.getItem(KEY) || '' } });
    if (res.status === 401 || res.status === 403 || res.status === 400) {
      sessionStorage.removeItem(KEY);
      show(false);
      throw new Error((await res.text()) || 'Not allowed');
    }
    if (!res.ok) throw new Error('The dashboard answered ' + res.status);
    return res.json();
  }

  function draw(id, config) {
    const canvas = $(id);
    Chart.getChart(canvas)?.destroy();
    return new Chart(canvas, { ...config, options: { animation: false, maintainAspectRatio: true, ...config.options } });
  }

  async function load() {
    const [wpr, retention, quality] = await Promise.all([
      get('/api/analytics/dashboard/wpr'),
      get('/api/analytics/dashboard/retention'),
      get('/api/analytics/dashboard/quality'),
    ]);
    show(true);
    $('as-of').textContent = 'as of ' + wpr.asOf.slice(0, 16).replace('T', ' ') + ' UTC';
    const labels = wpr.windows.map(label);
    $('excluded').textContent = String(wpr.windows[wpr.windows.length - 1].excluded);
    draw('wpr-chart', { type: 'bar', data: { labels, datasets: [{ label: 'Riders', data: wpr.windows.map((w) => w.riders), backgroundColor: '#2f6fde' }] },
      options: { plugins: { legend: { display: false } }, scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } } });
    draw('depth-chart', { type: 'line', data: { labels, datasets: [{ label: 'Actions per rider', data: wpr.windows.map((w) => w.depth), borderColor: '#1d2430' }] },
      options: { plugins: { legend: { display: false } }, scales: { y: { beginAtZero: true } } } });
    draw('domains-chart', { type: 'bar', data: { labels, datasets: Object.keys(COLORS).map((d) => ({ label: d, data: wpr.windows.map((w) => w.domains[d].riders), backgroundColor: COLORS[d] })) },
      options: { scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } } });
    const windows = ['w1', 'w2', 'w3', 'w4'];
    draw('retention-chart', { type: 'bar',
      data: { labels: retention.cohorts.map((c) => day(c.from) + ' (' + c.riders + ')'),
        datasets: windows.map((w, i) => ({ label: w.toUpperCase(), data: retention.cohorts.map((c) => (c[w] ? c[w].share * 100 : null)), backgroundColor: ['#2f6fde', '#5a8fe6', '#8db0ee', '#c0d3f6'][i] })) },
      options: { scales: { y: { beginAtZero: true, max: 100, ticks: { callback: (v) => v + '%' } } } } });
    $('quality').textContent = quality.share === null ? 'no events' : pct(quality.share) + ' of ' + quality.events + ' (target ' + pct(quality.target) + ')';
    $('quality').className = 'figure ' + (quality.meetsTarget === false ? 'misses' : 'meets');
    document.body.dataset.state = 'drawn';
  }

  function run() {
    $('error').textContent = '';
    load().catch((error) => { $('error').textContent = error.message; });
  }

${ADMIN_PAGE_SIGN_IN}})();
`;
