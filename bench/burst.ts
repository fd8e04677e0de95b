// `npm run bench burst`: a course's deadline on this machine. The split
// deployment (api, recorder, scheduler and --workers worker processes, each
// started as `npm run <part>` starts it: the built judge, dist/, built first
// when stale; --from-source runs src/main.ts through tsx instead) on its own Postgres
// database and Redis queue prefix; --users students each upload one bot
// within --seconds (70% TypeScript bots of bench/burst/*.ts.tmpl, strong and
// weak; 30% C++ `AIName.cc` of a student's size; a few that do not compile),
// while --pollers browsers poll what a student watches, and one worker is
// killed with SIGKILL midway (after the upload window, once half the stored
// submissions have their verdict; started again a second later, as a
// supervisor would). It waits for every verdict and prints what the course
// met: the upload's answer, the time to each compile verdict and to the last
// verdict, verdicts per runner-minute, runner use, GET latency and 5xx, each
// part's peak memory with the processes it starts, Redis memory, bytes per
// stored match, and a consistency check.
//   npm run bench burst [--users 250] [--seconds 60] [--pollers 50] [--workers 2] [--runners 1]
//                       [--game moria] [--poll-ms 2000] [--timeout-minutes 40] [--warmup-seconds 15] [--no-kill] [--from-source]
//                       [--judge DIR]
//   --judge DIR: the parts are another checkout's judge (e.g. an older commit's worktree), each started as
//   that checkout's `npm run <part>` starts it (its package.json, its build if it has one), its database migrated
//   by its own migrations; the harness (uploads, pollers, kill, sampling, report) is this tree's. A figure that
//   judge does not give (its logs lack the line) is printed "n/a".
//   npm run bench burst --users 20 --write DIR   writes the students' files to DIR and stops
// Users are made in the bench's database with the domain's password hash, as a
// roster import makes accounts (the per-address sign-up limit is not what is
// measured); their tokens come from POST /api/tokens.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { buildIfStale } from './build.ts';
import { once } from 'node:events';
import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { request as httpRequest } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { freshDatabase, type FreshDatabase } from '../test/helpers/db.ts';
import { deletePrefix, openJudgeQueues, type JudgeQueues } from '../src/queue/index.ts';
import { hashPassword } from '../src/domain/secrets.ts';
import { GATE_DUMMY_MATCHES } from '../src/domain/gate.ts';
import { submissionWait } from '../src/domain/queue-overview.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const templates = new URL('./burst/', import.meta.url);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const REDIS_URL = process.env.REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PASSWORD = 'burst-bench-password';
const FINAL = new Set(['qualified', 'rejected']);
/** Waiting submissions whose estimate is sampled every two seconds (besides each one's right after its upload). */
const WAIT_SAMPLES_EACH = 4;

interface Options {
  users: number;
  seconds: number;
  pollers: number;
  workers: number;
  runners: number;
  game: string;
  pollMs: number;
  timeoutMinutes: number;
  warmupSeconds: number;
  kill: boolean;
  /** --from-source: the parts run src/main.ts through tsx (as the tests do), not the built judge. */
  fromSource: boolean;
  /** --write DIR: write the students' files there and stop (to read or play them). */
  writeDir: string | null;
  /** --judge DIR: the checkout whose parts are started (this tree's when not given). */
  judge: string | null;
}

function parseOptions(args: string[]): Options {
  const o: Options = {
    users: 250,
    seconds: 60,
    pollers: 50,
    workers: 2,
    runners: 1,
    game: 'moria',
    pollMs: 2000,
    timeoutMinutes: 40,
    warmupSeconds: 15,
    kill: true,
    fromSource: false,
    writeDir: null,
    judge: null,
  };
  const numeric: Record<string, keyof Options> = {
    '--users': 'users',
    '--seconds': 'seconds',
    '--pollers': 'pollers',
    '--workers': 'workers',
    '--runners': 'runners',
    '--poll-ms': 'pollMs',
    '--timeout-minutes': 'timeoutMinutes',
    '--warmup-seconds': 'warmupSeconds',
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--no-kill') o.kill = false;
    else if (a === '--from-source') o.fromSource = true;
    else if (a === '--game') o.game = args[++i] ?? '';
    else if (a === '--write') o.writeDir = args[++i] ?? '.';
    else if (a === '--judge') o.judge = resolve(args[++i] ?? '.');
    else if (a in numeric) {
      const v = Number(args[++i]);
      if (!Number.isFinite(v) || v < 0) throw new Error(`${a} needs a number, got "${args[i]}"`);
      (o as unknown as Record<string, number>)[numeric[a]!] = v;
    } else
      throw new Error(`unknown option "${a}" (options: ${[...Object.keys(numeric), '--game', '--no-kill', '--from-source', '--write', '--judge'].join(' ')})`);
  }
  if (o.game !== 'moria') throw new Error(`--game: the burst's bot templates (bench/burst/) are Moria players; "${o.game}" has none`);
  if (o.users < 1 || o.workers < 1 || o.runners < 1) throw new Error('--users, --workers and --runners must be at least 1');
  if (o.kill && o.workers < 2) throw new Error('killing a worker midway needs --workers 2 or more (or --no-kill)');
  if (o.judge !== null && o.fromSource) throw new Error('--from-source is for this tree; --judge DIR starts that checkout as its own package.json says');
  if (o.judge === resolve(root)) o.judge = null;
  return o;
}

// ---------------------------------------------------------------- the parts

interface Part {
  name: string;
  child: ChildProcess;
  /** The last lines it printed (for an error's message). */
  tail: string[];
  exited: Promise<unknown>;
}

/** The errors a part logged (pino level 50 and up), by message, most frequent first. */
function loggedErrors(file: string): [string, number][] {
  const counts = new Map<string, number>();
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    let entry: { level?: number; msg?: string; err?: { message?: string } };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      continue;
    }
    if ((entry.level ?? 0) < 50) continue;
    const key = `${entry.msg ?? ''}${entry.err?.message ? `: ${entry.err.message}` : ''}`.replace(/\s+/g, ' ').slice(0, 160);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]);
}

