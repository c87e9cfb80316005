import type { AdminPage } from '../../platform/http/admin-page';
import { ADMIN_PAGE_DRAW, ADMIN_PAGE_SIGN_IN, adminPageGet } from '../../platform/http/admin-page-sign-in';

/** Where the dashboard page loads its chart library from (served beside it: worker/platform/http/chart-library.ts). */
export const CHART_LIBRARY_PATH = '/admin/analytics/chart.umd.min.js';

/**
 * The dashboard page (GET /admin/analytics) in the admin page shell (worker/platform/http/admin-page.ts): the admin
 * signs in on it and the token lives in sessionStorage, never in a URL. Charts use Chart.js served by the Worker.
 */
export const DASHBOARD_PAGE: AdminPage = {
  path: '/admin/analytics',
  title: 'Rider analytics',
  header: '<span id="as-of"></span>',
  headScripts: [CHART_LIBRARY_PATH],
  body: `  <div id="dashboard" class="grid" hidden>
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
`,
};

/** The dashboard page's own stylesheet rules, after the shell's (GET /admin/analytics/styles.css). */
export const DASHBOARD_STYLES = `.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(26rem, 1fr)); gap: 1rem; }
section h2 { font-size: 1rem; margin: 0 0 .25rem; }
.note { color: #5b6475; font-size: .85rem; margin: 0 0 .5rem; }
.figure { font-size: 2rem; font-weight: 600; }
#quality.meets { color: #1a7a3f; }
#quality.misses { color: #b3261e; }
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

${adminPageGet('The dashboard')}
${ADMIN_PAGE_DRAW}
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

${ADMIN_PAGE_SIGN_IN}})();
`;
