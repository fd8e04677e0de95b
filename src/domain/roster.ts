// A course's roster, imported by an admin: a CSV of students (a
// header row naming the columns; ; or , or tab between fields, quotes as in
// RFC 4180, UTF-8 with or without a BOM, bounded in bytes and rows) becomes
// either invitations (a one-time sign-up link per student that brings their
// student id, name and e-mail) or accounts (a user per student, with a
// one-time link to set the password; without a username column the username
// is generated, since usernames are public and the roster's fields are not).
// Each row is created or skipped with a reason; the links are shown once, as a
// table and as a CSV to send.

import { randomInt } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { recordAudit } from './audit.ts';
import { cleanEmail, cleanFullName, cleanStudentId, USERNAME_RE } from './accounts.ts';
import { invitationPath, issueInvitation, issuePasswordLink, passwordLinkPath } from './account-links.ts';
import { DomainError, invalid, tooLarge } from './errors.ts';
import { toCsv } from './exports.ts';

/** The password hash of an account made by an import, until its link is used: no password matches it. */
export const UNSET_PASSWORD = 'unset$roster';

export const ROSTER_MAX_BYTES = 256 * 1024;
export const ROSTER_MAX_ROWS = 2000;
export const ROSTER_DEFAULT_DAYS = 14;
export const ROSTER_MAX_DAYS = 90;
export const ROSTER_MODES = ['invite', 'account'] as const;
export type RosterMode = (typeof ROSTER_MODES)[number];

/** Column names a roster may use (compared lowercase, without accents, spaces, _ or -), by what they hold. */
const HEADERS: Record<'studentId' | 'fullName' | 'firstName' | 'lastName' | 'email' | 'username', string[]> = {
  studentId: ['id', 'studentid', 'student', 'dni', 'nia', 'niu', 'niub', 'codi', 'codigo', 'code', 'identifier', 'idalumne', 'idalumno'],
  fullName: ['name', 'fullname', 'nom', 'nombre', 'nomcomplet', 'nombrecompleto', 'studentname'],
  firstName: ['firstname', 'givenname', 'nompila'],
  lastName: ['lastname', 'surname', 'surnames', 'familyname', 'cognoms', 'cognom', 'apellidos', 'apellido'],
  email: ['email', 'mail', 'emailaddress', 'correu', 'correo', 'correuelectronic', 'correoelectronico'],
  username: ['username', 'user', 'login', 'usuari', 'usuario'],
};

const norm = (h: string) =>
  h
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[\s_\-.]+/g, '');

/** The CSV's records: fields split by `sep`, quotes ("a ""b"" c") kept together across separators and line breaks. */
export function parseCsvRecords(text: string, sep: string): { line: number; fields: string[] }[] {
  const out: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let cur = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cur += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') line++;
        cur += c;
      }
    } else if (c === '"' && cur.trim() === '') {
      cur = '';
      quoted = true;
    } else if (c === sep) {
      fields.push(cur);
      cur = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      fields.push(cur);
      out.push({ line: start, fields });
      fields = [];
      cur = '';
      line++;
      start = line;
    } else cur += c;
  }
  if (quoted) throw invalid(`line ${start}: a quote is never closed`, 'bad-csv');
  if (cur !== '' || fields.length > 0) {
    fields.push(cur);
    out.push({ line: start, fields });
  }
  return out.filter((r) => r.fields.some((f) => f.trim() !== ''));
}

/** The separator of the header line: the most frequent of ; , and tab outside quotes. */
function sniffSeparator(text: string): string {
  const first = text.split(/\r?\n/, 1)[0] ?? '';
  const unquoted = first.replace(/"[^"]*"/g, '');
  const count = (c: string) => unquoted.split(c).length - 1;
  return [';', ',', '\t'].reduce((best, c) => (count(c) > count(best) ? c : best), ',');
}

export interface RosterRow {
  line: number;
  studentId: string;
  fullName: string;
  email: string;
  username: string;
}