const READY: Record<string, RegExp> = {
  api: /API on (http:\/\/[^\s"]+)/,
  recorder: /recorder: consuming results/,
  scheduler: /scheduler: ranked play/,
  worker: /worker pool: /,
};

/** Where and how the parts start: a checkout of the judge, and node's arguments for each part. */
interface Judge {
  /** The checkout (this tree, or --judge DIR). */
  dir: string;
  /** Node's arguments for a part (after node itself), run in `dir`. */
  argv(part: string): string[];
  /** Said in the report's deployment line. */
  label: string;
}

/**
 * The judge in `dir` as its `npm run <part>` starts it: the package.json script of that name, a `node ...`
 * command line of plain words (every judge's so far); with fromSource, src/main.ts through tsx instead.
 */
function judgeAt(dir: string, fromSource: boolean): Judge {
  if (fromSource) return { dir, argv: (part) => ['--no-node-snapshot', '--import', 'tsx', 'src/main.ts', part], label: `${dir}, from the sources (tsx)` };
  const scripts = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
  const argv = (part: string) => {
    const words = (scripts[part] ?? '').trim().split(/\s+/);
    if (words[0] !== 'node' || words.some((w) => /["'$`&|;<>]/.test(w)))
      throw new Error(`${dir}/package.json: "npm run ${part}" is "${scripts[part] ?? ''}", not a plain node command the bench can start`);
    return words.slice(1);
  };
  for (const part of Object.keys(READY)) argv(part);
  return { dir, argv, label: `${dir}, as its npm run <part> starts it (node ${argv('worker').join(' ')})` };
}

/** Starts a part as `npm run <part>` does (or from the sources) and waits until it says it is up. */
async function startPart(part: keyof typeof READY, name: string, env: Record<string, string>, logDir: string, judge: Judge): Promise<Part & { ready: string }> {
  const child = spawn(process.execPath, judge.argv(part), {
    cwd: judge.dir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail: string[] = [];
  const log = createWriteStream(join(logDir, `${name.replace(/[^a-z0-9]+/gi, '-')}.log`), { flags: 'a' });
  child.once('exit', () => log.end());
  let ready: string | null = null;
  let partial = '';
  const take = (chunk: Buffer) => {
    log.write(chunk);
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop()!;
    for (const line of lines) {
      if (ready === null) ready = READY[part]!.exec(line)?.[1] ?? (READY[part]!.test(line) ? line : null);
      tail.push(line);
      if (tail.length > 60) tail.shift();
    }
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  const exited = once(child, 'exit');
  const deadline = Date.now() + 120_000;
  while (ready === null) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited with ${child.exitCode ?? child.signalCode}:\n${tail.join('\n')}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not start in 120 s:\n${tail.join('\n')}`);
    }
    await sleep(50);
  }
  return { name, child, tail, exited, ready };
}

/**
 * Migrates the database at `url` with the judge in `dir`'s own migrations (its src/db/client.ts, through its
 * tsx), as that judge's deployment would have it; says so if its migrations are not this tree's.
 */
function migrateWith(dir: string, url: string): void {
  const code =
    "const { createDb, migrate, closeDb } = await import(process.argv[1] + '/src/db/client.ts'); " +
    'const db = await createDb({ databaseUrl: process.argv[2] }); try { await migrate(db); } finally { await closeDb(db); }';
  const r = spawnSync(process.execPath, ['--no-node-snapshot', '--import', 'tsx', '--input-type=module', '-e', code, dir, url], {
    cwd: dir,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`${dir}: its migrations did not run on the bench's database:\n${r.stderr}`);
  const names = (d: string) =>
    readdirSync(join(d, 'prisma/migrations'))
      .filter((f) => /^\d/.test(f))
      .join(' ');
  if (names(dir) !== names(root))
    console.log(`burst: ${dir}'s migrations are not this tree's: the harness reads its database with this tree's client (a figure may fail)`);
}

const alive = (p: Part) => p.child.exitCode === null && p.child.signalCode === null;

async function stopPart(p: Part): Promise<void> {
  if (!alive(p)) return;
  p.child.kill('SIGTERM');
  const timer = setTimeout(() => p.child.kill('SIGKILL'), 20_000);
  await p.exited;
  clearTimeout(timer);
}

// ---------------------------------------------------------------- memory: each part's process tree from /proc

const PAGE = 4096;

/** One process's /proc/<pid>/stat: its parent, its start time (clock ticks after boot), its RSS (bytes), its CPU and its reaped children's (clock ticks). */
function procStat(pid: number): { ppid: number; start: number; rss: number; cpu: number; childCpu: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command's closing parenthesis: state ppid ... (starttime is field 22, rss 24).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      ppid: Number(fields[1]),
      start: Number(fields[19]),
      rss: Number(fields[21]) * PAGE,
      cpu: Number(fields[11]) + Number(fields[12]),
      childCpu: Number(fields[13]) + Number(fields[14]),
    };
  } catch {
    return null; // gone
  }
}

/**
 * What a descendant of a part is, from its command line: a match process (the matches' or the checks': the
 * report tells them apart by the checks' pids the worker logs), the npm toolchain's compile server, esbuild's
 * service, a system clang compile (its shell, confinement, clang, wasm-ld), or something else. A process
 * forked and not yet exec'd still has its parent's command line: 'other' until it is seen again.
 */
type ProcessKind = 'match' | 'compile-server' | 'esbuild' | 'compile' | 'other';
function processKind(pid: number): ProcessKind {
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return 'other';
  }
  if (cmdline.includes('match-child')) return 'match';
  if (cmdline.includes('clang-server')) return 'compile-server';
  if (/esbuild/.test(cmdline)) return 'esbuild';
  if (/arbiter-cpp|clang|wasm-ld|arbiter-landlock|bwrap|prlimit/.test(cmdline)) return 'compile';
  return 'other';
}

/** Clock ticks (100 a second) since the machine booted: what /proc/<pid>/stat's start time counts. */
function uptimeTicks(): number {
  return Math.floor(Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]) * 100);
}

/** A descendant of a part as the samples saw it: its CPU (its own and its reaped children's, clock ticks). */
interface Descendant {
  part: string;
  pid: number;
  kind: ProcessKind;
  /** A child of the part's own process (one the part reaps when it exits). */
  direct: boolean;
  /** Started after the part's first sample (all its CPU is the burst's). */
  bornInBurst: boolean;
  /** Its CPU when first seen (0 if born in the burst) and when last seen. */
  first: number;
  last: number;
  /** Alive at the last sample (or its part was killed while it was). */
  live: boolean;
}

/** pid -> [ppid, rss bytes] of every process on the machine. */
function processTable(): Map<number, [number, number]> {
  const table = new Map<number, [number, number]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (stat) table.set(Number(entry), [stat.ppid, stat.rss]);
  }
  return table;
}

interface MemoryPeaks {
  /** The part's own process. */
  own: number;
  /** Its descendants together (match processes, compilers). */
  children: number;
  /** The largest single descendant. */
  largestChild: number;
  /** Process and descendants together. */
  tree: number;
}

function treeOf(table: Map<number, [number, number]>, pid: number): { own: number; children: number[]; pids: number[] } {
  const kids = new Map<number, number[]>();
  for (const [p, [pp]] of table) {
    const list = kids.get(pp);
    if (list) list.push(p);
    else kids.set(pp, [p]);
  }
  const children: number[] = [];
  const pids: number[] = [];
  const stack = [...(kids.get(pid) ?? [])];
  while (stack.length > 0) {
    const p = stack.pop()!;
    pids.push(p);
    children.push(table.get(p)?.[1] ?? 0);
    stack.push(...(kids.get(p) ?? []));
  }
  return { own: table.get(pid)?.[1] ?? 0, children, pids };
}

// ---------------------------------------------------------------- the students' files

/** A small deterministic generator, so a run's files can be told apart by its seed. */
function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

type Kind = 'ts-strong' | 'ts-drifter' | 'ts-wanderer' | 'cpp' | 'ts-broken' | 'cpp-broken';

interface StudentFile {
  kind: Kind;
  filename: string;
  source: string;
  player: string;
}

const template = (name: string) => readFileSync(new URL(name, templates), 'utf8');

/** Sets `const NAME = <number>;` (TypeScript) or `const int NAME = <number>;` (C++) in a template. */
function setConstant(source: string, name: string, value: number): string {
  const re = new RegExp(`^const (int )?${name} = [0-9.]+;`, 'm');
  if (!re.test(source)) throw new Error(`template has no constant ${name}`);
  return source.replace(re, (_, int: string | undefined) => `const ${int ?? ''}${name} = ${value};`);
}

/**
 * The course's files: 30% C++, 70% TypeScript (half of it the strong
 * template, a quarter each weak one), and about 3% in each language that do
 * not compile. Each has its own name and its own constants; each C++ file
 * its own tie-break table, so no compile is served from the cache.
 */
function studentFiles(count: number, seed: number): StudentFile[] {
  const random = rng(seed);
  const pick = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const cppCount = Math.round(count * 0.3);
  const brokenEach = Math.max(1, Math.round(count * 0.015));
  const kinds: Kind[] = [];
  for (let k = 0; k < count; k++) {
    if (k < cppCount) kinds.push(k < Math.min(brokenEach, cppCount) ? 'cpp-broken' : 'cpp');
    else {
      const t = k - cppCount;
      kinds.push(t < brokenEach ? 'ts-broken' : t % 4 === 0 ? 'ts-wanderer' : t % 4 === 1 ? 'ts-drifter' : 'ts-strong');
    }
  }
  // Uploads arrive in no order of language or strength.
  for (let k = kinds.length - 1; k > 0; k--) {
    const j = Math.floor(random() * (k + 1));
    [kinds[k], kinds[j]] = [kinds[j]!, kinds[k]!];
  }
  const tag = seed.toString(36).slice(-3).toUpperCase();
  const prospector = template('Prospector.ts.tmpl');
  const drifter = template('Drifter.ts.tmpl');
  const wanderer = template('Wanderer.ts.tmpl');
  const miner = template('AIMiner.cc.tmpl');
  return kinds.map((kind, k) => {
    const player = `S${tag}${String(k).padStart(4, '0')}`;
    const tsName = (s: string) => s.replace(/^export const PLAYER_NAME = '[^']*';/m, `export const PLAYER_NAME = '${player}';`);
    let source: string;
    switch (kind) {
      case 'ts-strong':
      case 'ts-broken':
        source = setConstant(
          setConstant(setConstant(tsName(prospector), 'TREASURE_REACH', pick(8, 16)), 'BALROG_MARGIN', pick(3, 4)),
          'BRAVE_HEALTH',
          pick(40, 70),
        );
        // A missing parenthesis, as a hurried student leaves one.
        if (kind === 'ts-broken') source = source.replace('this.claimed.clear();', 'this.claimed.clear(;');
        break;
      case 'ts-drifter':
        source = setConstant(setConstant(tsName(drifter), 'CENTRE_PULL', pick(1, 4)), 'STILL_EVERY', pick(3, 7));
        break;
      case 'ts-wanderer':
        source = setConstant(setConstant(tsName(wanderer), 'PATIENCE', pick(3, 9)), 'RESTLESS', pick(2, 5));
        break;
      case 'cpp':
      case 'cpp-broken': {
        source = miner.replace(/^#define PLAYER_NAME \w+/m, `#define PLAYER_NAME ${player}`);
        source = setConstant(setConstant(setConstant(source, 'TREASURE_REACH', pick(8, 16)), 'BALROG_MARGIN', pick(3, 4)), 'BRAVE_HEALTH', pick(40, 70));
        // Each row of the tie-break table a new permutation of the eight directions.
        source = source.replace(/^ {2}\{[0-7, ]+\},$/gm, () => {
          const row = [0, 1, 2, 3, 4, 5, 6, 7];
          for (let i = 7; i > 0; i--) {
            const j = Math.floor(random() * (i + 1));
            [row[i], row[j]] = [row[j]!, row[i]!];
          }
          return `  {${row.join(', ')}},`;
        });
        // A statement without its semicolon.
        if (kind === 'cpp-broken') source = source.replace('    claimed.clear();', '    claimed.clear()');
        break;
      }
    }
    const cpp = kind === 'cpp' || kind === 'cpp-broken';
    return { kind, player, source, filename: cpp ? `AI${player}.cc` : `${player}.ts` };
  });
}

// ---------------------------------------------------------------- figures

const quantile = (xs: number[], q: number) => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
};
const sec = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : '-');
const msText = (ms: number) => (Number.isFinite(ms) ? `${Math.round(ms)} ms` : '-');
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const spread = (xs: number[], unit: (x: number) => string) =>
  xs.length === 0 ? 'none' : `p50 ${unit(quantile(xs, 0.5))}, p95 ${unit(quantile(xs, 0.95))}, max ${unit(Math.max(...xs))} (${xs.length})`;
const loadText = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

interface Upload {
  file: StudentFile;
  user: number;
  token: string;
  /** Bench clock (Date.now()) when the request left and when its answer came. */
  sentAt: number;
  answeredAt: number;
  status: number;
  code: string | null;
  submissionId: number | null;
  /** The status the upload answered (202: queued, compiling...). */
  answered: string | null;
}

/** A waiting submission's estimate as its page showed it (GET /api/submissions/:id's wait, submissionWait), to hold against the real wait. */
interface WaitSample {
  submissionId: number;
  /** Bench clock when the answer came. */
  at: number;
  ahead: number;
  seconds: number;
  /** Taken by the upload right after its 202 (else by a poller, or by the sampler of the submissions whose gate waits). */
  first: boolean;
}

interface GetStats {
  waits: WaitSample[];
  latencies: Map<string, number[]>;
  fiveXX: number;
  failed: number;
  other: Map<number, number>;
}

// ---------------------------------------------------------------- the run

/** POST a JSON body with a bearer token; the answer's status and JSON body. Waits up to 30 minutes. */
function postJson(url: string, payload: unknown, token: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const data = Buffer.from(JSON.stringify(payload));
  return new Promise((done, fail) => {
    const req = httpRequest(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': data.length, authorization: `Bearer ${token}` },
      timeout: 30 * 60_000,
    });
    req.on('timeout', () => req.destroy(new Error('no answer in 30 minutes')));
    req.on('error', fail);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', fail);
      res.on('end', () => {
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
        } catch {}
        done({ status: res.statusCode ?? 0, body });
      });
    });
    req.end(data);
  });
}

