import type { AdminPage } from '../http/admin-page';
import { ADMIN_PAGE_DRAW, ADMIN_PAGE_SIGN_IN, adminPageGet } from '../http/admin-page-sign-in';

/** Where the ops page loads its chart library from (served beside it: worker/platform/http/chart-library.ts). */
export const OPS_CHART_LIBRARY_PATH = '/admin/ops/chart.umd.min.js';

/**
 * The operations page (GET /admin/ops) in the admin page shell (worker/platform/http/admin-page.ts): per route for the
 * last hour, requests, p50/p95 latency and error shares, from GET /api/admin/ops/requests; in production it says
 * where the figures are instead (docs/operations.md).
 */
export const OPS_PAGE: AdminPage = {
  path: '/admin/ops',
  title: 'Rider operations',
  header: '<span id="window"></span>',
  headScripts: [OPS_CHART_LIBRARY_PATH],
  body: `  <div id="ops" hidden>
    <p id="source" class="note"></p>
    <div id="figures" class="grid">
      <section><h2>p95 latency per route (ms)</h2><canvas id="p95-chart"></canvas></section>
      <section><h2>Requests per minute</h2><canvas id="minute-chart"></canvas></section>
    </div>
    <section><h2>Routes, last hour</h2>
      <table id="routes"><thead><tr><th>Route</th><th>Requests</th><th>p50 ms</th><th>p95 ms</th><th>5xx</th><th>4xx</th></tr></thead>
      <tbody></tbody></table></section>
  </div>
`,
};

/** The ops page's own stylesheet rules, after the shell's (GET /admin/ops/styles.css). */
export const OPS_STYLES = `.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(26rem, 1fr)); gap: 1rem; margin-bottom: 1rem; }
section h2 { font-size: 1rem; margin: 0 0 .5rem; }
.note { color: #5b6475; font-size: .9rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .25rem .5rem; border-bottom: 1px solid #e3e6eb; }
td.number, th:not(:first-child) { text-align: right; }
tr.errors td { color: #b3261e; }
`;

/** The ops page's script (GET /admin/ops/app.js): sign-in, the table and the charts. */
export const OPS_SCRIPT = `(() => {
  const KEY = 'rider-ops-token';
  const $ = (id) => document.getElementById(id);
  const pct = (x) => (x * 100).toFixed(1) + '%';

  function show(signedIn) {
    $('sign-in').hidden = signedIn;
    $('ops').hidden = !signedIn;
    $('sign-out').hidden = !signedIn;
  }

${adminPageGet('The figures')}
${ADMIN_PAGE_DRAW}
  function cell(text, number) {
    const td = document.createElement('td');
    td.textContent = text;
    if (number) td.className = 'number';
    return td;
  }

  async function load() {
    const figures = await get('/api/admin/ops/requests');
    show(true);
    $('window').textContent = figures.from.slice(11, 16) + '–' + figures.to.slice(11, 16) + ' UTC';
    $('source').textContent = figures.note;
    $('figures').hidden = figures.source !== 'local-stand-in';
    const body = $('routes').querySelector('tbody');
    body.replaceChildren(...figures.routes.map((r) => {
      const row = document.createElement('tr');
      row.dataset.route = r.method + ' ' + r.route;
      if (r.serverErrorShare > 0) row.className = 'errors';
      row.append(cell(r.method + ' ' + r.route), cell(String(r.requests), true), cell(String(r.p50Ms), true),
        cell(String(r.p95Ms), true), cell(pct(r.serverErrorShare), true), cell(pct(r.clientErrorShare), true));
      return row;
    }));
    if (figures.source === 'local-stand-in') {
      draw('p95-chart', { type: 'bar', data: { labels: figures.routes.map((r) => r.method + ' ' + r.route),
        datasets: [{ label: 'p95 ms', data: figures.routes.map((r) => r.p95Ms), backgroundColor: '#2f6fde' },
          { label: 'p50 ms', data: figures.routes.map((r) => r.p50Ms), backgroundColor: '#8db0ee' }] },
        options: { indexAxis: 'y', scales: { x: { beginAtZero: true } } } });
      draw('minute-chart', { type: 'line', data: { labels: figures.perMinute.map((m) => m.minute.slice(11, 16)),
        datasets: [{ label: 'Requests', data: figures.perMinute.map((m) => m.requests), borderColor: '#1d2430' },
          { label: '5xx', data: figures.perMinute.map((m) => m.serverErrors), borderColor: '#b3261e' }] },
        options: { scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } } });
    }
    document.body.dataset.state = 'drawn';
  }

${ADMIN_PAGE_SIGN_IN}})();
`;