/** The roster's rows (as typed, trimmed), from its bytes; a 4xx error naming the problem otherwise. */
export function parseRoster(input: Buffer | string): RosterRow[] {
  const bytes = typeof input === 'string' ? Buffer.byteLength(input) : input.length;
  if (bytes > ROSTER_MAX_BYTES) throw tooLarge(`the roster is ${bytes} bytes: at most ${ROSTER_MAX_BYTES}`);
  let text: string;
  if (typeof input === 'string') text = input;
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(input);
    } catch {
      throw invalid('the roster is not UTF-8 text: save the spreadsheet as "CSV UTF-8"', 'not-utf8');
    }
  }
  text = text.replace(/^\uFEFF/, '');
  if (text.includes('\0')) throw invalid('the roster is not a text file', 'not-utf8');
  const records = parseCsvRecords(text, sniffSeparator(text));
  if (records.length === 0) throw invalid('the roster is empty: a header row (id, name, email) and a row per student', 'empty-roster');
  const header = records[0]!.fields.map(norm);
  const col = (k: keyof typeof HEADERS) => header.findIndex((h) => HEADERS[k].includes(h));
  const cols = {
    studentId: col('studentId'),
    fullName: col('fullName'),
    firstName: col('firstName'),
    lastName: col('lastName'),
    email: col('email'),
    username: col('username'),
  };
  if (cols.studentId < 0)
    throw invalid(
      `the roster's header names no student id column (one of: ${HEADERS.studentId.join(', ')}); it reads: ${records[0]!.fields.join(' | ').slice(0, 200)}`,
      'roster-header',
    );
  const rows = records.slice(1);
  if (rows.length === 0) throw invalid('the roster has a header but no student', 'empty-roster');
  if (rows.length > ROSTER_MAX_ROWS) throw tooLarge(`the roster has ${rows.length} students: at most ${ROSTER_MAX_ROWS} per import`);
  const at = (r: string[], i: number) => (i >= 0 ? (r[i] ?? '').trim() : '');
  return rows.map(({ line, fields }) => {
    const name = at(fields, cols.fullName) || [at(fields, cols.firstName), at(fields, cols.lastName)].filter(Boolean).join(' ');
    return { line, studentId: at(fields, cols.studentId), fullName: name, email: at(fields, cols.email), username: at(fields, cols.username) };
  });
}

export interface RosterResult {
  line: number;
  studentId: string;
  fullName: string | null;
  email: string | null;
  /** account mode: the user made. */
  username: string | null;
  status: 'created' | 'skipped';
  /** Skipped: why, and a stable code. Created: "replaced" when an older invitation of the student stops working. */
  code: string | null;
  reason: string | null;
  /** Created: the link's path (shown once), and when it expires. */
  link: string | null;
  expiresAt: string | null;
}

export interface RosterImport {
  mode: RosterMode;
  created: number;
  skipped: number;
  rows: RosterResult[];
}

/** Letters a generated username is made of: no vowels (no words), no look-alikes (0/o, 1/l). */
const GENERATED_LETTERS = 'bcdfghjkmnpqrstvwxz23456789';
/** A generated username: public on every page, so nothing of the roster's (student id, name, e-mail) is in it. */
export const GENERATED_USERNAME_RE = /^student_[bcdfghjkmnpqrstvwxz2-9]{6}$/;

function generatedUsername(): string {
  let out = 'student_';
  for (let i = 0; i < 6; i++) out += GENERATED_LETTERS[randomInt(GENERATED_LETTERS.length)];
  return out;
}

/**
 * A username for a student's account: the roster's username column, else one generated
 * (student_xxxxxx). Usernames are public (leaderboards, matches, tournaments), so it is never the
 * student id, the name or the e-mail, which only the teacher sees; a username column that holds
 * the student id is taken as empty.
 */
function usernameFor(r: { username: string; studentId: string }): string | null {
  if (r.username && r.username.toLowerCase() !== r.studentId.toLowerCase()) return USERNAME_RE.test(r.username) ? r.username : null;
  return generatedUsername();
}

/**
 * Imports the roster: each row becomes an invitation or an account with its
 * link, or is skipped with a reason (no or bad student id, bad e-mail, the
 * student id twice in the file, a student id or username already taken).
 * One transaction per row, so a row's failure does not undo the others; one
 * audit line for the import (roster.import) with what it did.
 */
