// The course's time zone (COURSE_TIME_ZONE, e.g. Europe/Madrid): every date a
// person reads is shown in it with UTC beside it, and every date a person
// types without an offset is read in it. The database and the API's JSON
// keep UTC instants. One zone per deployment, set once when the app is built
// (src/http/app.ts), like the rest of the configuration.

let zone = 'UTC';

/** Whether `tz` is an IANA time zone this Node knows. */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export function setCourseTimeZone(tz: string): void {
  if (!isTimeZone(tz)) throw new RangeError(`unknown time zone "${tz}"`);
  zone = tz;
}

export const courseTimeZone = (): string => zone;

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  name: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsIn(date: Date, tz: string): Parts {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone: tz,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    formatters.set(tz, f);
  }
  const p: Record<string, string> = {};
  for (const { type, value } of f.formatToParts(date)) p[type] = value;
  return {
    year: Number(p['year']),
    month: Number(p['month']),
    day: Number(p['day']),
    hour: Number(p['hour']),
    minute: Number(p['minute']),
    name: p['timeZoneName'] ?? tz,
  };
}

const pad = (n: number) => String(n).padStart(2, '0');
const dateText = (p: Parts) => `${p.year}-${pad(p.month)}-${pad(p.day)}`;
const timeText = (p: Parts) => `${pad(p.hour)}:${pad(p.minute)}`;

/**
 * A date as a person reads it: "2026-12-20 23:59 CET (22:59 UTC)" in the course's zone (the date beside
 * UTC too when it differs), or "2026-12-20 22:59 UTC" when the course keeps UTC.
 */
export function formatForPeople(date: Date, tz = zone): string {
  const utc = partsIn(date, 'UTC');
  if (tz === 'UTC') return `${dateText(utc)} ${timeText(utc)} UTC`;
  const local = partsIn(date, tz);
  const utcText = dateText(utc) === dateText(local) ? timeText(utc) : `${dateText(utc)} ${timeText(utc)}`;
  return `${dateText(local)} ${timeText(local)} ${local.name} (${utcText} UTC)`;
}

/** The value of a date-time input in the course's zone: "2026-12-20T23:59". */
export function toCourseInput(date: Date, tz = zone): string {
  const p = partsIn(date, tz);
  return `${dateText(p)}T${timeText(p)}`;
}

/**
 * A typed date-time: with an offset or Z it is that instant; without one it is the course's wall-clock time
 * ("2026-12-20T23:59" or "2026-12-20 23:59", seconds optional). Null when it is no date.
 */
export function parseCourseInput(text: string, tz = zone): Date | null {
  const s = text.trim();
  if (/([zZ]|[+-]\d\d:?\d\d)$/.test(s)) {
    const d = new Date(s);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  const m = /^(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d))?)?$/.exec(s);
  if (!m) return null;
  const [y, mo, d, h = '0', mi = '0', se = '0'] = m.slice(1);
  const wall = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(se));
  const check = new Date(wall);
  if (check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d) || Number(h) > 23 || Number(mi) > 59 || Number(se) > 59) return null;
  // The instant whose wall time in tz is `wall`: correct by the zone's offset, twice for a change of offset in between.
  let t = wall;
  for (let i = 0; i < 2; i++) t = wall - offsetMs(new Date(t), tz);
  return new Date(t);
}

/** How far the zone's wall clock is ahead of UTC at `date`, in ms. */
function offsetMs(date: Date, tz: string): number {
  const p = partsIn(date, tz);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
  return asUtc - Math.floor(date.getTime() / 60_000) * 60_000;
}
