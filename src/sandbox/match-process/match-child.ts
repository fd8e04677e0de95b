// A child process that plays one match at a time: the game's engine and the
// bots' isolated-vm isolates together, the bots called one after another
// with synchronous calls (isolate-host.ts), no IPC per round. The parent
// (match-pool.ts) sends `match` (the spec with its limits resolved, the
// seats already compiled, the freezes and patient calls an earlier run of the
// same match decided) or `check` (the gate's load of one file), and kills
// this process when it must. Every message either way is declared in
// match-protocol.ts; an unknown one is refused, never guessed at.
//
// This process plays each job once. A call the wall clock cut short before its
// bot used its CPU comes back as `cut-short`, its own or the judge's failure
// as `failed`; the parent decides what follows.
//
// What this process can die of is a bot's doing only when a bot's call was
// running: V8's catastrophic out-of-memory (the handler writes a note and
// aborts), the watcher thread stopping a bot past its CPU or resident
// memory (a note, then SIGKILL), a fault under the data limit (no note, but
// the call in flight is on file). The parent then plays the match again from
// its seed, that bot frozen in that round (call-meter.ts).
//
// The process ignores SIGINT and SIGTERM, so a Ctrl-C or a service stop aimed
// at the worker's group lets the worker finish its matches; it exits when its
// parent goes away (IPC disconnect). Must run with --no-node-snapshot.

import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { capText, cpuSinceMs, describeError, SandboxInfraError, type LoadReply } from '../../match/bot-host.ts';
import { installCallMeter } from '../hosts/call-meter.ts';
import { procStatusBytes } from '../system/proc.ts';
import ivm from '../hosts/ivm.ts';
import { rememberSourceMap } from '../languages/index.ts';
import { builtinCodes } from '../hosts/builtin-host.ts';
import { CallCutShort, IsolateBotHost, isolateHooks } from '../hosts/isolate-host.ts';
import { getGame } from '../../games/registry.ts';
import type { AnyGame } from '../../sdk/types.ts';
import { importModule } from '../../sdk/modules.ts';
import { encodeReplay, encodeReplayJson } from '../../match/replay-io.ts';
import {
  assertNever,
  idOf,
  readParentMessage,
  type CheckMessage,
  type ChildMessage,
  type GameRef,
  type ParentMessage,
  type PlayMessage,
} from './match-protocol.ts';

/** RSS a bot may take above the process's on top of its limit (V8's own pages, allocator slack). */
const DATA_HEADROOM_MB = 48;

const meter = installCallMeter(process.argv[2] ?? '');
isolateHooks.onCatastrophic = (cpuMs, message) => meter.noteCatastrophic(cpuMs, message);

const games = new Map<string, Promise<AnyGame>>();
function loadGame(ref: GameRef): Promise<AnyGame> {
  const key = ref.module ?? ref.id;
  let game = games.get(key);
  if (!game) {
    game = ref.module ? importModule(pathToFileURL(ref.module).href).then((m) => (m as { default: AnyGame }).default) : getGame(ref.id);
    games.set(key, game);
  }
  return game;
}

/**
 * Caps what this process can commit (RLIMIT_DATA, soft limit, through
 * util-linux's prlimit): one allocation of hundreds of MiB happens between
 * two polls of the watcher, and this makes it fail, so V8 ends in its
 * catastrophic out-of-memory error instead of the machine swapping. Where
 * prlimit or /proc is missing, the watcher's RSS poll alone stands.
 */
function capData(seats: number, seatBytes: number): void {
  if (prlimitMissing) return;
  // Measured first: the probe isolate's reservation may outlive its dispose() for a while, and then counts in `now`.
  const reserve = isolateReserveBytes();
  // VmData: the data segment and private writable mappings, what RLIMIT_DATA counts.
  const now = procStatusBytes('self', 'VmData');
  if (now === null) return;
  // One reserve more: V8 reserves a code range larger than it keeps (to align it) and gives back the rest.
  const cap = now + seats * (seatBytes + reserve) + reserve;
  // Starting prlimit costs a match about 2 ms of CPU: a cap within a few MiB of the one in force stands.
  if (dataCap !== null && Math.abs(dataCap - cap) <= DATA_CAP_SLACK) return;
  try {
    execFileSync('prlimit', ['--pid', String(process.pid), `--data=${cap}:`], { stdio: 'ignore', timeout: 2000 });
    dataCap = cap;
  } catch (err) {
    // Not available here: not looked for again.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') prlimitMissing = true;
  }
}

/**
 * The VmData a new isolate reserves up front, measured once with a probe isolate: V8's code range, about
 * 5 MiB under Node 20 and 512 MiB under Node 24 (reserved, not used). Each seat's isolate needs it on top of
 * the bot's memory, or V8 cannot start the isolate under the cap.
 */
