// Writes .env.example and the settings tables of docs/operations.md from the
// declarations in src/config.ts (SETTINGS, CLIENT_SETTINGS, RETIRED), so the
// three cannot say different things: test/config-docs.test.ts fails when a
// file differs from what this script writes.
//   npm run gen:config-docs

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CLIENT_SETTINGS, RETIRED, SETTINGS, type Setting } from '../src/config.ts';

export const ENV_EXAMPLE = fileURLToPath(new URL('../.env.example', import.meta.url));
export const OPERATIONS = fileURLToPath(new URL('../docs/operations.md', import.meta.url));
const BEGIN = '<!-- settings: written by `npm run gen:config-docs` from src/config.ts; edit the declarations there -->';
const END = '<!-- /settings -->';

type AnySetting = Setting<unknown>;

/** The settings by section, in the order declared. */
function bySection(settings: Record<string, AnySetting>): [string, AnySetting[]][] {
  const sections = new Map<string, AnySetting[]>();
  for (const s of Object.values(settings)) sections.set(s.group, [...(sections.get(s.group) ?? []), s]);
  return [...sections];
}

/** Text as comment lines of at most `width` columns. */
function comment(text: string, width = 78): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of text.split(/\s+/)) {
    if (line.length + 1 + word.length > width && line !== '#') {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  return [...lines, line];
}

/** The default, said after the sentence where the commented-out line does not show it. */
function defaultSaid(s: AnySetting): string {
  if (s.shownDefault === '' || s.example === s.shownDefault) return '';
  return s.shownDefault.startsWith('unset: ') ? ` Unset: ${s.shownDefault.slice('unset: '.length)}.` : ` Default: ${s.shownDefault}.`;
}

export function envExample(): string {
  const out = [
    ...comment(
      'Arbiter configuration, written by `npm run gen:config-docs` from the declarations in src/config.ts: edit them there, not here. ' +
        'Every variable is optional: with none set, `npm start` runs everything on one machine with embedded defaults (PGlite under ' +
        'DATA_DIR, Redis on 127.0.0.1:6379 or a private redis-server). Values are validated at start; a bad one stops the process ' +
        'with a message naming the variable.',
    ),
  ];
  for (const [title, settings] of bySection(SETTINGS)) {
    out.push('', `# --- ${title} ---`);
    for (const s of settings) out.push('', ...comment(s.doc + defaultSaid(s)), `#${s.name}=${s.example}`);
  }
  out.push('', '# --- Refused at start ---');
  for (const why of Object.values(RETIRED)) out.push('', ...comment(why));
  return `${out.join('\n')}\n`;
}

const cell = (text: string): string => text.replace(/\|/g, '\\|');
const shownDefault = (s: AnySetting): string => (s.shownDefault === '' ? 'unset' : /^[^\s`]*$/.test(s.shownDefault) ? `\`${s.shownDefault}\`` : s.shownDefault);

function tables(settings: Record<string, AnySetting>): string[] {
  const out: string[] = [];
  for (const [title, list] of bySection(settings)) {
    out.push(`**${title}**`, '', '| variable | default | what |', '|---|---|---|');
    for (const s of list) out.push(`| \`${s.name}\` | ${cell(shownDefault(s))} | ${cell(s.doc)} |`);
    out.push('');
  }
  return out;
}

/** The generated part of docs/operations.md, between its markers. */
export function settingsTables(): string {
  const retired = ['**Refused at start**', '', '| variable | what |', '|---|---|'];
  for (const [name, why] of Object.entries(RETIRED)) retired.push(`| \`${name}\` | ${cell(why)} |`);
  return [BEGIN, '', ...tables(SETTINGS), ...retired, '', ...tables(CLIENT_SETTINGS), END].join('\n');
}

/** docs/operations.md with its generated part written anew. */
export function operationsWith(current: string): string {
  const from = current.indexOf(BEGIN);
  const to = current.indexOf(END);
  if (from < 0 || to < from) throw new Error(`docs/operations.md has no ${BEGIN} ... ${END} markers`);
  return current.slice(0, from) + settingsTables() + current.slice(to + END.length);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(ENV_EXAMPLE, envExample());
  writeFileSync(OPERATIONS, operationsWith(readFileSync(OPERATIONS, 'utf8')));
  console.log('gen:config-docs: wrote .env.example and the settings tables of docs/operations.md');
}