export async function importRoster(
  db: Db,
  actorId: number | null,
  input: { csv: Buffer | string; mode: string; expiresInDays?: number },
  now = new Date(),
): Promise<RosterImport> {
  if (!(ROSTER_MODES as readonly string[]).includes(input.mode)) throw invalid(`mode: one of ${ROSTER_MODES.join(', ')}`, 'bad-mode');
  const mode = input.mode as RosterMode;
  const days = input.expiresInDays ?? ROSTER_DEFAULT_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > ROSTER_MAX_DAYS)
    throw invalid(`expiresInDays: a whole number of days, 1 to ${ROSTER_MAX_DAYS}`, 'bad-expiry');
  const expiresAt = new Date(now.getTime() + days * 86_400_000);
  const parsed = parseRoster(input.csv);
  const seen = new Set<string>();
  const rows: RosterResult[] = [];
  for (const r of parsed) {
    const out: RosterResult = {
      line: r.line,
      studentId: r.studentId,
      fullName: r.fullName || null,
      email: r.email || null,
      username: null,
      status: 'skipped',
      code: null,
      reason: null,
      link: null,
      expiresAt: null,
    };
    rows.push(out);
    const skip = (code: string, reason: string) => Object.assign(out, { code, reason });
    let studentId: string | null;
    let fullName: string | null;
    let email: string | null;
    try {
      studentId = cleanStudentId(r.studentId);
      fullName = cleanFullName(r.fullName);
      email = cleanEmail(r.email);
    } catch (e) {
      if (e instanceof DomainError) skip(e.code ?? 'invalid', e.message);
      else throw e;
      continue;
    }
    if (!studentId) {
      skip('no-student-id', 'no student id');
      continue;
    }
    Object.assign(out, { studentId, fullName, email });
    const key = studentId.toLowerCase();
    if (seen.has(key)) {
      skip('duplicate', `student id "${studentId}" is on an earlier line of the file`);
      continue;
    }
    seen.add(key);
    const holder = await db.user.findUnique({ where: { studentId }, select: { username: true } });
    if (holder) {
      skip('student-id-taken', `student id "${studentId}" already has an account (${holder.username}): an admin's reset link sets its password`);
      continue;
    }
    if (mode === 'invite') {
      const { token, replaced } = await db.$transaction((tx) => issueInvitation(tx, actorId, { studentId, fullName, email }, expiresAt));
      Object.assign(out, {
        status: 'created',
        link: invitationPath(token),
        expiresAt: expiresAt.toISOString(),
        ...(replaced ? { code: 'replaced', reason: 'an earlier invitation of this student no longer works' } : {}),
      });
      continue;
    }
    let username = usernameFor({ username: r.username, studentId });
    if (!username) {
      skip('bad-username', `the username column's "${r.username.slice(0, 40)}" does not fit: 3 to 32 characters from A-Z a-z 0-9 _ . -`);
      continue;
    }
    const generated = GENERATED_USERNAME_RE.test(username) && username !== r.username;
    const taken = async (name: string) => (await db.user.findUnique({ where: { usernameLower: name.toLowerCase() }, select: { id: true } })) !== null;
    // A generated name that exists already is drawn again (27^6 names: a clash is rare, two in a row rarer still).
    for (let tries = 0; generated && tries < 5 && (await taken(username)); tries++) username = usernameFor({ username: '', studentId })!;
    out.username = username;
    if (await taken(username)) {
      skip('username-taken', `username "${username}" is taken`);
      continue;
    }
    try {
      // An account nobody can log in to until its link sets a password: no password verifies against this (verifyPassword wants scrypt$...).
      const passwordHash = UNSET_PASSWORD;
      const { token } = await db.$transaction(async (tx) => {
        const u = await tx.user.create({ data: { username, usernameLower: username.toLowerCase(), passwordHash, studentId, fullName, email } });
        return issuePasswordLink(tx, actorId, u.id, expiresAt);
      });
      Object.assign(out, { status: 'created', link: passwordLinkPath(token), expiresAt: expiresAt.toISOString() });
    } catch (e) {
      if ((e as { code?: string }).code !== 'P2002') throw e;
      skip('taken', `username "${username}" or student id "${studentId}" was taken meanwhile`);
    }
  }
  const created = rows.filter((r) => r.status === 'created').length;
  await recordAudit(db, {
    actorId,
    action: 'roster.import',
    targetType: 'roster',
    detail: {
      mode,
      created,
      skipped: rows.length - created,
      expiresAt: expiresAt.toISOString(),
      students: rows
        .filter((r) => r.status === 'created')
        .map((r) => r.studentId)
        .slice(0, 500),
    },
  });
  return { mode, created, skipped: rows.length - created, rows };
}

/** The links to send, one line per created row (origin: the site's address, e.g. https://arbiter.example.edu); formulas neutralised as in every export. */
export function rosterLinksCsv(result: RosterImport, origin: string): string {
  return toCsv(
    ['student_id', 'name', 'email', 'username', 'link', 'expires_at'],
    result.rows.filter((r) => r.status === 'created' && r.link).map((r) => [r.studentId, r.fullName, r.email, r.username, origin + r.link, r.expiresAt]),
  );
}
