import type { CollectionName } from '../../platform/db/collections';
import type { ExportSection } from './sections';

/** What a file holds, in a rider's words; a collection without a line here is still listed, by its name. */
const DESCRIPTIONS: Partial<Record<CollectionName, string>> = {
  users: 'Your account: name, e-mail address, settings, counters and what other features keep on it.',
  sessions: 'The devices you stayed signed in on.',
  tricklists: 'Your trick lists.',
  tricks: 'Your tricks and their progress.',
  spotlists: 'Your spot lists.',
  spot_reviews: 'Your reviews of spots.',
  spot_trick_history: 'The tricks you logged at spots.',
  scheduledNotifications: 'Your reminders.',
  spots: 'Spots you added, and spots where you added a stay.',
  blog: 'Blog posts you wrote.',
  bot_chats: 'Your chats with the companion.',
  companion_profiles: 'What the companion remembers about you.',
  dm_messages: 'Messages in your conversations: yours, the companion’s, and those the other participants sent you.',
  feed_posts: 'Your posts.',
  reactions: 'Your reactions to posts.',
  feed_comments: 'Your comments.',
  saved_posts: 'Posts you saved.',
  conversations: 'Your conversations; the other participants are shown by name.',
  user_blocks: 'Riders you blocked, and blocks of you (the other rider is not named).',
  reports: 'Reports you made, and reports about you (the reporter and their words are not shown).',
  follows: 'Riders you follow and riders who follow you (the other rider is not named).',
  homies: 'Riders who follow you and whom you follow back (the other rider is not named).',
  media: 'Your photos and videos: what we store about each (the files themselves are in the media folder).',
  media_uploads: 'Video uploads you started and did not finish.',
  media_usage: 'How many bytes you uploaded each day.',
  pushTokens: 'The devices that receive your notifications (their addresses are withheld).',
  notificationDeliveryLog: 'Notifications sent to you.',
  analytics_events: 'How you used the apps.',
  analytics_quarantine: 'Usage events of yours we could not read.',
  experiment_exposures: 'Which version of a feature you were shown.',
  client_installations: 'The app installations you used.',
  client_version_history: 'The app versions you used.',
  event_saves: 'Events you saved.',
  eventRelationships: 'Events you are going to or are interested in.',
  events: 'Events you submitted.',
  eventSubscriptions: 'Your saved event filters.',
  eventNotificationJobs: 'Event notifications waiting to be sent to you.',
  credit_accounts: 'Your AI credits.',
  credit_ledger: 'Your AI credit movements.',
  usage_events: 'Your use of paid AI features.',
  payment_events: 'Your payments.',
};

export interface ReadmeEntry {
  section: ExportSection;
  documents: number;
}

/** The archive's README.html: what each file holds, with how many documents, readable offline in any browser. */
export function exportReadme(entries: readonly ReadmeEntry[], media: { files: number; missing: number }, now: Date) {
  const rows = entries
    .map(({ section, documents }) => {
      const about = DESCRIPTIONS[section.collection] ?? `Your records in “${section.collection}”.`;
      return `<tr><td><code>${escapeHtml(section.file)}</code></td><td>${escapeHtml(about)}</td><td>${documents}</td></tr>`;
    })
    .join('\n');
  const missing = media.missing > 0 ? ` ${media.missing} could not be found in storage and are missing.` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Your data</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3rem .6rem;text-align:left;vertical-align:top}</style>
</head><body>
<h1>Your data</h1>
<p>Everything the service stores about you, as of ${escapeHtml(now.toISOString())}. Each file below is JSON: a list of
records as we store them. Ids are 24-character hexadecimal strings; dates are ISO 8601 times in UTC
(<code>2026-12-07T20:21:38.000Z</code>); dates older versions of the apps stored as text or numbers are shown as stored.</p>
<p>Other people appear only where you talked with them: in <code>conversations.json</code> and
<code>dm_messages.json</code> the other participants are shown by their display name, with the messages they sent in
those conversations. Anywhere else another rider is shown as “another rider”, and never with their e-mail address or
anything else of theirs. Secrets (your password’s hash, sign-in token hashes, notification addresses and keys) are
shown as “[withheld]”: they are of no use outside the service.</p>
<table><thead><tr><th>File</th><th>What it holds</th><th>Records</th></tr></thead><tbody>
${rows}
<tr><td><code>media/</code></td><td>${escapeHtml(`Your uploaded photos and videos, as stored (already without location). ${media.files} files, named by the id in media.json.${missing}`)}</td><td>${media.files}</td></tr>
</tbody></table>
</body></html>
`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
