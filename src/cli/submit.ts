// `arbiter submit my-bot.ts [--game moria]`: uploads a bot to an Arbiter
// server, follows the Dummy gate live (server-sent events) with a progress
// line, and prints the verdict, the gate matches' results and replay links.
//
// Server and token: --url/--token, else ARBITER_URL / ARBITER_TOKEN, else
// ~/.config/arbiter.json ({"url": "...", "token": "..."}; $XDG_CONFIG_HOME is
// honoured). Get a token with POST /api/tokens {username, password}.
//
// Exit codes: 0 qualified (or submitted, with --no-follow), 1 rejected or a
// server/network error, 2 bad input (usage, missing file, refused upload).

import { randomUUID } from 'node:crypto';
import { readFileSync, existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { homedir } from 'node:os';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import type { GateProgress, GateStepView } from '../domain/gate-progress.ts';
import { GateStep } from '../statuses.ts';
import { BOT_FILE_KINDS, isUploadFilename, languageOf } from '../sandbox/languages/index.ts';
import { roundShown } from '../sdk/replay-format.ts';
import { readClientSettings, type Env } from '../config.ts';

const USAGE = 'usage: arbiter submit <bot.ts|bot.js> [--game <id>] [--url <server>] [--token <token>] [--no-follow]';
const FINAL = new Set(['qualified', 'rejected']);

interface ClientConfig {
  url: string;
  token: string;
}

class CliError extends Error {
  constructor(
    message: string,
    readonly code: number,
    /** The server's stable code of a refusal (e.g. compile-error). */
    readonly apiCode?: string,
  ) {
    super(message);
  }
}

export function configPath(env?: Env): string {
  return join(readClientSettings(env).configHome ?? join(homedir(), '.config'), 'arbiter.json');
}

export function clientConfig(flags: { url?: string | undefined; token?: string | undefined }, env?: Env): ClientConfig {
  let file: Partial<ClientConfig> = {};
  const path = configPath(env);
  const settings = readClientSettings(env);
  if (existsSync(path)) {
    try {
      const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
      if (parsed && typeof parsed === 'object') file = parsed as Partial<ClientConfig>;
    } catch (e) {
      throw new CliError(`${path} is not valid JSON: ${(e as Error).message}`, 2);
    }
  }
  const url = flags.url || settings.url || (typeof file.url === 'string' ? file.url : '');
  const token = flags.token || settings.token || (typeof file.token === 'string' ? file.token : '');
  if (!url) throw new CliError(`no server: set ARBITER_URL (e.g. http://127.0.0.1:3000), pass --url, or write {"url": ..., "token": ...} to ${path}`, 2);
  if (!/^https?:\/\//.test(url)) throw new CliError(`the server URL must start with http:// or https://, got "${url}"`, 2);
  if (!token)
    throw new CliError(
      `no token: set ARBITER_TOKEN, pass --token, or add "token" to ${path} (get one with POST ${url.replace(/\/+$/, '')}/api/tokens {"username","password"})`,
      2,
    );
  return { url: url.replace(/\/+$/, ''), token };
}

interface Participant {
  seat: number;
  name: string;
  builtin: string | null;
  submissionId: number | null;
  score: number | null;
  rank: number | null;
  frozen: { round: number | null; reason: string; message: string | null } | null;
}
interface GateMatch {
  id: number;
  seed: number;
  status: string;
  gateStep: string | null;
  gateIndex: number | null;
  participants: Participant[];
  replay: { url: string } | null;
  /** The `arbiter play` line that plays it again (seats in order, seed, settings). */
  play?: string;
}
interface SubmissionView {
  id: number;
  /** The gate's steps as the server sees them (src/domain/gate-progress.ts). */
  gate?: GateProgress;
  game: string;
  player: string;
  version: number;
  status: string;
  reason: string | null;
  reasonLine?: number | null;
  gateMatches?: GateMatch[];
}

/** Tries of an upload that did not get an answer (a dropped connection, a timeout, a 5xx); its Idempotency-Key makes a retry return the same submission. */
const UPLOAD_TRIES = 3;
/** The server answers an upload at once, C++ included (the gate compiles it afterwards, in the judge's workers). */
const UPLOAD_TIMEOUT_MS = 60_000;

class NoAnswer extends CliError {}

async function api<T>(
  cfg: ClientConfig,
  method: string,
  path: string,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
  timeoutMs = UPLOAD_TIMEOUT_MS,
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(cfg.url + path, {
      method,
      headers: { authorization: `Bearer ${cfg.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...extraHeaders },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      ...(method === 'POST' ? { signal: AbortSignal.timeout(timeoutMs) } : {}),
    });
  } catch (e) {
    throw new NoAnswer(`cannot reach ${cfg.url}: ${(e as Error).cause instanceof Error ? ((e as Error).cause as Error).message : (e as Error).message}`, 1);
  }
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  if (!res.ok) {
    const message = (data as { message?: string } | null)?.message ?? (text.slice(0, 200) || res.statusText);
    if (res.status >= 500) throw new NoAnswer(`${message} (HTTP ${res.status})`, 1);
    throw new CliError(`${message} (HTTP ${res.status})`, res.status >= 400 && res.status < 500 ? 2 : 1, (data as { code?: string } | null)?.code);
  }
  return data as T;
}

/** Reads server-sent events; calls onEvent per data message; resolves when the stream ends or onEvent returns true. */
async function followEvents(cfg: ClientConfig, path: string, onEvent: (e: Record<string, unknown>) => boolean, signal: AbortSignal): Promise<void> {
  const res = await fetch(cfg.url + path, { headers: { authorization: `Bearer ${cfg.token}`, accept: 'text/event-stream' }, signal });
  if (!res.ok || !res.body) throw new Error(`events: HTTP ${res.status}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const data = block
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trimStart())
        .join('\n');
      if (!data) continue;
      try {
        if (onEvent(JSON.parse(data) as Record<string, unknown>)) {
          await reader.cancel().catch(() => {});
          return;
        }
      } catch {
        /* a malformed event: skip it */
      }
    }
  }
}

/**
 * Progress: on a terminal one line that rewrites itself (step and each
 * running match's round); elsewhere (CI logs, pipes) a plain line per step.
 */
function progressLine(out: NodeJS.WriteStream) {
  const tty = out.isTTY === true;
  let last = '';
  return {
    show(step: string, detail: string) {
      const text = tty && detail ? `${step}  ${detail}` : step;
      if (text === last) return;
      last = text;
      if (tty) out.write(`\r\x1b[2K${text}`);
      else out.write(text + '\n');
    },
    done() {
      if (tty && last) out.write('\n');
      last = '';
    },
  };
}

const STEP_TEXT: Record<string, string> = {
  queued: 'queued, waiting for a worker',
  compiling: 'compiling',
  'self-play': 'self-play: four copies of your bot',
  qualifying: 'qualifying: four matches against three Dummies',
};

/** One line per gate match: its step, its verdict as the server judged it, and every seat's score. */
function describeMatch(m: GateMatch, step: GateStepView | undefined, submissionId: number): string {
  const seats = [...m.participants].sort((a, b) => a.seat - b.seat);
  const label = step?.label ?? `match ${m.id}`;
  if (m.status !== 'done') return `  #${m.id} ${label.padEnd(24)} ${m.status}`;
  const scores = seats
    .map((p) => {
      const me = p.submissionId === submissionId;
      // Seats as arbiter play numbers them: 0 to 3, in the line's order.
      const who = m.gateStep === GateStep.selfplay ? `seat ${p.seat}` : me ? `${p.name} (you)` : p.name;
      const frozen = p.frozen ? ` [frozen in round ${roundShown(p.frozen.round ?? 0)}: ${p.frozen.reason}]` : '';
      return `${who} ${p.score ?? '-'}${frozen}`;
    })
    .join(', ');
  const VERDICT: Partial<Record<GateStepView['state'], string>> = { won: ' WON', lost: ' lost', passed: ' ok', failed: ' a copy froze' };
  return `  #${m.id} ${label.padEnd(24)} seed ${m.seed}:${(step && VERDICT[step.state]) ?? ''}  ${scores}`;
}

export async function submitCommand(args: string[]): Promise<number> {
  try {
    return await submit(args);
  } catch (e) {
    if (e instanceof CliError) {
      console.error(`arbiter submit: ${e.message}`);
      return e.code;
    }
    throw e;
  }
}

async function submit(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        game: { type: 'string', short: 'g' },
        url: { type: 'string' },
        token: { type: 'string' },
        'no-follow': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    throw new CliError(`${(e as Error).message}\n${USAGE}`, 2);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length !== 1) throw new CliError(positionals.length === 0 ? `which file?\n${USAGE}` : `one file at a time\n${USAGE}`, 2);
  const file = positionals[0]!;
  if (!isUploadFilename(file)) throw new CliError(`"${file}": a bot is one ${BOT_FILE_KINDS} file`, 2);
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (e) {
    throw new CliError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`, 2);
  }
  // The game the file names, as its language says it (a C++ file's `// GAME: moria` line).
  const language = languageOf(source, file);
  const game = values.game ?? language.readHeader(source).game ?? undefined;
  if (!game) throw new CliError(`which game? pass --game <id> or declare  ${language.gameLine('<id>')}  in ${file}`, 2);
  const cfg = clientConfig({ url: values.url, token: values.token });

  // One key for this invocation: a retry after a lost answer gets the same submission, never a second version.
  const idempotencyKey = randomUUID();
  let created: { id: number; status: string; player: string; version: number; game: string } | undefined;
  for (let attempt = 1; !created; attempt++) {
    try {
      created = await api<NonNullable<typeof created>>(
        cfg,
        'POST',
        '/api/submissions',
        { game, source, filename: basename(file) },
        { 'idempotency-key': idempotencyKey },
        UPLOAD_TIMEOUT_MS,
      );
    } catch (e) {
      // A file that does not compile is refused at upload: the same verdict the gate's compile step would give, the compiler's lines as it printed them.
      if (e instanceof CliError && e.apiCode === 'compile-error') {
        console.log(`REJECTED: ${e.message.replace(/ \(HTTP \d+\)$/, '')}`);
        return 1;
      }
      if (!(e instanceof NoAnswer) || attempt >= UPLOAD_TRIES) throw e;
      console.error(`arbiter submit: ${e.message}; trying again`);
      await sleep(1000 * attempt);
    }
  }
  console.log(`submitted ${created.player} v${created.version} for ${created.game}: submission #${created.id}, ${created.status}`);
  if (values['no-follow']) {
    console.log(`follow it: ${cfg.url}/api/submissions/${created.id}`);
    return 0;
  }

  const line = progressLine(process.stdout);
  let status = created.status;
  let statusSince = Date.now();
  const progress = new Map<string, string>(); // matchId -> "round/total" or "done"
  const render = () => {
    const parts = [...progress.entries()].map(([id, p]) => `#${id} ${p}`);
    // Waiting for a worker or for the compile: the seconds it has lasted (a terminal sees them; a log gets the step once).
    if (parts.length === 0 && (status === 'queued' || status === 'compiling')) parts.push(`${Math.floor((Date.now() - statusSince) / 1000)} s`);
    line.show(STEP_TEXT[status] ?? status, parts.join('  '));
  };
  render();
  const ticker = setInterval(render, 1000);
  const controller = new AbortController();
  const onEvent = (e: Record<string, unknown>) => {
    if (e.matchId !== undefined && e.matchId !== null) {
      const id = String(e.matchId);
      if (e.status === 'running' && typeof e.round === 'number') progress.set(id, `round ${e.round}/${String(e.totalRounds ?? '?')}`);
      else if (e.status === 'running') progress.set(id, 'starting');
      else progress.delete(id); // done or failed: its result shows in the summary
    } else if (typeof e.status === 'string') {
      if (e.status !== status) {
        progress.clear();
        statusSince = Date.now();
      }
      status = e.status;
    }
    render();
    return FINAL.has(status);
  };
  // Live events, with a poll as a safety net (a proxy that buffers SSE, a dropped connection).
  const poll = async () => {
    while (!FINAL.has(status) && !controller.signal.aborted) {
      try {
        await sleep(2000, undefined, { signal: controller.signal });
      } catch {
        return; // aborted: the events said the verdict
      }
      try {
        const s = await api<SubmissionView>(cfg, 'GET', `/api/submissions/${created.id}`);
        if (s.status !== status) onEvent({ status: s.status });
      } catch {
        /* keep trying */
      }
    }
    controller.abort();
  };
  const polling = poll();
  try {
    await followEvents(cfg, `/api/submissions/${created.id}/events`, onEvent, controller.signal);
    if (FINAL.has(status)) controller.abort();
  } catch {
    /* aborted or no SSE: the poll carries on */
  }
  await polling.catch(() => {});
  controller.abort();
  clearInterval(ticker);
  line.done();

  const final = await api<SubmissionView>(cfg, 'GET', `/api/submissions/${created.id}`);
  if (final.status === 'qualified')
    console.log(`QUALIFIED: ${final.player} beat the Dummies in all four matches; the name ${final.player} is now locked and plays ranked matches.`);
  else console.log(`REJECTED: ${final.reason ?? 'no reason given'}`);
  const matches = final.gateMatches ?? [];
  if (matches.length > 0) {
    console.log('gate matches:');
    for (const m of matches) {
      console.log(
        describeMatch(
          m,
          final.gate?.steps.find((step) => step.matchId === m.id),
          final.id,
        ),
      );
      if (m.replay) console.log(`      replay: ${cfg.url}${m.replay.url}`);
      if (m.play) console.log(`      play it again: ${m.play}`);
    }
  }
  return final.status === 'qualified' ? 0 : 1;
}
