// `npm run bench play-flood`: one student looping C++ compiles on the play
// page from eight fresh accounts at one address, and an honest ninth account
// at another address compiling the C++ Demo meanwhile: the honest compile's
// delay to its answer (and how often it is refused) alone, under the flood
// with the per-address bounds (the defaults: PLAY_COMPILES_RUNNING_PER_IP=2),
// and under the flood without them (what one student's accounts could do
// before), in one run, the three interleaved round after round. The compiles
// run in the play lane's compile server (a child process), so the API here is
// in-process. Knobs: BENCH_FLOOD_ROUNDS (2), BENCH_FLOOD_HONEST (3 compiles a
// phase). The toolchain: system clang when there is one (ARBITER_CPP_CLANG=npm
// for @yowasp/clang).

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createDb, migrate, closeDb } from '../src/db/client.ts';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/http/app.ts';
import { findSystemClang, resetCppCompileSettings, stopCompileServer } from '../src/sandbox/languages/cpp/toolchain.ts';

const ROUNDS = Number(process.env.BENCH_FLOOD_ROUNDS ?? 2);
const HONEST = Number(process.env.BENCH_FLOOD_HONEST ?? 3);
const FLOODERS = 8;
const FLOOD_IP = '10.66.0.1';
const HONEST_IP = '10.66.0.2';

const demo = readFileSync(new URL('../src/games/moria/cpp/AIDemo.cc', import.meta.url), 'utf8');
let unique = 0;
/** The C++ Demo as a file no compile has seen. */
const freshDemo = () => `// GAME: moria\n${demo}\n// ${process.pid} ${++unique}\n`;

type Phase = 'alone' | 'flood, per-address bounds' | 'flood, no per-address bounds';

async function signUp(app: FastifyInstance, username: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/users', payload: { username, password: 'bench password' } });
  if (res.statusCode !== 201) throw new Error(`sign-up ${username}: ${res.statusCode} ${res.body}`);
  const token = await app.inject({ method: 'POST', url: '/api/tokens', payload: { username, password: 'bench password' } });
  return `Bearer ${token.json().token as string}`;
}

const compile = (app: FastifyInstance, auth: string, remoteAddress: string) =>
  app.inject({
    method: 'POST',
    url: '/api/play/compile',
    remoteAddress,
    headers: { authorization: auth },
    payload: { filename: 'AIDemo.cc', source: freshDemo() },
  });

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : Number.NaN;
};

export async function run(): Promise<void> {
  const toolchain = process.env['ARBITER_CPP_CLANG'] === 'npm' || !findSystemClang() ? 'npm' : 'system';
  const cacheDir = mkdtempSync(join(tmpdir(), 'arbiter-bench-flood-'));
  resetCppCompileSettings({ cacheDir, toolchain });
  const db = await createDb({ databaseUrl: null, dataDir: 'memory://' });
  await migrate(db);
  const base = { RATE_LIMIT_SIGNUP: '1000', RATE_LIMIT_SUBMIT: '1000' };
  const bounded = await buildApp({ config: loadConfig(base), db, queues: null, logger: false });
  const unbounded = await buildApp({
    config: loadConfig({ ...base, PLAY_COMPILES_RUNNING_PER_IP: '10000', PLAY_COMPILE_CPU_SECONDS_PER_HOUR_PER_IP: '10000000' }),
    db,
    queues: null,
    logger: false,
  });
  console.log(`machine: ${availableParallelism()} cores, load ${loadavg()[0]!.toFixed(2)} at start; toolchain ${toolchain}`);
  try {
    const flooders: string[] = [];
    for (let i = 0; i < FLOODERS; i++) flooders.push(await signUp(bounded, `flood${i}`));
    const honest = await signUp(bounded, 'honest');
    // Warm the play lane's compile server (its first compile pays the start).
    await compile(bounded, honest, HONEST_IP);

    const delays: Record<Phase, number[]> = { alone: [], 'flood, per-address bounds': [], 'flood, no per-address bounds': [] };
    const refused: Record<Phase, string[]> = { alone: [], 'flood, per-address bounds': [], 'flood, no per-address bounds': [] };
    const floodAnswers: Record<string, number> = {};
    for (let round = 0; round < ROUNDS; round++) {
      for (const phase of ['alone', 'flood, per-address bounds', 'flood, no per-address bounds'] as Phase[]) {
        const app = phase === 'flood, no per-address bounds' ? unbounded : bounded;
        let flooding = phase !== 'alone';
        // Each fresh account loops: a compile, and the next as soon as it is answered.
        const loops = flooding
          ? flooders.map(async (auth) => {
              while (flooding) {
                const r = await compile(app, auth, FLOOD_IP);
                // A refusal by the route's own rate limit (60 a minute per user) carries no code of ours: its status says it.
                const key = `${phase}: ${r.statusCode === 200 ? 'compiled' : `${r.statusCode} ${(r.json() as { code?: string }).code ?? 'rate-limited'}`}`;
                floodAnswers[key] = (floodAnswers[key] ?? 0) + 1;
                // A refused compile is tried again at once, as a loop in a browser would.
                if (r.statusCode !== 200) await new Promise((ok) => setTimeout(ok, 50));
              }
            })
          : [];
        if (flooding) await new Promise((ok) => setTimeout(ok, 1500));
        for (let i = 0; i < HONEST; i++) {
          const t = performance.now();
          const r = await compile(app, honest, HONEST_IP);
          const ms = performance.now() - t;
          if (r.statusCode === 200) delays[phase].push(ms);
          else refused[phase].push(`${r.statusCode} ${r.json().code}`);
        }
        flooding = false;
        await Promise.all(loops);
        console.log(
          `round ${round + 1}, ${phase}: ${delays[phase]
            .slice(-HONEST)
            .map((ms) => `${ms.toFixed(0)} ms`)
            .join(', ')}${refused[phase].length ? `; refused so far ${refused[phase].length} (${[...new Set(refused[phase])].join(', ')})` : ''}`,
        );
      }
    }
    const alone = median(delays.alone);
    for (const phase of Object.keys(delays) as Phase[]) {
      const d = delays[phase];
      const m = median(d);
      console.log(
        `${phase.padEnd(30)} honest C++ compile: median ${m.toFixed(0)} ms (${(m / alone).toFixed(2)}x alone), max ${Math.max(...d, 0).toFixed(0)} ms, ` +
          `${d.length} answered, ${refused[phase].length} refused${refused[phase].length ? ` (${[...new Set(refused[phase])].join(', ')})` : ''}`,
      );
    }
    console.log(
      `the flood's answers: ${Object.entries(floodAnswers)
        .map(([k, n]) => `${k} ${n}`)
        .join('; ')}`,
    );
  } finally {
    await bounded.close();
    await unbounded.close();
    await closeDb(db);
    stopCompileServer();
    rmSync(cacheDir, { recursive: true, force: true });
  }
}