export async function run(args: string[] = []): Promise<void> {
  const o = parseOptions(args);
  const seed = Number.parseInt(randomBytes(4).toString('hex'), 16);
  if (o.writeDir !== null) {
    mkdirSync(o.writeDir, { recursive: true });
    const files = studentFiles(o.users, seed);
    for (const f of files) writeFileSync(join(o.writeDir, f.filename), f.source);
    console.log(`burst: ${files.length} files in ${o.writeDir}: ${files.map((f) => `${f.filename} (${f.kind})`).join(', ')}`);
    return;
  }
  console.log(
    `burst: ${o.users} students upload once each within ${o.seconds} s, ${o.pollers} pollers every ${o.pollMs} ms, ` +
      `${o.workers} worker process(es) x ${o.runners} runner(s)${o.kill ? ', one worker SIGKILLed midway' : ''}, game ${o.game}`,
  );
  console.log(`machine: ${availableParallelism()} core(s), load average ${loadText()} at start`);

  const prefix = `bench-burst-${process.pid}-${randomBytes(3).toString('hex')}`;
  const parts: Part[] = [];
  // Every process seen under a part (match processes, compilers): one the part left running when it stopped or was killed is stopped here.
  const started = new Map<number, { start: number; part: string }>();
  let database: FreshDatabase | null = null;
  let queues: JudgeQueues | null = null;
  let redis: Redis | null = null;
  let cleaned: Promise<void> | null = null;
  const cleanup = () =>
    (cleaned ??= (async () => {
      await Promise.all(parts.map((p) => stopPart(p).catch(() => {})));
      await sleep(2000);
      const left = [...started].filter(([pid, { start }]) => procStat(pid)?.start === start);
      for (const [pid, { part }] of left) {
        let command = '?';
        try {
          command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, 3).join(' ');
        } catch {}
        console.log(`burst: process ${pid} of ${part} still running after its part stopped (${command}): SIGKILL`);
        try {
          process.kill(pid, 'SIGKILL');
        } catch {}
      }
      if (queues) await queues.close().catch(() => {});
      if (redis) {
        await deletePrefix(redis, prefix).catch((e: unknown) => console.log(`burst: deleting the queue keys: ${String(e)}`));
        redis.disconnect();
      }
      if (database) await database.drop().catch((e: unknown) => console.log(`burst: dropping the database: ${String(e)}`));
    })());
  const interrupted = (signal: string) => {
    console.log(`burst: ${signal}: stopping the parts, dropping the database and the queue keys`);
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    await burst(o, seed, prefix, parts, started, {
      setDatabase: (d) => (database = d),
      setQueues: (q) => (queues = q),
      setRedis: (r) => (redis = r),
    });
  } finally {
    await cleanup();
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    console.log(`machine: load average ${loadText()} at end`);
  }
}

