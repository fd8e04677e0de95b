// The admin pages' facts in words, in the page's language, where they used
// to print raw JSON: the recorder's backlog on /admin, and each audit line's
// detail ("deadline of moria: from … to …"). A detail of a shape this file
// does not know (an action added later) reads as a "key: value" list.

import { formatForPeople } from '../../domain/course-time.ts';
import type { ResultBacklog } from '../../queue/index.ts';
import { html, type Html } from './html.ts';
import { t } from '../i18n/index.ts';

/** The recorder's backlog as a sentence, or "unknown" without one. */
export function recorderText(r: ResultBacklog | null): string {
  if (!r) return t('admin.unknown');
  if (r.waiting === 0 && r.failed === 0) return t('aw.recorderIdle');
  return t('aw.recorder', r.waiting, r.failed) + (r.oldestSeconds !== null ? t('aw.oldest', t('aw.seconds', Math.round(r.oldestSeconds))) : '');
}

/** The health's overall status word. */
export const healthStatusText = (status: string) => (status === 'ok' ? t('aw.ok') : status === 'degraded' ? t('aw.degraded') : status);

const ISO_DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/;

/** Any JSON value as text: dates for people, lists joined, objects as "key: value" pairs. */
export function valueText(v: unknown, depth = 0): string {
  if (v === null || v === undefined) return t('aw.none');
  if (typeof v === 'boolean') return v ? t('aw.yes') : t('aw.no');
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return ISO_DATE.test(v) && !Number.isNaN(Date.parse(v)) ? formatForPeople(new Date(v)) : v;
  if (Array.isArray(v)) return v.length === 0 ? t('aw.none') : v.map((x) => valueText(x, depth + 1)).join(', ');
  if (typeof v === 'object') {
    if (depth > 3) return '…';
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length === 0) return t('aw.none');
    const text = entries.map(([k, x]) => `${k}: ${valueText(x, depth + 1)}`).join(', ');
    return depth === 0 ? text : `(${text})`;
  }
  return String(v);
}

const str = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));
const num = (v: unknown) => (typeof v === 'number' ? v : Number(v));
const has = (d: Record<string, unknown>, ...keys: string[]) => keys.every((k) => Object.hasOwn(d, k));
const dateOr = (v: unknown) => (v === null || v === undefined ? t('aw.none') : valueText(v));

/** An audit line's detail in words: the known actions as sentences, anything else as "key: value" pairs. */
export function auditDetailText(action: string, targetId: number | string | null, detail: unknown): string {
  if (detail === null || detail === undefined) return '';
  if (typeof detail !== 'object' || Array.isArray(detail)) return valueText(detail);
  const d = detail as Record<string, unknown>;
  switch (action) {
    case 'game.deadline':
      if (has(d, 'from', 'to')) return t('aw.deadline', str(targetId), dateOr(d.from), dateOr(d.to));
      break;
    case 'admin.grant':
    case 'admin.revoke':
      if (has(d, 'username', 'wasAdmin')) return t('aw.admin', str(d.username), d.wasAdmin === true);
      break;
    case 'user.disable':
    case 'user.enable':
      if (has(d, 'username') && Object.keys(d).length === 1) return t('aw.user', str(d.username));
      break;
    case 'submission.disable':
    case 'submission.enable':
      if (has(d, 'game', 'player', 'version')) return t('aw.submission', str(d.player), num(d.version), str(d.game));
      break;
    case 'submission.rejudge':
      if (has(d, 'game', 'player', 'newSubmissionId')) return t('aw.rejudge', str(d.player), str(d.game), num(d.newSubmissionId));
      break;
    case 'name.release':
      if (has(d, 'game', 'name', 'owner')) return t('aw.release', str(d.name), str(d.game), str(d.owner));
      break;
    case 'name.rename':
      if (has(d, 'game', 'from', 'to', 'owner')) return t('aw.rename', str(d.from), str(d.to), str(d.game), str(d.owner));
      break;
    case 'game.ratings-reset':
      if (has(d, 'players', 'historyRowsCleared')) return t('aw.ratingsReset', num(d.players), num(d.historyRowsCleared));
      break;
    case 'dummy.install':
      if (has(d, 'sizeBytes', 'sha256')) return t('aw.dummyInstall', num(d.sizeBytes), str(d.sha256).slice(0, 16));
      break;
    case 'similarity.compute':
      if (has(d, 'documents', 'pairs')) return t('aw.similarity', num(d.documents), num(d.pairs));
      break;
    case 'tournament.create':
      if (has(d, 'game', 'name', 'freezeAt')) {
        const rest = Object.fromEntries(Object.entries(d).filter(([k, v]) => !['game', 'name', 'freezeAt'].includes(k) && v !== null && v !== undefined));
        return t('aw.tournamentCreate', str(d.name), str(d.game), dateOr(d.freezeAt)) + (Object.keys(rest).length ? `; ${valueText(rest)}` : '');
      }
      break;
    case 'tournament.start':
      if (has(d, 'entries') && typeof d.entries === 'number') return t('aw.tournamentStart', d.entries);
      break;
    case 'tournament.rerun':
      if (has(d, 'failedMatchId', 'newMatchId')) return t('aw.tournamentRerun', num(d.failedMatchId), num(d.newMatchId));
      break;
  }
  return valueText(d);
}

/** An audit line's target, linked to its page where it has one. */
export function auditTargetCell(targetType: string | null, targetId: number | string | null): Html | string {
  if (!targetType) return '';
  const id = targetId === null ? '' : String(targetId);
  const href =
    typeof targetId === 'number'
      ? targetType === 'user'
        ? `/admin/users/${targetId}`
        : targetType === 'submission'
          ? `/submissions/${targetId}`
          : targetType === 'tournament'
            ? `/tournaments/${targetId}`
            : null
      : null;
  return href ? html`${targetType} <a href="${href}">${id}</a>` : `${targetType} ${id}`;
}
