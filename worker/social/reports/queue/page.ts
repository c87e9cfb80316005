import type { AdminPage } from '../../../platform/http/admin-page';
import { ADMIN_PAGE_SIGN_IN, adminPageApi } from '../../../platform/http/admin-page-sign-in';

/**
 * The moderation queue page (GET /admin/moderation) in the admin page shell (worker/platform/http/admin-page.ts), as
 * the events desk: the admin signs in on it, the token lives in sessionStorage, never in a URL. Every figure and action
 * goes through the admin routes under /api/admin (docs/moderation.md); the page loads nothing but its script and stylesheet.
 */
export const QUEUE_PAGE: AdminPage = {
  path: '/admin/moderation',
  title: 'Moderation queue',
  body: `  <div id="queue-desk" hidden>
    <section id="figures"><h2>Answered in time</h2>
      <p>Open items: <strong id="open-items">0</strong> · waiting over 20 hours: <strong id="aged-items">0</strong> · oldest open item: <strong id="oldest-age">none</strong></p>
      <p>Decided within 24 hours over the last 7 days: <strong id="answered-share">—</strong> <span class="note" id="answered-counts"></span></p></section>
    <section><h2>Reports</h2><p class="note">One item per reported post, comment or rider, most distinct riders first, then oldest. A decision answers every open report of the item and goes to the action log with its reason; the author of removed content is told why.</p>
      <table><thead><tr><th>Target</th><th>Reports</th><th>Author and history</th><th>Decision</th></tr></thead><tbody id="items"></tbody></table></section>
  </div>
`,
};

/** The queue page's own stylesheet rules, after the shell's (GET /admin/moderation/styles.css). */
export const QUEUE_STYLES = `main { display: grid; gap: 1rem; }
section h2 { font-size: 1rem; margin: 0 0 .5rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid #e3e6eb; vertical-align: top; }
td input[name=reason] { width: 14rem; display: block; margin-bottom: .3rem; }
td button { margin: 0 .3rem .3rem 0; }
.note, .history { color: #5b6475; font-size: .85rem; }
.withheld { color: #b3261e; font-size: .85rem; }
.empty { color: #5b6475; }
`;

/** The queue page's script (GET /admin/moderation/app.js): sign-in, the figures, the items and their decisions. */
export const QUEUE_SCRIPT = `(() => {
  const KEY = 'rider-moderation-token';
  const $ = (id) => document.getElementById(id);
  const when = (iso) => (iso ? iso.slice(0, 16).replace('T', ' ') + ' UTC' : '—');
  const age = (h) => (h === null ? 'none' : h < 48 ? h.toFixed(1) + ' h' : (h / 24).toFixed(1) + ' days');

  function show(signedIn) {
    $('sign-in').hidden = signedIn;
    $('queue-desk').hidden = !signedIn;
    $('sign-out').hidden = !signedIn;
  }

${adminPageApi('The queue')}
  function element(parent, tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    parent.appendChild(node);
    return node;
  }

  function button(td, label, action, onClick) {
    const b = element(td, 'button', label);
    b.type = 'button';
    b.dataset.action = action;
    b.addEventListener('click', () => act(onClick));
  }

  function reasonOf(row) {
    const reason = row.querySelector('input[name=reason]').value.trim();
    if (!reason) throw new Error('Give a reason first: the log keeps it and the author reads it.');
    return reason;
  }

  function describe(td, item) {
    element(td, 'div', item.targetType + ' ' + item.targetId, 'note');
    if (!item.content) element(td, 'div', '(gone)', 'empty');
    else if (item.targetType === 'user') element(td, 'div', item.content.name || '(no name)');
    else {
      element(td, 'div', item.content.text || '(no text)', 'content');
      for (const m of item.content.media) element(td, 'div', m.type + ': ' + m.url, 'note');
    }
    if (item.withheld) element(td, 'div', 'Hidden from others (' + item.withheld.reason + ') since ' + when(item.withheld.at), 'withheld');
  }

  function counts(td, item) {
    element(td, 'div', item.riders + ' rider(s), ' + item.reports + ' report(s)', 'counts');
    element(td, 'div', Object.entries(item.reasons).map(([r, n]) => r + ' ' + n).join(', '), 'note');
    if (item.fromModel) element(td, 'div', 'model: ' + (item.categories.join(', ') || 'flagged'), 'note');
    for (const note of item.notes) element(td, 'div', '“' + note + '”', 'note');
    element(td, 'div', 'first ' + when(item.firstReportedAt) + ' (' + age(item.ageHours) + ' ago)', 'note');
  }

  async function history(td, authorId) {
    if (!authorId) { element(td, 'div', 'unknown', 'empty'); return; }
    element(td, 'div', authorId, 'note');
    const list = element(td, 'ul', undefined, 'history');
    const log = await api('GET', '/moderation/actions?limit=10&subjectId=' + authorId);
    const earlier = log.items.filter((a) => a.action === 'content.remove' || a.action === 'rider.suspend' || a.action === 'rider.lift');
    if (!earlier.length) element(list, 'li', 'no earlier removals or suspensions');
    for (const a of earlier) element(list, 'li', when(a.createdAt) + ' ' + a.action + ': ' + a.reason);
  }

  function decisions(td, tr, item) {
    const input = element(td, 'input');
    input.name = 'reason';
    input.placeholder = 'Reason (the author reads it)';
    const path = '/moderation/queue/' + item.targetType + '/' + item.targetId + '/decision';
    if (item.targetType !== 'user') button(td, 'Remove', 'remove', () => api('POST', path, { action: 'remove', reason: reasonOf(tr) }));
    button(td, 'Dismiss', 'dismiss', () => api('POST', path, { action: 'dismiss', reason: reasonOf(tr) }));
    if (item.authorId) {
      const days = element(td, 'select');
      days.name = 'days';
      for (const [value, label] of [['7', '7 days'], ['1', '1 day'], ['30', '30 days'], ['', 'indefinitely']]) {
        const option = element(days, 'option', label);
        option.value = value;
      }
      button(td, 'Suspend author', 'suspend', () => {
        const until = days.value ? new Date(Date.now() + Number(days.value) * 86400000).toISOString() : null;
        return api('PUT', '/users/' + item.authorId + '/suspension', { reason: reasonOf(tr), until });
      });
    }
  }

  async function load() {
    document.body.dataset.state = 'loading';
    const queue = await api('GET', '/moderation/queue?limit=100');
    show(true);
    const f = queue.figures;
    $('open-items').textContent = String(f.openItems);
    $('aged-items').textContent = String(f.agedItems);
    $('oldest-age').textContent = age(f.oldestAgeHours);
    const week = f.lastSevenDays;
    $('answered-share').textContent = week.share === null ? '—' : (week.share * 100).toFixed(1) + '%';
    $('answered-counts').textContent = '(' + week.withinDay + ' of ' + week.decided + ' decided)';
    const tbody = $('items');
    tbody.replaceChildren();
    if (!queue.items.length) {
      const tr = element(tbody, 'tr');
      const td = element(tr, 'td', 'Nothing to decide.', 'empty');
      td.colSpan = 4;
    }
    const histories = [];
    for (const item of queue.items) {
      const tr = element(tbody, 'tr');
      tr.dataset.target = item.targetType + ':' + item.targetId;
      describe(element(tr, 'td'), item);
      counts(element(tr, 'td'), item);
      histories.push(history(element(tr, 'td'), item.authorId));
      decisions(element(tr, 'td'), tr, item);
    }
    await Promise.all(histories);
    loaded();
  }

${ADMIN_PAGE_SIGN_IN}})();
`;