async function burst(
  o: Options,
  seed: number,
  prefix: string,
  parts: Part[],
  started: Map<number, { start: number; part: string }>,
  keep: { setDatabase(d: FreshDatabase): void; setQueues(q: JudgeQueues): void; setRedis(r: Redis): void },
): Promise<void> {
  const files = studentFiles(o.users, seed);
  const judge = judgeAt(o.judge ?? root, o.fromSource);
  // Another judge's database is migrated by its own migrations; the harness reads it with this tree's client.
  const database = await freshDatabase(o.judge === null ? {} : { migrated: false });
  if (o.judge !== null) migrateWith(o.judge, database.url);
  keep.setDatabase(database);
  const db = database.db;
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  keep.setRedis(redis);
  const queues = openJudgeQueues({ redisUrl: REDIS_URL, prefix });
  keep.setQueues(queues);

  // ---- the deployment (each part's output in a log file of its own, kept after the run)
  const logDir = mkdtempSync(join(tmpdir(), 'arbiter-burst-'));
  const env: Record<string, string> = {
    DATABASE_URL: database.url,
    REDIS_URL,
    QUEUE_PREFIX: prefix,
    PORT: '0',
    LOG_LEVEL: 'info',
    WORKER_CONCURRENCY: String(o.runners),
  };
  // Built once here, as a deployment builds before it starts: not by each part at its start, and in no figure.
  // (A judge from before the build, run from its sources, has none.)
  if (!o.fromSource) buildIfStale(judge.dir);
  const t0start = Date.now();
  // The database's parts first (the recorder migrates nothing: the bench's database is migrated), then the workers, the API last.
  for (const name of ['recorder', 'scheduler'] as const) parts.push(await startPart(name, name, env, logDir, judge));
  const workers: Part[] = [];
  for (let w = 0; w < o.workers; w++) {
    const p = await startPart('worker', `worker ${w + 1}`, env, logDir, judge);
    workers.push(p);
    parts.push(p);
  }
  const api = await startPart('api', 'api', env, logDir, judge);
  parts.push(api);
  const base = api.ready;
  console.log(
    `deployment: api, recorder, scheduler, ${o.workers} worker(s) up in ${sec(Date.now() - t0start)}, ${o.judge !== null ? `the judge at ${judge.label}` : o.fromSource ? 'from the sources (tsx)' : 'the built judge (dist/)'} (database ${database.name}, queue prefix ${prefix})`,
  );

  // ---- the students: accounts as a roster import makes them, tokens through the API
  const t0users = Date.now();
  const passwordHash = await hashPassword(PASSWORD);
  await db.user.createMany({
    data: Array.from({ length: o.users }, (_, k) => {
      const username = `student${String(k).padStart(4, '0')}`;
      return { username, usernameLower: username, passwordHash, studentId: `B${seed}-${k}`, fullName: `Student ${k}` };
    }),
  });
  const tokens: string[] = new Array(o.users);
  let nextToken = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let k = nextToken++; k < o.users; k = nextToken++) {
        const res = await fetch(`${base}/api/tokens`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: `student${String(k).padStart(4, '0')}`, password: PASSWORD, label: 'burst' }),
        });
        if (res.status !== 201) throw new Error(`POST /api/tokens for student ${k}: ${res.status} ${await res.text()}`);
        tokens[k] = ((await res.json()) as { token: string }).token;
      }
    }),
  );
  console.log(`students: ${o.users} accounts in the database (one password hash), ${o.users} tokens from POST /api/tokens in ${sec(Date.now() - t0users)}`);

  const count = (k: Kind) => files.filter((f) => f.kind === k).length;
  const cppLines = files.find((f) => f.kind === 'cpp')?.source.split('\n').length ?? 0;
  console.log(
    `files: ${count('ts-strong')} TypeScript Prospector (strong), ${count('ts-drifter')} Drifter and ${count('ts-wanderer')} Wanderer (weak), ` +
      `${count('cpp')} C++ AIName.cc (${cppLines} lines each, each its own table), broken: ${count('ts-broken')} TypeScript, ${count('cpp-broken')} C++`,
  );
  if (o.warmupSeconds > 0) {
    // The compilers' warm-up at start (CPP_PREWARM): a course's server has been up for days when the deadline comes.
    console.log(`warm-up: ${o.warmupSeconds} s for the compilers' warm-up at start`);
    await sleep(o.warmupSeconds * 1000);
  }

  // ---- sampling: memory of each part's tree, Redis memory, runners busy
  const peaks = new Map<string, MemoryPeaks>();
  let redisBaseline = 0;
  let redisPeak = 0;
  const active: { at: number; busy: number }[] = [];
  let sampling = true;
  const redisUsed = async () => Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1] ?? 0);
  redisBaseline = await redisUsed();
  const sampleMemory = () => {
    const table = processTable();
    sampleCpu(table);
    for (const p of parts) {
      if (!alive(p) || p.child.pid === undefined) continue;
      const { own, children, pids } = treeOf(table, p.child.pid);
      for (const pid of pids) if (!started.has(pid)) started.set(pid, { start: procStat(pid)?.start ?? -1, part: p.name });
      const childSum = children.reduce((a, b) => a + b, 0);
      const was = peaks.get(p.name) ?? { own: 0, children: 0, largestChild: 0, tree: 0 };
      peaks.set(p.name, {
        own: Math.max(was.own, own),
        children: Math.max(was.children, childSum),
        largestChild: Math.max(was.largestChild, ...children),
        tree: Math.max(was.tree, own + childSum),
      });
    }
  };
  // CPU each part's own process used during the burst (clock ticks, 100 a second), and its reaped children's (compilers).
  const cpuAtStart = new Map<string, { cpu: number; childCpu: number }>();
  const cpuUsed = new Map<string, { cpu: number; childCpu: number }>();
  // And each live descendant's (match processes, compile servers: never reaped while they run, so not in childCpu),
  // from its first sample to its last; one that exits is counted by whoever reaps it (the part's childCpu, or a
  // live descendant's), so only the descendants alive at the last sample count.
  const descendantCpu = new Map<number, Omit<Descendant, 'live'> & { seen: number }>();
  // The clock tick of each part's first sample: a descendant started after it used all its CPU in the burst.
  const firstSampleTick = new Map<string, number>();
  // Each part's last sample: a descendant seen in it was alive when its part was last seen (a part killed, the
  // worker SIGKILLed midway, keeps what its descendants alive then had used; those that had exited before are in
  // its reaped children's CPU, and counting them as alive too counted them twice).
  const partSample = new Map<string, number>();
  let cpuSample = 0;
  const sampleCpu = (table: Map<number, [number, number]>) => {
    cpuSample++;
    for (const p of parts) {
      if (!alive(p) || p.child.pid === undefined) continue;
      const stat = procStat(p.child.pid);
      if (!stat) continue;
      partSample.set(p.name, cpuSample);
      if (!cpuAtStart.has(p.name)) {
        cpuAtStart.set(p.name, { cpu: stat.cpu, childCpu: stat.childCpu });
        firstSampleTick.set(p.name, uptimeTicks());
      }
      const base = cpuAtStart.get(p.name)!;
      cpuUsed.set(p.name, { cpu: stat.cpu - base.cpu, childCpu: stat.childCpu - base.childCpu });
      for (const pid of treeOf(table, p.child.pid).pids) {
        const d = procStat(pid);
        if (!d) continue;
        const was = descendantCpu.get(pid);
        if (was) {
          Object.assign(was, { last: d.cpu + d.childCpu, seen: cpuSample });
          if (was.kind === 'other') was.kind = processKind(pid);
        } else {
          const bornInBurst = d.start > firstSampleTick.get(p.name)!;
          descendantCpu.set(pid, {
            part: p.name,
            pid,
            kind: processKind(pid),
            direct: d.ppid === p.child.pid,
            bornInBurst,
            first: bornInBurst ? 0 : d.cpu + d.childCpu,
            last: d.cpu + d.childCpu,
            seen: cpuSample,
          });
        }
      }
    }
  };
  const descendants = (): Descendant[] => [...descendantCpu.values()].map(({ seen, ...d }) => ({ ...d, live: seen === partSample.get(d.part) }));
  const sampler = (async () => {
    while (sampling) {
      const at = Date.now();
      sampleMemory();
      try {
        redisPeak = Math.max(redisPeak, await redisUsed());
        active.push({ at, busy: await queues.matches.getActiveCount() });
      } catch {
        // a sample lost; the next one comes in 250 ms
      }
      await sleep(Math.max(0, 250 - (Date.now() - at)));
    }
  })();

  // ---- the uploads
  const random = rng(seed ^ 0x5bd1e995);
  const offsets = Array.from({ length: o.users }, () => random() * o.seconds * 1000).sort((a, b) => a - b);
  const uploads: Upload[] = [];
  const gets: GetStats = { waits: [], latencies: new Map(), fiveXX: 0, failed: 0, other: new Map() };
  /** GET base+path as a student's page polls it: its latency under `label`, and a waiting submission's estimate. */
  const getAs = async (label: string, path: string, token: string, first = false) => {
    const at = performance.now();
    try {
      const res = await fetch(base + path, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(60_000) });
      const body = await res.arrayBuffer();
      const took = performance.now() - at;
      const list = gets.latencies.get(label) ?? [];
      list.push(took);
      gets.latencies.set(label, list);
      if (res.status >= 500) gets.fiveXX++;
      else if (res.status !== 200) gets.other.set(res.status, (gets.other.get(res.status) ?? 0) + 1);
      else if (label === 'GET /api/submissions/:id') {
        const sub = JSON.parse(Buffer.from(body).toString()) as { id: number; wait: { ahead: number; seconds: number | null } | null };
        if (sub.wait && typeof sub.wait.seconds === 'number')
          gets.waits.push({ submissionId: sub.id, at: Date.now(), ahead: sub.wait.ahead, seconds: sub.wait.seconds, first });
      }
    } catch {
      gets.failed++;
    }
  };
  const refusalsSeen = new Set<string>();
  const tBurst = Date.now();
  const uploadsDone = Promise.all(
    files.map(async (file, k) => {
      await sleep(offsets[k]!);
      const token = tokens[k]!;
      const sentAt = Date.now();
      let status = 0;
      let body: Record<string, unknown> = {};
      try {
        // node:http, not fetch: fetch gives up on an answer after 300 s, and a C++ upload on a busy judge may take longer.
        ({ status, body } = await postJson(`${base}/api/submissions`, { source: file.source, filename: file.filename, game: o.game }, token));
      } catch (e) {
        body = { code: `no answer: ${e instanceof Error ? e.message : String(e)}` };
      }
      // The first answer of each kind that is not a 202, as it comes: what the students are told.
      const kind = `${status} ${typeof body['code'] === 'string' ? body['code'] : ''}`;
      if (status !== 202 && !refusalsSeen.has(kind)) {
        refusalsSeen.add(kind);
        console.log(
          `  upload ${file.filename} (${file.kind}) answered ${kind}: ${String(body['message'] ?? '')
            .split('\n')[0]!
            .slice(0, 200)}`,
        );
      }
      const upload: Upload = {
        file,
        user: k,
        token,
        sentAt,
        answeredAt: Date.now(),
        status,
        code: typeof body['code'] === 'string' ? body['code'] : null,
        submissionId: status === 202 && typeof body['id'] === 'number' ? body['id'] : null,
        answered: typeof body['status'] === 'string' ? body['status'] : null,
      };
      uploads[k] = upload;
      // The student's page right after the upload: its status, how many are ahead and the estimated wait.
      const id = upload.submissionId;
      if (id !== null) await getAs('GET /api/submissions/:id', `/api/submissions/${id}`, token, true);
    }),
  );

  // ---- the pollers: each a student's browser watching their submission, the leaderboard and the queue
  let polling = true;
  const pollers = Array.from({ length: o.pollers }, async (_, m) => {
    const user = m % o.users;
    await sleep(random() * o.pollMs);
    for (let turn = 0; polling; turn++) {
      const id = uploads[user]?.submissionId ?? null;
      const choices: [string, string][] = [
        ['GET /games/:game/leaderboard', `/games/${o.game}/leaderboard`],
        ['GET /api/queue', '/api/queue'],
      ];
      if (id !== null) choices.push(['GET /api/submissions/:id', `/api/submissions/${id}`], ['GET /submissions/:id', `/submissions/${id}`]);
      const [label, path] = choices[turn % choices.length]!;
      await getAs(label, path, tokens[user]!);
      await sleep(o.pollMs * (0.5 + random()));
    }
  });

  // ---- the waiting submissions' estimates: every two seconds, a few of the submissions whose gate has not started
  // (none of its matches on a runner yet), the estimate their page computes (submissionWait), to the last one
  const waitSampler = (async () => {
    // The estimate is this tree's (submissionWait): held against another judge's queue it would say nothing of that judge.
    if (o.judge !== null) return;
    const waitRandom = rng(seed ^ 0x2c1b3c6d);
    while (polling) {
      const ids = uploads.filter((u) => u?.submissionId != null).map((u) => u.submissionId!);
      try {
        const waiting = await db.submission.findMany({
          where: { id: { in: ids }, status: { in: ['queued', 'compiling', 'self_play'] }, matches: { none: { status: { not: 'queued' } } } },
          select: { id: true },
        });
        for (let k = 0; k < WAIT_SAMPLES_EACH && waiting.length > 0; k++) {
          const [{ id }] = waiting.splice(Math.floor(waitRandom() * waiting.length), 1) as [{ id: number }];
          const w = await submissionWait({ db, queues }, id);
          if (w.seconds !== null) gets.waits.push({ submissionId: id, at: Date.now(), ahead: w.ahead, seconds: w.seconds, first: false });
        }
      } catch {
        // a sample lost; the next ones come in two seconds
      }
      await sleep(2000);
    }
  })();

  // ---- the verdicts, the worker's kill midway
  const deadline = tBurst + o.timeoutMinutes * 60_000;
  let killedAt: number | null = null;
  let restartedAt: number | null = null;
  let finalCount = 0;
  let expected = Number.POSITIVE_INFINITY;
  void uploadsDone.then(() => (expected = uploads.filter((u) => u.submissionId !== null).length));
  let lastReport = Date.now();
  for (;;) {
    const ids = uploads.filter((u) => u?.submissionId != null).map((u) => u.submissionId!);
    finalCount = ids.length === 0 ? 0 : await db.submission.count({ where: { id: { in: ids }, status: { in: ['qualified', 'rejected'] } } });
    if (finalCount >= expected) break;
    if (Date.now() > deadline) {
      console.log(
        `burst: time bound (${o.timeoutMinutes} min) reached with ${finalCount} verdicts, ${uploads.filter(Boolean).length} of ${o.users} uploads answered`,
      );
      break;
    }
    // Midway: the upload window is over and half the submissions stored so far have their verdict (a judge that
    // refuses or holds uploads still gets its kill), while a job runs. The supervisor starts it again a second later.
    if (
      o.kill &&
      killedAt === null &&
      Date.now() > tBurst + o.seconds * 1000 &&
      ids.length > 0 &&
      finalCount >= Math.ceil(ids.length / 2) &&
      (await queues.matches.getActiveCount()) > 0
    ) {
      const victim = workers[0]!;
      const busy = await queues.matches.getActiveCount();
      victim.child.kill('SIGKILL');
      await victim.exited;
      killedAt = Date.now();
      console.log(`kill: worker 1 SIGKILLed at +${sec(killedAt - tBurst)} (${finalCount} verdicts in, ${busy} job(s) active)`);
      await sleep(1000);
      const again = await startPart('worker', 'worker 1 (restarted)', env, logDir, judge);
      parts.push(again);
      workers.push(again);
      restartedAt = Date.now();
      console.log(`kill: worker 1 started again at +${sec(restartedAt - tBurst)}`);
    }
    if (Date.now() - lastReport > 30_000) {
      lastReport = Date.now();
      const counts = await queues.matches.getJobCounts('waiting', 'prioritized', 'active');
      console.log(
        `  +${sec(Date.now() - tBurst)}: ${uploads.filter(Boolean).length} uploads answered, ${finalCount} verdicts, ` +
          `jobs waiting ${(counts['waiting'] ?? 0) + (counts['prioritized'] ?? 0)}, active ${counts['active'] ?? 0}, load ${loadText()}`,
      );
    }
    await sleep(500);
  }
  // At the time bound, uploads still waiting for their answer are counted as such, not waited for.
  if (Date.now() <= deadline) await uploadsDone;
  const pendingUploads = o.users - uploads.filter(Boolean).length;
  const tEnd = Date.now();
  polling = false;
  await Promise.all(pollers);
  await waitSampler;
  sampling = false;
  await sampler;
  await settleDecidedGates(
    db,
    uploads.filter((u) => u?.submissionId != null).map((u) => u.submissionId!),
  );
  await report(o, {
    db,
    logDir,
    uploads: uploads.filter(Boolean),
    pendingUploads,
    gets,
    peaks,
    cpuUsed,
    cpuAtStart,
    descendants: descendants(),
    active,
    redisBaseline,
    redisPeak,
    tBurst,
    tEnd,
    killedAt,
    workers: o.workers,
    runners: o.runners,
  });
}

