// What `arbiter submit` / `arbiter verify` (src/cli/) and the starter kit's `node arbiter.mjs submit` / `verify`
// do alike, written once: the upload and how it follows the gate to its verdict, and what a replay's check
// says. The kit gets them in play/runner.mjs (build.ts bundles this file in), so arbiter.mjs still needs
// nothing but Node; each command reads its own arguments, site and token, and wraps SubmitError its own way.
// Bundled for the kit: no node:fs, node:path or node:url here (the kit's bundle has no game folder).

import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { GateProgress, GateStepView } from '../../domain/gate-progress.ts';
import type { VerifyResult } from '../../match/replay-verify.ts';
import { roundShown } from '../../sdk/replay-format.ts';
import { GateStep } from '../../statuses.ts';

/** The site's address (no trailing slash) and the user's API token. */
export interface Site {
  url: string;
  token: string;
}

/** A failure the command reports as its message and exit code: 1 the server or the network, 2 the input (a refused upload). */
export class SubmitError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    /** The server's stable code of a refusal (e.g. compile-error). */
    readonly apiCode?: string,
  ) {
    super(message);
  }
}

/** No answer (a dropped connection, a timeout, a 5xx): an upload is tried again. */
class NoAnswer extends SubmitError {}

interface Participant {
  seat: number;
  name: string;
  submissionId: number | null;
  score: number | null;
  frozen: { round: number | null; reason: string } | null;
}
interface GateMatch {
  id: number;
  seed: number;
  status: string;
  gateStep: string | null;
  participants: Participant[];
  replay: { url: string } | null;
  /** The line that plays it again (seats in order, seed, settings). */
  play?: string;
}
interface SubmissionView {
  id: number;
  /** The gate's steps as the server sees them (src/domain/gate-progress.ts). */
  gate?: GateProgress;
  player: string;
  status: string;
  reason: string | null;
  gateMatches?: GateMatch[];
}

const FINAL = new Set(['qualified', 'rejected']);
/** Tries of an upload that got no answer; its Idempotency-Key makes a retry return the same submission. */
const UPLOAD_TRIES = 3;
/** The server answers an upload at once, C++ included (the gate compiles it afterwards, in the judge's workers). */
const UPLOAD_TIMEOUT_MS = 60_000;
const STEP_TEXT: Record<string, string> = {
  queued: 'queued, waiting for a worker',
  compiling: 'compiling',
  'self-play': 'self-play: four copies of your bot',
  qualifying: 'qualifying: four matches against three Dummies',
};

const causeOf = (e: unknown) => ((e as Error).cause instanceof Error ? ((e as Error).cause as Error).message : (e as Error).message);

