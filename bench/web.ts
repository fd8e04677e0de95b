// The website's figures (`npm run bench web`):
// - page weight: each main page's HTML plus the styles and scripts it loads
//   (the viewer's game code included on a match page), raw and gzipped,
//   against a goal of 300 KB per page before replay data;
// - the viewer's drawing cost per game: each game's view draws every round
//   of a real match (Demo, Dummy, Demo, Null, seed 7) on a 900 px canvas at
//   device pixel ratio 1 and 2 in Debian's Chromium (software rendering).
// Needs Postgres on 127.0.0.1 (BENCH_DATABASE_URL) and a Chromium (scripts/chromium.ts).

import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { findChromium } from '../scripts/chromium.ts';
import { createDb, migrate, closeDb } from '../src/db/client.ts';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/http/app.ts';
import { hashPassword, sha256 } from '../src/domain/secrets.ts';
import { loadGames } from '../src/games/registry.ts';
import { startViewServer } from '../src/http/view-server.ts';
import { ADMIN_URL, adminQuery, seed } from './api.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const LIMIT_KB = 300;

async function pageWeights() {
  const dbName = `arbiter_bench_web_${randomBytes(4).toString('hex')}`;
  try {
    await adminQuery(`CREATE DATABASE "${dbName}"`);
  } catch {
    console.log('web: no Postgres answers; page weights skipped');
    return;
  }
  const u = new URL(ADMIN_URL);
  u.pathname = '/' + dbName;
  const db = await createDb({ databaseUrl: u.toString() });
  try {
    await migrate(db);
    process.env.BENCH_API_MATCHES ??= '300';
    const ids = await seed(db);
    // A logged-in visitor for the pages behind the login (the bench seed's user owns every player).
    const user = await db.user.update({ where: { usernameLower: 'bench' }, data: { passwordHash: await hashPassword('bench password') } });
    const session = randomBytes(32).toString('base64url');
    await db.session.create({ data: { id: sha256(session), userId: user.id, expiresAt: new Date(Date.now() + 3600_000) } });
    const sub = await db.submission.findFirstOrThrow({ where: { userId: user.id }, select: { id: true } });
    const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent' }), db, queues: null, logger: false });
    await app.ready();
    const get = async (url: string, cookie = true) => {
      const res = await app.inject({ url, headers: { accept: 'text/html', ...(cookie ? { cookie: `arbiter_session=${session}` } : {}) } });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      return res.rawPayload;
    };
    const pages: [string, string, string[]][] = [
      ['home', '/', []],
      ['game (statement)', '/games/moria', []],
      ['leaderboard', '/games/moria/leaderboard', []],
      ['player', '/players/P7', []],
      ['matches', '/matches?game=moria', []],
      ['match (viewer)', `/matches/${ids[0]}`, ['/assets/games/moria/viewer.js']],
      ['queue', '/queue', []],
      ['submit', '/submit', []],
      ['submission (gate)', `/submissions/${sub.id}`, []],
      ['my submissions', '/submissions', []],
      ['account', '/account', []],
      ['viewer (/view)', '/view', ['/assets/games/moria/viewer.js']],
    ];
    console.log(`web: page weight, HTML + CSS + JS before replay data (limit ${LIMIT_KB} KB)`);
    for (const [name, url, extra] of pages) {
      const htmlBytes = await get(url);
      const text = htmlBytes.toString('utf8');
      const assets = [...text.matchAll(/<(?:link[^>]+href|script[^>]+src)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
      let raw = htmlBytes.length;
      let gz = gzipSync(htmlBytes).length;
      for (const a of [...new Set([...assets, ...extra])]) {
        const body = await get(a, false);
        raw += body.length;
        gz += gzipSync(body).length;
      }
      const t0 = performance.now();
      for (let i = 0; i < 20; i++) await get(url);
      const ms = (performance.now() - t0) / 20;
      console.log(
        `web: ${name.padEnd(20)} ${(raw / 1024).toFixed(1).padStart(6)} KB (${(gz / 1024).toFixed(1).padStart(5)} KB gzipped), ${assets.length + extra.length} assets, rendered in ${ms.toFixed(1)} ms${raw > LIMIT_KB * 1024 ? '  OVER THE LIMIT' : ''}`,
      );
    }
    await app.close();
  } finally {
    await closeDb(db);
    await adminQuery(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => {});
  }
}

async function drawTimes(gameIds: string[]) {
  let chromiumBuild;
  try {
    chromiumBuild = await findChromium();
  } catch (e) {
    console.log(`web: ${e instanceof Error ? e.message : String(e)}; drawing times skipped`);
    return;
  }
  const tmp = mkdtempSync(join(tmpdir(), 'arbiter-bench-web-'));
  const browser = await chromium.launch({
    executablePath: chromiumBuild.executablePath,
    args: chromiumBuild.args,
  });
  try {
    const games = [...(await loadGames()).values()].filter((g) => gameIds.length === 0 || gameIds.includes(g.id));
    console.log('web: viewer drawing time per round, 900 px board, every round of a Demo/Dummy/Demo/Null match (seed 7)');
    for (const game of games) {
      const file = join(tmp, `${game.id}.json.gz`);
      const r = spawnSync(
        process.execPath,
        ['--no-node-snapshot', '--import', 'tsx', 'bin/arbiter.js', 'play', game.id, 'Demo', 'Dummy', 'Demo', 'Null', '--seed', '7', '-o', file],
        { cwd: root, stdio: 'ignore' },
      );
      if (r.status !== 0) throw new Error(`arbiter play ${game.id} failed`);
      const server = await startViewServer({ file });
      try {
        for (const dpr of [1, 2]) {
          const page = await browser.newPage({ viewport: { width: 1000, height: 1000 }, deviceScaleFactor: dpr });
          await page.goto(server.url.replace(/\/view\?.*$/, '/view'));
          const t = await page.evaluate(
            async ({ gameId, dpr }) => {
              const bytes = new Uint8Array(await (await fetch('/replay')).arrayBuffer());
              const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
              const replay = JSON.parse(await new Response(stream).text());
              const view = (await import(`/assets/games/${gameId}/viewer.js`)).default;
              const { rows, cols } = view.boardSize(replay);
              const width = 900;
              const height = Math.round((width * rows) / cols);
              // This function runs in the page (Node's types have no DOM).
              const doc = (globalThis as unknown as { document: { createElement(t: 'canvas'): any; body: { append(c: unknown): void } } }).document;
              const canvas = doc.createElement('canvas');
              canvas.width = width * dpr;
              canvas.height = height * dpr;
              doc.body.append(canvas);
              const ctx = canvas.getContext('2d');
              const times: number[] = [];
              const colors = ['#d62728', '#1f77b4', '#2ca02c', '#e6a100'];
              for (let pass = 0; pass < 2; pass++) {
                for (let i = 0; i < replay.rounds.length; i++) {
                  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
                  const t0 = performance.now();
                  view.draw({ ctx, width, height, replay, index: i, round: replay.rounds[i], prev: i > 0 ? replay.rounds[i - 1] : null, colors });
                  ctx.getImageData(0, 0, 1, 1); // wait for the raster work, not just the recording
                  if (pass === 1) times.push(performance.now() - t0);
                }
              }
              times.sort((a, b) => a - b);
              return {
                n: times.length,
                p50: times[Math.floor(times.length / 2)]!,
                p95: times[Math.floor(times.length * 0.95)]!,
                max: times[times.length - 1]!,
              };
            },
            { gameId: game.id, dpr },
          );
          console.log(
            `web: ${game.id.padEnd(14)} dpr ${dpr}: p50 ${t.p50.toFixed(2)} ms, p95 ${t.p95.toFixed(2)} ms, max ${t.max.toFixed(2)} ms over ${t.n} rounds (32 rounds/s leaves 31 ms)`,
          );
          await page.close();
        }
      } finally {
        await server.close();
      }
    }
  } finally {
    await browser.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

export async function run(args: string[] = []): Promise<void> {
  await pageWeights();
  await drawTimes(args);
}