/**
 * A gate decided by one of its matches can still have a later match being played beside it (a lookahead a free
 * runner took); that match's result is dropped when it comes. So the consistency check counts a decided
 * submission's match as left open only if it is still open two minutes after the last verdict.
 */
async function settleDecidedGates(db: FreshDatabase['db'], ids: number[], boundMs = 120_000): Promise<void> {
  const open = () =>
    db.match.count({
      where: { kind: 'gate', status: { in: ['queued', 'running'] }, submissionId: { in: ids }, submission: { status: { in: ['qualified', 'rejected'] } } },
    });
  const t0 = Date.now();
  const atFirst = await open();
  if (atFirst === 0) return;
  let left = atFirst;
  while (left > 0 && Date.now() - t0 < boundMs) {
    await sleep(500);
    left = await open();
  }
  console.log(
    `  after the last verdict: ${atFirst} gate match(es) of decided submissions were still being played; ` +
      `${left === 0 ? `all closed ${sec(Date.now() - t0)} later` : `${left} still open after ${sec(boundMs)}`}`,
  );
}

interface Observed {
  db: FreshDatabase['db'];
  logDir: string;
  uploads: Upload[];
  /** Uploads with no answer yet at the time bound. */
  pendingUploads: number;
  gets: GetStats;
  peaks: Map<string, MemoryPeaks>;
  /** CPU clock ticks each part used from the first upload to the last verdict: its own process, its reaped children. */
  cpuUsed: Map<string, { cpu: number; childCpu: number }>;
  /** Each part's CPU at its first sample (clock ticks): for the worker started again after the kill, its start. */
  cpuAtStart: Map<string, { cpu: number; childCpu: number }>;
  /** Every descendant of a part the samples saw (match processes, compilers, esbuild). */
  descendants: Descendant[];
  active: { at: number; busy: number }[];
  redisBaseline: number;
  redisPeak: number;
  tBurst: number;
  tEnd: number;
  killedAt: number | null;
  workers: number;
  runners: number;
}