async function api<T>(site: Site, method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(site.url + path, {
      method,
      headers: { authorization: `Bearer ${site.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...extraHeaders },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      ...(method === 'POST' ? { signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS) } : {}),
    });
  } catch (e) {
    throw new NoAnswer(`cannot reach ${site.url}: ${causeOf(e)}`, 1);
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
    throw new SubmitError(`${message} (HTTP ${res.status})`, res.status >= 400 ? 2 : 1, (data as { code?: string } | null)?.code);
  }
  return data as T;
}

/** Reads server-sent events; calls onEvent per data message; resolves when the stream ends or onEvent returns true. */
async function followEvents(site: Site, path: string, onEvent: (e: Record<string, unknown>) => boolean, signal: AbortSignal): Promise<void> {
  const res = await fetch(site.url + path, { headers: { authorization: `Bearer ${site.token}`, accept: 'text/event-stream' }, signal });
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
      let event: Record<string, unknown>;
      try {
        event = JSON.parse(data) as Record<string, unknown>;
      } catch {
        continue; // a malformed event: skip it
      }
      if (onEvent(event)) {
        await reader.cancel().catch(() => {});
        return;
      }
    }
  }
}

/** Progress: on a terminal one line that rewrites itself (step and each running match's round); elsewhere (CI logs, pipes) a plain line per step. */
function progressLine(out: NodeJS.WriteStream) {
  const tty = out.isTTY === true;
  let last = '';
  return {
    show(step: string, detail: string) {
      const text = tty && detail ? `${step}  ${detail}` : step;
      if (text === last) return;
      last = text;
      out.write(tty ? `\r\x1b[2K${text}` : `${text}\n`);
    },
    done() {
      if (tty && last) out.write('\n');
      last = '';
    },
  };
}

/** One line per gate match: its step, its verdict as the server judged it, and every seat's score. */
function describeMatch(m: GateMatch, step: GateStepView | undefined, submissionId: number): string {
  const seats = [...m.participants].sort((a, b) => a.seat - b.seat);
  const label = step?.label ?? `match ${m.id}`;
  if (m.status !== 'done') return `  #${m.id} ${label.padEnd(24)} ${m.status}`;
  const scores = seats
    .map((p) => {
      const me = p.submissionId === submissionId;
      // Seats as the play commands number them: 0 to 3, in the line's order.
      const who = m.gateStep === GateStep.selfplay ? `seat ${p.seat}` : me ? `${p.name} (you)` : p.name;
      const frozen = p.frozen ? ` [frozen in round ${roundShown(p.frozen.round ?? 0)}: ${p.frozen.reason}]` : '';
      return `${who} ${p.score ?? '-'}${frozen}`;
    })
    .join(', ');
  const VERDICT: Partial<Record<GateStepView['state'], string>> = { won: ' WON', lost: ' lost', passed: ' ok', failed: ' a copy froze' };
  return `  #${m.id} ${label.padEnd(24)} seed ${m.seed}:${(step && VERDICT[step.state]) ?? ''}  ${scores}`;
}

export interface Upload {
  game: string;
  source: string;
  filename: string;
}

/**
 * Uploads the file and, unless `follow` is false, follows the gate live (server-sent events, a poll as a
 * safety net) with a progress line, then prints the verdict, each gate match, its replay and the line that
 * plays it again. The exit code: 0 qualified (or submitted, not followed), 1 rejected. `prefix` starts the
 * lines written to stderr (the command's name). Throws SubmitError.
 */
export async function submitAndFollow(site: Site, upload: Upload, options: { follow: boolean; prefix: string }): Promise<number> {
  // One key for this invocation: a retry after a lost answer gets the same submission, never a second version.
  const idempotencyKey = randomUUID();
  let created: { id: number; status: string; player: string; version: number; game: string } | undefined;
  for (let attempt = 1; !created; attempt++) {
    try {
      created = await api<NonNullable<typeof created>>(site, 'POST', '/api/submissions', upload, { 'idempotency-key': idempotencyKey });
    } catch (e) {
      // A file that does not compile is refused at upload: the same verdict the gate's compile step would give, the compiler's lines as it printed them.
      if (e instanceof SubmitError && e.apiCode === 'compile-error') {
        console.log(`REJECTED: ${e.message.replace(/ \(HTTP \d+\)$/, '')}`);
        return 1;
      }
      if (!(e instanceof NoAnswer) || attempt >= UPLOAD_TRIES) throw e;
      console.error(`${options.prefix}${e.message}; trying again`);
      await sleep(1000 * attempt);
    }
  }
  const id = created.id;
  console.log(`submitted ${created.player} v${created.version} for ${created.game}: submission #${id}, ${created.status}`);
  if (!options.follow) {
    console.log(`follow it: ${site.url}/submissions/${id}`);
    return 0;
  }

  const line = progressLine(process.stdout);
  let status = created.status;
  let statusSince = Date.now();
  const running = new Map<string, string>(); // match id -> "round r/total" or "starting"
  const render = () => {
    const parts = [...running.entries()].map(([match, p]) => `#${match} ${p}`);
    // Waiting for a worker or for the compile: the seconds it has lasted (a terminal sees them; a log gets the step once).
    if (parts.length === 0 && (status === 'queued' || status === 'compiling')) parts.push(`${Math.floor((Date.now() - statusSince) / 1000)} s`);
    line.show(STEP_TEXT[status] ?? status, parts.join('  '));
  };
  render();
  const ticker = setInterval(render, 1000);
  const controller = new AbortController();
  const onEvent = (e: Record<string, unknown>) => {
    if (e.matchId !== undefined && e.matchId !== null) {
      const match = String(e.matchId);
      if (e.status === 'running' && typeof e.round === 'number') running.set(match, `round ${e.round}/${String(e.totalRounds ?? '?')}`);
      else if (e.status === 'running') running.set(match, 'starting');
      else running.delete(match); // done or failed: its result shows in the summary
    } else if (typeof e.status === 'string') {
      if (e.status !== status) {
        running.clear();
        statusSince = Date.now();
      }
      status = e.status;
    }
    render();
    return FINAL.has(status);
  };
  const poll = async () => {
    while (!FINAL.has(status) && !controller.signal.aborted) {
      try {
        await sleep(2000, undefined, { signal: controller.signal });
      } catch {
        return; // aborted: the events said the verdict
      }
      try {
        const s = await api<SubmissionView>(site, 'GET', `/api/submissions/${id}`);
        if (s.status !== status) onEvent({ status: s.status });
      } catch {
        /* keep trying */
      }
    }
    controller.abort();
  };
  const polling = poll();
  try {
    await followEvents(site, `/api/submissions/${id}/events`, onEvent, controller.signal);
    if (FINAL.has(status)) controller.abort();
  } catch {
    /* aborted, or no events (a proxy that buffers them, a dropped connection): the poll carries on */
  }
  await polling.catch(() => {});
  controller.abort();
  clearInterval(ticker);
  line.done();

  const final = await api<SubmissionView>(site, 'GET', `/api/submissions/${id}`);
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
      if (m.replay) console.log(`      replay: ${site.url}${m.replay.url}`);
      if (m.play) console.log(`      play it again: ${m.play}`);
    }
  }
  return final.status === 'qualified' ? 0 : 1;
}

/**
 * Prints what re-running a replay found, and answers the exit code: 0 every state matches, 1 a mismatch
 * (the round named), 3 a replay of another engine's version (it cannot be checked here).
 */
export function reportVerification(replay: { game: string; seed: number; result: { scores: number[] } }, result: VerifyResult): number {
  if (result.ok) {
    console.log(`ok: ${replay.game}, seed ${replay.seed}, ${result.rounds} rounds replayed, every state matches (scores ${replay.result.scores.join(' ')})`);
    return 0;
  }
  if (result.otherEngine) {
    console.error(`cannot verify: ${result.message}`);
    return 3;
  }
  console.error(`mismatch in round ${result.round}: ${result.message}`);
  return 1;
}
