// Local wall-clock times in an IANA zone to UTC instants (submissions and admin edits
// may give startLocal/endLocal as YYYY-MM-DDTHH:mm with a timezone). Pure; Intl does the zone rules.

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** True when `zone` is an IANA time zone name Intl knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

/** The zone's offset from UTC at `instant`, in minutes (east positive). */
function offsetMinutes(instant: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000);
}

/**
 * The UTC instant of a local `YYYY-MM-DDTHH:mm` in `zone`, or null when either is invalid.
 * A time skipped by a DST jump forward (02:30 on a spring-forward night) moves forward by the gap,
 * as calendar apps do; a repeated time (a fall-back night) is its first occurrence.
 */
export function localToUtc(local: string, zone: string): Date | null {
  const match = LOCAL.exec(local);
  if (!match || !isTimeZone(zone)) return null;
  const [y, mo, d, h, mi] = match.slice(1).map(Number) as [number, number, number, number, number];
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  const check = new Date(wall);
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59) return null;
  // Two passes settle the offset across a transition; the earlier candidate wins on a repeated hour.
  const before = wall - offsetMinutes(wall - 24 * 3_600_000, zone) * 60_000;
  const after = wall - offsetMinutes(wall + 24 * 3_600_000, zone) * 60_000;
  const fits = (instant: number) => instant + offsetMinutes(instant, zone) * 60_000 === wall;
  const candidates = [before, after].filter(fits).sort((a, b) => a - b);
  if (candidates.length) return new Date(candidates[0]!);
  // Skipped wall time: take the offset in force before the jump, which lands after it.
  return new Date(before);
}