async function report(o: Options, x: Observed): Promise<void> {
  const { db, uploads } = x;
  const subs = await db.submission.findMany({
    where: { game: o.game },
    select: { id: true, userId: true, status: true, reason: true, reasonDetail: true, createdAt: true, finishedAt: true },
  });
  const byId = new Map(subs.map((s) => [s.id, s]));
  const matches = await db.match.findMany({
    select: {
      id: true,
      kind: true,
      status: true,
      submissionId: true,
      gateStep: true,
      gateIndex: true,
      createdAt: true,
      finishedAt: true,
      durationMs: true,
      attempts: true,
    },
  });
  const gateOf = new Map<number, typeof matches>();
  for (const m of matches) {
    if (m.kind !== 'gate' || m.submissionId === null) continue;
    const list = gateOf.get(m.submissionId) ?? [];
    list.push(m);
    gateOf.set(m.submissionId, list);
  }

  console.log('');
  console.log('results:');
  // Uploads.
  const answered = uploads.map((u) => u.answeredAt - u.sentAt);
  const statusCounts = new Map<string, number>();
  for (const u of uploads) {
    const key = u.status === 202 ? `202 ${u.answered ?? '?'}` : `${u.status} ${u.code ?? ''}`.trim();
    statusCounts.set(key, (statusCounts.get(key) ?? 0) + 1);
  }
  const cppAnswers = uploads.filter((u) => u.file.filename.endsWith('.cc')).map((u) => u.answeredAt - u.sentAt);
  const tsAnswers = uploads.filter((u) => u.file.filename.endsWith('.ts')).map((u) => u.answeredAt - u.sentAt);
  console.log(`  upload answer: ${spread(answered, msText)}`);
  console.log(`    TypeScript ${spread(tsAnswers, msText)}; C++ ${spread(cppAnswers, msText)}`);
  console.log(`    answers: ${[...statusCounts].map(([k, n]) => `${k} x${n}`).join(', ')}`);
  // Where the API spent an upload's time, from its log ('submission stored': tookMs by phase).
  const phases = new Map<string, number[]>();
  for (const line of readFileSync(join(x.logDir, 'api.log'), 'utf8').split('\n')) {
    if (!line.includes('"submission stored"')) continue;
    try {
      const took = (JSON.parse(line) as { tookMs?: Record<string, number> }).tookMs ?? {};
      for (const [phase, ms] of Object.entries(took)) phases.set(phase, [...(phases.get(phase) ?? []), ms]);
    } catch {}
  }
  console.log(
    `    in the API (stored uploads, by phase): ${
      phases.size
        ? [...phases].map(([phase, ms]) => `${phase} p50 ${msText(quantile(ms, 0.5))} p95 ${msText(quantile(ms, 0.95))}`).join('; ')
        : 'n/a (its "submission stored" lines say no tookMs)'
    }`,
  );

  // The compile verdict: the upload's refusal, else the end of the gate's compile step (the self-play match made, or the rejection for it).
  const compileVerdict = (u: Upload): number | null => {
    if (u.submissionId === null) return u.code === 'compile-error' ? u.answeredAt : null;
    const s = byId.get(u.submissionId);
    if (!s) return null;
    const selfplay = gateOf.get(s.id)?.find((m) => m.gateStep === 'selfplay');
    if (selfplay) return selfplay.createdAt.getTime();
    const code = (s.reasonDetail as { code?: string } | null)?.code;
    if (s.status === 'rejected' && code === 'compile-error' && s.finishedAt) return s.finishedAt.getTime();
    return null;
  };
  const compileTimes = (pred: (u: Upload) => boolean) =>
    uploads
      .filter(pred)
      .map((u) => {
        const at = compileVerdict(u);
        return at === null ? null : at - u.sentAt;
      })
      .filter((v): v is number => v !== null);
  console.log(
    `  upload to compile verdict: TypeScript ${spread(
      compileTimes((u) => u.file.kind.startsWith('ts') && !u.file.kind.endsWith('broken')),
      sec,
    )}`,
  );
  console.log(
    `    C++ ${spread(
      compileTimes((u) => u.file.kind === 'cpp'),
      sec,
    )}`,
  );
  console.log(
    `    broken files (when the student learns it): ${spread(
      compileTimes((u) => u.file.kind.endsWith('broken')),
      sec,
    )}`,
  );

  // Verdicts.
  const verdictAt = (u: Upload): number | null => {
    if (u.submissionId === null) return u.status >= 400 && u.status < 500 ? u.answeredAt : null;
    const s = byId.get(u.submissionId);
    return s && FINAL.has(s.status) && s.finishedAt ? s.finishedAt.getTime() : null;
  };
  const verdicts = uploads.map(verdictAt).filter((v): v is number => v !== null);
  const firstUpload = Math.min(...uploads.map((u) => u.sentAt));
  const lastVerdict = verdicts.length ? Math.max(...verdicts) : Number.NaN;
  const elapsed = lastVerdict - firstUpload;
  const runnersTotal = x.workers * x.runners;
  const perUpload = uploads.map((u) => {
    const at = verdictAt(u);
    return at === null ? null : at - u.sentAt;
  });
  console.log(
    `  upload to verdict: ${spread(
      perUpload.filter((v): v is number => v !== null),
      sec,
    )}`,
  );
  console.log(
    `  last verdict ${sec(elapsed)} after the first upload (${(elapsed / 60_000).toFixed(1)} min); ${verdicts.length} verdicts of ${uploads.length} uploads, ` +
      `${(verdicts.length / (elapsed / 60_000)).toFixed(1)} a minute, ${(verdicts.length / (runnersTotal * (elapsed / 60_000))).toFixed(2)} per runner-minute (${runnersTotal} runners)`,
  );
  const outcome = new Map<string, number>();
  for (const u of uploads) {
    const s = u.submissionId !== null ? byId.get(u.submissionId) : null;
    const key = `${u.file.kind} ${s ? s.status : `refused at upload (${u.code ?? u.status})`}`;
    outcome.set(key, (outcome.get(key) ?? 0) + 1);
  }
  console.log(
    `    verdicts: ${[...outcome]
      .sort()
      .map(([k, n]) => `${k} x${n}`)
      .join(', ')}`,
  );

  // The estimates: what a waiting submission's page said against the wait it really had (to its verdict).
  const realWait = (w: WaitSample) => {
    const s = byId.get(w.submissionId);
    return s && FINAL.has(s.status) && s.finishedAt ? s.finishedAt.getTime() - w.at : null;
  };
  const judged = x.gets.waits.map((w) => ({ w, real: realWait(w) })).filter((e): e is { w: WaitSample; real: number } => e.real !== null && e.real > 0);
  const within = (es: typeof judged) => es.filter(({ w, real }) => Math.abs(w.seconds * 1000 - real) <= 0.5 * real).length;
  const ratio = (es: typeof judged) => es.map(({ w, real }) => (w.seconds * 1000) / real);
  const firsts = judged.filter((e) => e.w.first);
  writeFileSync(join(x.logDir, 'wait-estimates.json'), JSON.stringify(judged.map(({ w, real }) => ({ ...w, at: w.at - x.tBurst, real }))));
  const share = (es: typeof judged) => (es.length ? `${((100 * within(es)) / es.length).toFixed(0)}% within ±50%` : 'none');
  if (x.gets.waits.length === 0)
    console.log("  wait estimates: n/a (no estimate: the judge's GET /api/submissions/:id has no wait, and the sampler asks only this tree's judge)");
  else
    console.log(
      `  wait estimates (GET /api/submissions/:id right after the upload, then submissionWait while the gate waits, against the real wait to the verdict): right after the upload ${share(firsts)} ` +
        `(estimate/real ${spread(ratio(firsts), (r) => r.toFixed(2))}); every sample ${share(judged)} (${spread(ratio(judged), (r) => r.toFixed(2))}); samples in ${join(x.logDir, 'wait-estimates.json')}`,
    );

  // Runners.
  const inWindow = x.active.filter((a) => a.at >= firstUpload && a.at <= lastVerdict);
  const meanBusy = inWindow.length ? inWindow.reduce((a, b) => a + Math.min(b.busy, runnersTotal), 0) / inWindow.length : Number.NaN;
  const window = matches.filter((m) => m.finishedAt && m.finishedAt.getTime() >= firstUpload && m.finishedAt.getTime() <= lastVerdict);
  const matchWall = window.reduce((a, m) => a + (m.durationMs ?? 0), 0);
  const gateWall = window.filter((m) => m.kind === 'gate').map((m) => m.durationMs ?? 0);
  console.log(
    `  runner use: ${((100 * meanBusy) / runnersTotal).toFixed(0)}% busy (BullMQ active jobs, compiles included, sampled every 250 ms); ` +
      `match wall time recorded ${((100 * matchWall) / (runnersTotal * elapsed)).toFixed(0)}% of runners x elapsed`,
  );
  console.log(
    `    matches finished in the window: ${window.length} (${window.filter((m) => m.kind === 'gate').length} gate, ${window.filter((m) => m.kind === 'ranked').length} ranked); gate match wall ${spread(gateWall, sec)}`,
  );

  // GETs.
  const allGets = [...x.gets.latencies.values()].flat();
  console.log(
    `  GET: ${allGets.length} requests, p50 ${msText(quantile(allGets, 0.5))}, p99 ${msText(quantile(allGets, 0.99))}, max ${msText(Math.max(...allGets))}; 5xx ${x.gets.fiveXX}, no answer ${x.gets.failed}${x.gets.other.size ? `, other ${[...x.gets.other].map(([s, n]) => `${s} x${n}`).join(', ')}` : ''}`,
  );
  for (const [label, list] of [...x.gets.latencies].sort())
    console.log(`    ${label.padEnd(30)} p50 ${msText(quantile(list, 0.5))}, p99 ${msText(quantile(list, 0.99))} (${list.length})`);

  // Memory.
  console.log('  peak RSS (sampled every 250 ms; descendants: match processes, compilers):');
  for (const [name, p] of x.peaks)
    console.log(`    ${name.padEnd(22)} process ${mib(p.own)}, descendants ${mib(p.children)} together (largest ${mib(p.largestChild)}), tree ${mib(p.tree)}`);
  console.log(
    `  Redis used_memory: peak ${mib(x.redisPeak)}, ${mib(x.redisPeak - x.redisBaseline)} above the start (a shared server: other users' keys count too)`,
  );

  // CPU: independent of the machine's load, unlike the seconds above.
  const ticks = (t: number) => `${(t / 100).toFixed(1)} s`;
  const gets = allGets.length;
  console.log(
    `  CPU from the first upload to the end (own process; reaped children): ${[...x.cpuUsed]
      .map(([name, c]) => `${name} ${ticks(c.cpu)}${c.childCpu ? ` (+${ticks(c.childCpu)})` : ''}`)
      .join(', ')}`,
  );
  // The runners' CPU per verdict: every worker's tree (its own process, the children it reaped, the match
  // processes and compile servers alive at the end), what a verdict really costs whatever the machine's load.
  const checkPids = loggedCheckPids(x.logDir);
  let workerTicks = 0;
  let matchTicks = 0;
  for (const name of x.cpuUsed.keys()) {
    if (!name.startsWith('worker')) continue;
    const t = treeCpu(x, name, checkPids);
    workerTicks += t.total;
    matchTicks += t.kinds.get('match') ?? 0;
  }
  const allTicks = [...x.cpuUsed.keys()].reduce((a, name) => a + treeCpu(x, name, checkPids).total, 0);
  const played = readdirSync(x.logDir)
    .filter((f) => f.startsWith('worker'))
    .reduce(
      (n, f) =>
        n +
        readFileSync(join(x.logDir, f), 'utf8')
          .split('\n')
          .filter((l) => l.includes('"msg":"match end"')).length,
      0,
    );
  const storedGate = matches.filter((m) => m.kind === 'gate' && m.status === 'done').length;
  const nVerdicts = Math.max(1, verdicts.length);
  console.log(
    `  runner CPU: ${ticks(workerTicks)} in the workers' trees (${ticks(matchTicks)} in match processes), ${(workerTicks / 100 / nVerdicts).toFixed(2)} s a verdict ` +
      `(every part: ${(allTicks / 100 / nVerdicts).toFixed(2)} s a verdict); matches played ${played} (worker logs), gate matches kept ${storedGate}, ` +
      `${played - storedGate - window.filter((m) => m.kind !== 'gate').length} played and not kept (a gate's Dummy matches beside its deciding loss, the killed worker's)`,
  );
  const apiCpu = x.cpuUsed.get('api');
  if (apiCpu)
    console.log(
      `    the API: ${((apiCpu.cpu * 10) / Math.max(1, uploads.length + gets)).toFixed(1)} ms of its own CPU per request (${uploads.length} uploads, ${gets} GETs)`,
    );

  // What the parts logged as errors.
  for (const file of readdirSync(x.logDir).sort()) {
    const errors = loggedErrors(join(x.logDir, file));
    if (errors.length === 0) continue;
    const total = errors.reduce((a, [, n]) => a + n, 0);
    console.log(
      `  ${file}: ${total} error line(s): ${errors
        .slice(0, 3)
        .map(([m, n]) => `${n} x "${m}"`)
        .join('; ')}`,
    );
  }

  // Storage.
  const [stored] = await db.$queryRawUnsafe<{ matches: bigint; replay_bytes: bigint; tables: bigint }[]>(
    `SELECT (SELECT count(*) FROM "Match") AS matches, (SELECT coalesce(sum("sizeBytes"), 0) FROM "Replay") AS replay_bytes,
            pg_total_relation_size('"Match"') + pg_total_relation_size('"Participant"') + pg_total_relation_size('"Replay"') AS tables`,
  );
  const storedMatches = Number(stored!.matches);
  console.log(
    `  storage: ${storedMatches} matches, replay ${(Number(stored!.replay_bytes) / Math.max(1, storedMatches) / 1024).toFixed(1)} KiB a match, ` +
      `${(Number(stored!.tables) / Math.max(1, storedMatches) / 1024).toFixed(1)} KiB a match with its rows and indexes (Match, Participant, Replay)`,
  );

  // Consistency.
  const problems: string[] = [];
  const accepted = uploads.filter((u) => u.submissionId !== null);
  const stuck = accepted.filter((u) => !FINAL.has(byId.get(u.submissionId!)?.status ?? 'missing'));
  if (stuck.length)
    problems.push(
      `${stuck.length} submission(s) without a verdict: ${stuck.map((u) => `#${u.submissionId} ${byId.get(u.submissionId!)?.status ?? 'missing'}`).join(', ')}`,
    );
  if (x.pendingUploads > 0) problems.push(`${x.pendingUploads} upload(s) still waiting for their answer at the time bound`);
  const unanswered = new Map<string, number>();
  for (const u of uploads.filter((u) => u.status === 0 || u.status >= 500)) {
    const key = u.status === 0 ? (u.code ?? 'no answer') : `${u.status}`;
    unanswered.set(key, (unanswered.get(key) ?? 0) + 1);
  }
  if (unanswered.size) problems.push(`uploads not answered or answered 5xx: ${[...unanswered].map(([k, n]) => `${k} x${n}`).join(', ')}`);
  const perUser = new Map<number, number>();
  for (const s of subs) perUser.set(s.userId, (perUser.get(s.userId) ?? 0) + 1);
  const twice = [...perUser].filter(([, n]) => n > 1);
  if (twice.length) problems.push(`${twice.length} student(s) with more than one submission (each uploaded once)`);
  if (subs.length !== accepted.length) problems.push(`${subs.length} submission rows for ${accepted.length} uploads answered 202`);
  const notStored = accepted.filter((u) => !byId.has(u.submissionId!));
  if (notStored.length) problems.push(`${notStored.length} upload(s) answered 202 with no row`);
  for (const s of subs) {
    const gate = gateOf.get(s.id) ?? [];
    const selfplay = gate.filter((m) => m.gateStep === 'selfplay');
    const dummy = gate.filter((m) => m.gateStep === 'dummy');
    const indexes = new Set(dummy.map((m) => m.gateIndex));
    if (selfplay.length > 1) problems.push(`submission ${s.id}: ${selfplay.length} self-play matches`);
    if (dummy.length > GATE_DUMMY_MATCHES || indexes.size !== dummy.length)
      problems.push(`submission ${s.id}: ${dummy.length} dummy matches (indexes ${[...indexes].join(',')})`);
    if (s.status === 'qualified' && (selfplay.length !== 1 || dummy.length !== GATE_DUMMY_MATCHES || gate.some((m) => m.status !== 'done')))
      problems.push(`submission ${s.id}: qualified with ${selfplay.length} self-play and ${dummy.length} dummy matches`);
    if (s.status === 'rejected' && !s.reason) problems.push(`submission ${s.id}: rejected without a reason`);
    if (FINAL.has(s.status) && !s.finishedAt) problems.push(`submission ${s.id}: ${s.status} without finishedAt`);
    const open = gate.filter((m) => m.status === 'queued' || m.status === 'running');
    if (FINAL.has(s.status) && open.length)
      problems.push(`submission ${s.id}: ${s.status} with gate match(es) ${open.map((m) => `${m.id} ${m.status}`).join(', ')} left open`);
  }
  const failed = matches.filter((m) => m.status === 'failed');
  const retried = matches.filter((m) => m.attempts > 1);
  const openRanked = matches.filter((m) => m.kind !== 'gate' && (m.status === 'queued' || m.status === 'running'));
  console.log(
    `  consistency: ${problems.length === 0 ? 'ok' : `${problems.length} problem(s)`}; ${subs.length} rows for ${accepted.length} uploads answered 202, ` +
      `${accepted.length - stuck.length} of them with a verdict; ` +
      `${failed.length} match(es) failed, ${retried.length} played more than once${x.killedAt !== null ? ' (the killed worker)' : ''}, ` +
      `${openRanked.length} ranked match(es) still queued or running (ranked play goes on)`,
  );
  for (const p of problems.slice(0, 20)) console.log(`    PROBLEM: ${p}`);
  if (problems.length > 20) console.log(`    ... and ${problems.length - 20} more`);
  // Before a consistency problem stops the report: the CPU went where it went either way.
  await reportRunnerCpu(o, x, Math.max(1, verdicts.length));
  if (problems.length > 0) throw new Error(`burst: ${problems.length} consistency problem(s) (above)`);
}