function isolateReserveBytes(): number {
  if (isolateReserve !== null) return isolateReserve;
  const before = procStatusBytes('self', 'VmData');
  const probe = new ivm.Isolate({ memoryLimit: 8 });
  const after = procStatusBytes('self', 'VmData');
  probe.dispose();
  isolateReserve = before !== null && after !== null ? Math.max(0, after - before) : 0;
  return isolateReserve;
}
let isolateReserve: number | null = null;

/** The data limit this process set last (null: none yet), and how far from it a new one may be before it is set again. */
let dataCap: number | null = null;
let prlimitMissing = false;
const DATA_CAP_SLACK = 8 * 1024 * 1024;

function send(msg: ChildMessage): void {
  process.send!(msg);
}

/** The match's module, imported by the first match (a process that only checks files never loads it) and kept: an import() per match cost about 1 ms of its CPU. */
let playResolved: Promise<typeof import('./play-resolved.ts')> | null = null;

async function play(msg: PlayMessage): Promise<{ t: 'played'; outcome: Extract<ChildMessage, { t: 'played' }>['outcome'] }> {
  const game = await loadGame(msg.game);
  const { playResolvedMatch, playResolvedMatchAsJson } = await (playResolved ??= import('./play-resolved.ts'));
  capData(msg.spec.seats.length, (msg.spec.limits.memoryMb + DATA_HEADROOM_MB) * 1024 * 1024);
  for (const [me, seat] of (msg.options.compiled ?? []).entries())
    if ('map' in seat && seat.map) rememberSourceMap(seat.code, msg.spec.seats[me]!.filename, seat.map);
  let lastSent = 0;
  const onRound = (round: number, totalRounds: number) => {
    const now = Date.now();
    if (now - lastSent < 100 && round < totalRounds) return;
    lastSent = now;
    send({ t: 'progress', id: msg.id, round, totalRounds });
  };
  const options = { ...msg.options, host: 'isolate' as const, onRound, builtins: await builtinCodes(game) };
  // An evaluation's match: one round's record, nothing worth encoding.
  if (msg.options.lastRoundOnly) {
    const outcome = await playResolvedMatch(game, msg.spec, options);
    return { t: 'played', outcome: { replay: outcome.replay, logs: outcome.logs } };
  }
  // Encoded here, where the match ran: one runner's work, not the worker's that all runners share.
  // The rounds go once, encoded: the parent decodes them only if it reads them (withRoundsFrom).
  // Written as JSON where the game writes its frames (writeFrame). The others' frames are built and
  // stringified either way, and their rounds kept as objects were no slower: the records, the JSON and
  // its gzip took Moria 26.1 ms a match as objects, 26.4 written; Bola de Drac 10.2 and 11.1.
  if (!game.writeFrame) {
    const outcome = await playResolvedMatch(game, msg.spec, options);
    return { t: 'played', outcome: { replay: { ...outcome.replay, rounds: null }, logs: outcome.logs, replayGz: encodeReplay(outcome.replay) } };
  }
  const { head, json, logs } = await playResolvedMatchAsJson(game, msg.spec, options);
  return { t: 'played', outcome: { replay: head, logs, replayGz: encodeReplayJson(json) } };
}

async function check(msg: CheckMessage): Promise<{ t: 'checked'; reply: LoadReply }> {
  capData(1, (msg.req.memoryMb + DATA_HEADROOM_MB) * 1024 * 1024);
  const host = new IsolateBotHost({ patient: new Set(msg.patient ?? []) });
  try {
    return { t: 'checked', reply: host.loadSync(msg.req) };
  } finally {
    await host.close();
  }
}

async function handle(raw: unknown): Promise<void> {
  let msg: ParentMessage;
  try {
    msg = readParentMessage(raw);
  } catch (err) {
    send({ t: 'refused', id: idOf(raw), message: err instanceof Error ? err.message : String(err) });
    return;
  }
  const start = process.cpuUsage();
  const end = () => ({ id: msg.id, cpuMs: cpuSinceMs(start), rss: process.memoryUsage.rss() });
  try {
    switch (msg.t) {
      case 'match':
        send({ ...(await play(msg)), ...end() });
        return;
      case 'check':
        send({ ...(await check(msg)), ...end() });
        return;
      default:
        assertNever(msg, 'message type');
    }
  } catch (err) {
    // A busy machine's wall clock, not the bot: the parent plays the job again with that call patient.
    if (err instanceof CallCutShort) return send({ t: 'cut-short', seat: err.seat, round: err.round, ...end() });
    // Our own failure or the judge's (never a bot's): the parent abandons the match.
    const message = capText(describeError(err));
    send({ t: 'failed', fault: err instanceof SandboxInfraError ? 'infra' : 'judge', name: err instanceof Error ? err.name : 'Error', message, ...end() });
  }
}

process.on('message', (raw: unknown) => void handle(raw));

process.on('disconnect', () => process.exit(0));
// The worker decides when this process ends (see the header).
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});
send({ t: 'ready' });
