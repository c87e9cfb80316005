import type { AdminPage } from '../../platform/http/admin-page';
import { ADMIN_PAGE_SIGN_IN, adminPageApi } from '../../platform/http/admin-page-sign-in';

/**
 * The events desk page (GET /admin/events) in the admin page shell (worker/platform/http/admin-page.ts): the admin
 * signs in on it as on the analytics page; the token lives in sessionStorage, never in a URL. Every figure and action
 * goes through the admin routes under /api/admin (docs/event-desk.md); the page loads nothing but its script and stylesheet.
 */
export const DESK_PAGE: AdminPage = {
  path: '/admin/events',
  title: 'Events desk',
  body: `  <div id="desk" hidden>
    <section><h2>Review queue</h2><p class="note">Pending events, oldest first. Approving publishes the event and notifies matching subscribers.</p>
      <table><thead><tr><th>Event</th><th>When</th><th>Where</th><th>Looks like</th><th></th></tr></thead><tbody id="queue"></tbody></table></section>
    <section><h2>Possible duplicates</h2><p class="note">Merge moves listings, saves and relationships to the survivor; the old link keeps working.</p>
      <table><thead><tr><th>Event</th><th>Candidates</th><th></th></tr></thead><tbody id="duplicates"></tbody></table></section>
    <section><h2>Stale events</h2><p class="note">Published events past their staleAfter: <span id="stale-count">0</span>.</p>
      <table><thead><tr><th>Event</th><th>When</th><th>Stale since</th><th></th></tr></thead><tbody id="stale"></tbody></table></section>
    <section><h2>Sources</h2>
      <table><thead><tr><th>Source</th><th>Last success</th><th>Last failure</th><th>Failures in a row</th><th>Last run</th></tr></thead><tbody id="sources"></tbody></table></section>
  </div>
`,
};

/** The desk page's own stylesheet rules, after the shell's (GET /admin/events/styles.css). */
export const DESK_STYLES = `main { display: grid; gap: 1rem; }
section h2 { font-size: 1rem; margin: 0 0 .5rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid #e3e6eb; vertical-align: top; }
.note { color: #5b6475; font-size: .85rem; }
.empty { color: #5b6475; }
`;

/** The desk page's script (GET /admin/events/app.js): sign-in, the lists and their actions. */
export const DESK_SCRIPT = `(() => {
  const KEY = 'rider-events-desk-token';
  const $ = (id) => document.getElementById(id);
  const when = (iso) => (iso ? iso.slice(0, 16).replace('T', ' ') + ' UTC' : '—');
  const place = (e) => (e.venue ? [e.venue.city, e.venue.country].filter(Boolean).join(', ') : '') || (e.venue === null ? 'online' : '—');

  function show(signedIn) {
    $('sign-in').hidden = signedIn;
    $('desk').hidden = !signedIn;
    $('sign-out').hidden = !signedIn;
  }

${adminPageApi('The desk')}
  function cell(row, text) {
    const td = document.createElement('td');
    td.textContent = text;
    row.appendChild(td);
    return td;
  }

  function button(td, label, action, onClick) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.dataset.action = action;
    b.addEventListener('click', () => act(onClick));
    td.appendChild(b);
  }

  function titleCell(row, e) {
    const td = cell(row, e.title || '(untitled)');
    td.title = e._id;
    return td;
  }

  function fill(tbodyId, rows, columns, draw) {
    const tbody = $(tbodyId);
    tbody.replaceChildren();
    if (!rows.length) {
      const tr = document.createElement('tr');
      const td = cell(tr, 'Nothing here.');
      td.colSpan = columns;
      td.className = 'empty';
      tbody.appendChild(tr);
      return;
    }
    for (const item of rows) {
      const tr = document.createElement('tr');
      draw(tr, item);
      tbody.appendChild(tr);
    }
  }

  async function load() {
    document.body.dataset.state = 'loading';
    const [queue, dups, stale, sources] = await Promise.all([
      api('GET', '/events?approvalStatus=pending&limit=100'),
      api('GET', '/events/duplicates?limit=100'),
      api('GET', '/events/stale?limit=100'),
      api('GET', '/event-sources'),
    ]);
    show(true);
    fill('queue', queue.items, 5, (tr, e) => {
      tr.dataset.id = e._id;
      titleCell(tr, e);
      cell(tr, when(e.startAt) + (e.timezone ? ' (' + e.timezone + ')' : ''));
      cell(tr, place(e));
      cell(tr, e.possibleDuplicateOf.length ? e.possibleDuplicateOf.length + ' stored event(s)' : '—');
      const td = cell(tr, '');
      button(td, 'Approve', 'approve', () => api('POST', '/events/' + e._id + '/review', { decision: 'approve' }));
      button(td, 'Reject', 'reject', () => {
        const reason = prompt('Reason for rejecting (optional)') || undefined;
        return api('POST', '/events/' + e._id + '/review', { decision: 'reject', reason });
      });
    });
    fill('duplicates', dups.items, 3, (tr, item) => {
      tr.dataset.id = item.event._id;
      titleCell(tr, item.event);
      const list = cell(tr, '');
      for (const c of item.candidates) {
        const line = document.createElement('div');
        line.dataset.candidate = c._id;
        line.textContent = (c.title || '(untitled)') + ' · ' + when(c.startAt) + ' · ' + place(c) + ' ';
        button(line, 'Merge into this', 'merge', () => api('POST', '/events/' + item.event._id + '/merge', { intoId: c._id }));
        list.appendChild(line);
      }
      const td = cell(tr, '');
      button(td, 'Not a duplicate', 'not-duplicate', () => api('DELETE', '/events/' + item.event._id + '/possible-duplicates'));
    });
    $('stale-count').textContent = String(stale.totalCount);
    fill('stale', stale.items, 4, (tr, e) => {
      tr.dataset.id = e._id;
      titleCell(tr, e);
      cell(tr, when(e.startAt));
      cell(tr, when(e.freshness.staleAfter));
      const td = cell(tr, '');
      button(td, 'Still right', 'verify', () => api('POST', '/events/' + e._id + '/verify'));
      button(td, 'Unpublish', 'unpublish', () => api('POST', '/events/' + e._id + '/review', { decision: 'reject', reason: 'stale' }));
    });
    fill('sources', sources.sources, 5, (tr, s) => {
      tr.dataset.id = s.name;
      cell(tr, s.name + (s.configured ? '' : ' (not configured)'));
      cell(tr, when(s.lastSuccessAt));
      cell(tr, when(s.lastFailureAt) + (s.lastError ? ': ' + s.lastError : ''));
      cell(tr, String(s.consecutiveFailures));
      cell(tr, s.lastCounts ? Object.entries(s.lastCounts).map(([k, v]) => k + ' ' + v).join(', ') : '—');
    });
    loaded();
  }

${ADMIN_PAGE_SIGN_IN}})();
`;