// ---------------------------------------------------------------- where a verdict's runner CPU goes

/** The pids of the checks' processes (checkPool's) the workers logged with each check ("compile check done"). */
function loggedCheckPids(logDir: string): Set<number> {
  const pids = new Set<number>();
  for (const f of readdirSync(logDir).filter((f) => f.startsWith('worker')))
    for (const l of readFileSync(join(logDir, f), 'utf8').split('\n')) {
      if (!l.includes('"msg":"compile check done"')) continue;
      try {
        for (const pid of (JSON.parse(l) as { checkPids?: number[] }).checkPids ?? []) pids.add(pid);
      } catch {}
    }
  return pids;
}

type TreeKind = ProcessKind | 'check';

/**
 * A part's tree's CPU in the burst (clock ticks), by what used it: its own process; each kind of descendant
 * (a match process is a check's if the workers logged its pid with a check), alive at the end (from its first
 * sample to its last) or exited and reaped by the part (as last seen); what the part reaped beyond what the
 * samples saw of its children (children that lived between two samples, the ends of those that exited); and,
 * left out of the total, what the children it reaped in the burst had used before it (processes started
 * before the part's first sample: the match processes it started before the burst and replaced in it).
 */
function treeCpu(
  x: Observed,
  part: string,
  checkPids: Set<number>,
): { own: number; reaped: number; preBurst: number; unseen: number; kinds: Map<TreeKind, number>; born: Map<TreeKind, number>; total: number } {
  const c = x.cpuUsed.get(part) ?? { cpu: 0, childCpu: 0 };
  const kinds = new Map<TreeKind, number>();
  const born = new Map<TreeKind, number>();
  let preBurst = 0;
  let exitedLast = 0;
  for (const d of x.descendants) {
    if (d.part !== part) continue;
    const kind: TreeKind = d.kind === 'match' && checkPids.has(d.pid) ? 'check' : d.kind;
    if (d.bornInBurst) born.set(kind, (born.get(kind) ?? 0) + 1);
    if (d.live) kinds.set(kind, (kinds.get(kind) ?? 0) + d.last - d.first);
    else if (d.direct) {
      // Reaped by the part: all of it is in the part's childCpu, what it had used before the burst too.
      kinds.set(kind, (kinds.get(kind) ?? 0) + d.last - d.first);
      preBurst += d.first;
      exitedLast += d.last;
    }
    // An exited grandchild is in its parent's figure (reaped into it).
  }
  // (Below 0 only when a child exited and was not reaped yet at the last sample.)
  const unseen = Math.max(0, c.childCpu - exitedLast);
  const total = c.cpu + unseen + [...kinds.values()].reduce((a, t) => a + t, 0);
  return { own: c.cpu, reaped: c.childCpu, preBurst, unseen, kinds, born, total };
}

/** A worker's "match end" line: the seats' names, each seat's CPU, the match process's. */
interface MatchEndLine {
  kind?: string;
  seats: string[];
  cpuMs?: number[];
  processCpuMs?: number | null;
}

/** The built-in the gate plays against: its seats are the judge's, every other seat a student's. */
const GATE_OPPONENT_NAME = 'Dummy';

/**
 * The runners' CPU of the burst split by what it went to: the student bots' own CPU (the floor: it is
 * theirs whatever the judge does) against the judge's share (compiles and checks, Dummies, the engine,
 * the match processes' and workers' own work). From the workers' "match end" lines (each seat's CPU and
 * the match process's for the match), the workers' process trees, and the engine timed here on a sample
 * of the stored gate matches (the same calls a match makes: create, then view, next, frame, scores and
 * counters each round; and the replay's encoding).
 */
async function reportRunnerCpu(o: Options, x: Observed, nVerdicts: number): Promise<void> {
  const ticksMs = (t: number) => t * 10;
  const checkPids = loggedCheckPids(x.logDir);
  let workerOwn = 0;
  let unseen = 0;
  let preBurst = 0;
  let tree = 0;
  const byKind = new Map<TreeKind, number>();
  const born = new Map<TreeKind, number>();
  for (const name of x.cpuUsed.keys()) {
    if (!name.startsWith('worker')) continue;
    const t = treeCpu(x, name, checkPids);
    workerOwn += ticksMs(t.own);
    unseen += ticksMs(t.unseen);
    preBurst += ticksMs(t.preBurst);
    tree += ticksMs(t.total);
    for (const [k, v] of t.kinds) byKind.set(k, (byKind.get(k) ?? 0) + ticksMs(v));
    for (const [k, v] of t.born) born.set(k, (born.get(k) ?? 0) + v);
  }
  const kindMs = (k: TreeKind) => byKind.get(k) ?? 0;
  const kinds = {
    selfplay: { n: 0, proc: 0, student: 0, dummy: 0 },
    dummy: { n: 0, proc: 0, student: 0, dummy: 0 },
    other: { n: 0, proc: 0, student: 0, dummy: 0 },
  };
  const compiles = { cpp: 0, cppMs: 0, other: 0 };
  // The precompiled headers the workers built in the burst (a worker started again builds those not on the disk).
  const pch = { n: 0, cpuMs: 0 };
  for (const f of readdirSync(x.logDir).filter((f) => f.startsWith('worker'))) {
    for (const l of readFileSync(join(x.logDir, f), 'utf8').split('\n')) {
      if (l.includes('"msg":"precompiled header built"')) {
        try {
          // pino's time: epoch milliseconds, or an ISO string (the judge's own logger).
          const b = JSON.parse(l) as { time?: number | string; cpuMs?: number };
          if (new Date(b.time ?? 0).getTime() >= x.tBurst) {
            pch.n++;
            pch.cpuMs += b.cpuMs ?? 0;
          }
        } catch {}
        continue;
      }
      if (l.includes('"msg":"compile check done"')) {
        try {
          const c = JSON.parse(l) as { compileCpuMs?: number | null };
          if (typeof c.compileCpuMs === 'number') {
            compiles.cpp++;
            compiles.cppMs += c.compileCpuMs;
          } else compiles.other++;
        } catch {}
        continue;
      }
      if (!l.includes('"msg":"match end"')) continue;
      let m: MatchEndLine;
      try {
        m = JSON.parse(l) as MatchEndLine;
      } catch {
        continue;
      }
      if (!Array.isArray(m.cpuMs) || typeof m.processCpuMs !== 'number') continue;
      const judge = m.seats.map((s) => s === GATE_OPPONENT_NAME);
      const gate = m.kind === 'gate';
      const k = !gate ? kinds.other : judge.every((j) => !j) && new Set(m.seats).size === 1 ? kinds.selfplay : kinds.dummy;
      k.n++;
      k.proc += m.processCpuMs;
      m.cpuMs.forEach((ms, seat) => (judge[seat] ? (k.dummy += ms) : (k.student += ms)));
    }
  }
  const toolchains = new Set<string>();
  for (const f of readdirSync(x.logDir).filter((f) => f.startsWith('worker')))
    for (const m of readFileSync(join(x.logDir, f), 'utf8').matchAll(/"toolchain":"(\w+)"|C\+\+ compiles use the (system) clang/g))
      toolchains.add(m[1] ?? m[2]!);
  console.log(`  C++ toolchain of the workers (their logs): ${toolchains.size ? [...toolchains].join(', ') : 'n/a (not logged)'}`);
  const all = [kinds.selfplay, kinds.dummy, kinds.other];
  const sum = (f: (k: (typeof all)[number]) => number) => all.reduce((a, k) => a + f(k), 0);
  const matchesN = sum((k) => k.n);
  if (matchesN === 0) {
    console.log(`  runner CPU by part: n/a (no "match end" line with the seats' CPU in the workers' logs)`);
    return;
  }
  const procAll = sum((k) => k.proc);
  const studentAll = sum((k) => k.student);
  const dummyAll = sum((k) => k.dummy);
  const engine = await engineCpuPerMatch(x.db, o.game);
  const engineAll = engine ? engine.engineMs * matchesN : 0;
  const encodeAll = engine ? engine.encodeMs * matchesN : 0;
  const inMatchRest = procAll - studentAll - dummyAll - engineAll - encodeAll;
  // Outside the matches' own CPU: the compilers (clang, esbuild), the checks' loads, the match processes'
  // starts and their time between matches, the workers' own processes. clang's CPU (compileCpuMs, exact: the
  // children's rusage) is in the npm toolchain's compile servers, or with the system clang in the shells the
  // worker reaps, which live less than a sample apart: in what the samples did not see.
  const outside = tree - procAll;
  const serversMs = kindMs('compile-server');
  const npm = serversMs > 0;
  const serversBeyond = serversMs - (npm ? compiles.cppMs : 0);
  const unseenBeyond = unseen + kindMs('compile') - (npm ? 0 : compiles.cppMs);
  const matchProcsBeyond = kindMs('match') - procAll;
  const perVerdict = (ms: number) => `${(ms / 1000 / nVerdicts).toFixed(2)} s`;
  const pct = (ms: number) => `${Math.round((100 * ms) / Math.max(1, tree))}%`;
  const line = (label: string, ms: number) => console.log(`    ${label.padEnd(58)} ${perVerdict(ms).padStart(7)} a verdict  ${pct(ms).padStart(4)}`);
  console.log(
    `  runner CPU by part (${(tree / 1000).toFixed(1)} s in the workers' trees, ${perVerdict(tree)} a verdict, ${nVerdicts} verdicts; ` +
      `${matchesN} matches logged: ${kinds.selfplay.n} self-play, ${kinds.dummy.n} against Dummies${kinds.other.n ? `, ${kinds.other.n} ranked` : ''}):`,
  );
  line('the floor: the student bots own CPU (metered calls)', studentAll);
  line(`  in self-play (${kinds.selfplay.n} matches)`, kinds.selfplay.student);
  line(`  in Dummy matches (${kinds.dummy.n})`, kinds.dummy.student);
  if (kinds.other.n) line(`  in other matches (${kinds.other.n}, ranked)`, kinds.other.student);
  line("the judge's share", tree - studentAll);
  line('  Dummies (their calls, metered)', dummyAll);
  if (engine) {
    line(`  the engine (${engine.engineMs.toFixed(0)} ms a match, timed here on ${engine.sample})`, engineAll);
    line(`  replay encoding (${engine.encodeMs.toFixed(0)} ms a match, timed here)`, encodeAll);
  }
  line(`  the rest of the matches (isolates, loads, calls, GC)`, inMatchRest);
  line(`  C++ compiles (clang's CPU, ${compiles.cpp} in the checks)`, compiles.cppMs);
  line(`  the checks' loads (checkPool's processes, ${born.get('check') ?? 0} started; ${compiles.other} checks not compiled here)`, kindMs('check'));
  line(`  match processes beyond their matches (${born.get('match') ?? 0} started: start, between)`, matchProcsBeyond);
  if (npm) line(`  compile servers beyond the compiles (${born.get('compile-server') ?? 0} started)`, serversBeyond);
  line("  esbuild's service (TypeScript checks', matches' bundles)", kindMs('esbuild'));
  line(`  other children (${born.get('other') ?? 0} seen started)`, kindMs('other'));
  line(`  children between samples (short-lived: probes, ends)${npm ? '' : ', beyond clang'}`, unseenBeyond);
  line('  the workers own processes (queue, IPC, results)', workerOwn);
  if (pch.n) console.log(`    of which precompiled headers built in the burst: ${pch.n}, ${(pch.cpuMs / 1000).toFixed(1)} s of clang's CPU`);
  // The worker started again after the kill: what it and its children had used before its first sample (its start,
  // the match processes it starts at once) is a cost of the kill, in no line above.
  let restart = 0;
  for (const [name, c] of x.cpuAtStart) {
    if (!name.startsWith('worker') || !name.includes('restarted')) continue;
    restart += ticksMs(c.cpu + c.childCpu);
    for (const d of x.descendants) if (d.part === name && !d.bornInBurst) restart += ticksMs(d.first);
  }
  console.log(
    `    left out: ${(preBurst / 1000).toFixed(1)} s the workers reaped in the burst that their children had used before it (started before the first sample); ` +
      `${(restart / 1000).toFixed(1)} s the restarted worker's start before its first sample (its process and the children it started)`,
  );
  console.log(
    `    per match: self-play ${perMatch(kinds.selfplay)}; against Dummies ${perMatch(kinds.dummy)} (match process, student bots, Dummies, ms); ` +
      `outside the matches ${perVerdict(outside)} a verdict`,
  );
}

function perMatch(k: { n: number; proc: number; student: number; dummy: number }): string {
  if (k.n === 0) return 'none';
  return `${Math.round(k.proc / k.n)}, ${Math.round(k.student / k.n)}, ${Math.round(k.dummy / k.n)}`;
}

/**
 * The engine's CPU a match (and its replay's encoding), timed in this process on up to 24 stored gate
 * matches after a warm-up on the first few: the same calls MatchRun makes, replayed from the recorded orders.
 */
async function engineCpuPerMatch(db: FreshDatabase['db'], gameId: string): Promise<{ engineMs: number; encodeMs: number; sample: number } | null> {
  const { getGame } = await import('../src/games/registry.ts');
  const { decodeReplay, encodeReplay } = await import('../src/match/replay-io.ts');
  const { isOver } = await import('../src/sdk/types.ts');
  const game = await getGame(gameId);
  const rows = await db.replay.findMany({ where: { match: { kind: 'gate', status: 'done' } }, select: { data: true }, take: 30, orderBy: { matchId: 'asc' } });
  const cpu = () => {
    const c = process.cpuUsage();
    return (c.user + c.system) / 1000;
  };
  let engineMs = 0;
  let encodeMs = 0;
  let timed = 0;
  for (const [i, row] of rows.entries()) {
    const replay = decodeReplay(Buffer.from(row.data));
    const t0 = cpu();
    const config = game.parseConfig(replay.config);
    let state = game.create(config, replay.seed);
    game.frame(state);
    for (let r = 1; r < replay.rounds.length && !isOver(game, config, state); r++) {
      const rec = replay.rounds[r]!;
      game.encodeView(state);
      state = game.next(state, rec.orders, rec.frozen).state;
      game.frame(state);
      game.scores(state);
      game.counters(state);
    }
    const t1 = cpu();
    encodeReplay(replay);
    const t2 = cpu();
    // The first few warm the JIT up, as a match process's first matches do.
    if (i < 6) continue;
    engineMs += t1 - t0;
    encodeMs += t2 - t1;
    timed++;
  }
  return timed === 0 ? null : { engineMs: engineMs / timed, encodeMs: encodeMs / timed, sample: timed };
}
