// The play page's scripts (/play and /games/:game/play, served under /assets/play): one bundle
// per game (the engine, the judge's match loop and the page, src/http/client/play) and the
// bots' worker, built by esbuild for the browser on first request and rebuilt when a source
// file changed.

import type { FastifyReply, FastifyRequest } from 'fastify';
import { build, type Plugin } from 'esbuild';
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gameDir } from '../games/registry.ts';
import type { AnyGame } from '../sdk/types.ts';
import { notFound } from './errors.ts';

// One bundle per game (the engine, the match loop, the page), and the bots' worker.
const root = fileURLToPath(new URL('../..', import.meta.url));
const playClientDir = join(root, 'src', 'http', 'client', 'play');
const nodeShim = join(playClientDir, 'node-shim.ts');

interface Bundle {
  body: Buffer;
  etag: string;
  inputs: [string, number][];
}

/** node:fs, node:path and node:url in the engines' path lead to the browser's stand-ins. */
const browserNodeShim: Plugin = {
  name: 'node-shim',
  setup(b) {
    b.onResolve({ filter: /^node:(fs|path|url)$/ }, () => ({ path: nodeShim }));
  },
};

const mtimeOf = async (file: string) => (await stat(file).catch(() => null))?.mtimeMs ?? -1;

async function makeBundle(contents: string): Promise<Bundle> {
  const result = await build({
    stdin: { contents, loader: 'ts', resolveDir: playClientDir, sourcefile: 'play-entry.ts' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome100', 'firefox110', 'safari16'],
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
    legalComments: 'none',
    plugins: [browserNodeShim],
  });
  const inputs = await Promise.all(
    Object.keys(result.metafile.inputs)
      .filter((f) => !f.startsWith('<'))
      .map(async (f): Promise<[string, number]> => [resolve(root, f), await mtimeOf(resolve(root, f))]),
  );
  const body = Buffer.from(result.outputFiles[0]!.contents);
  return { body, etag: `"${createHash('sha1').update(body).digest('base64url').slice(0, 20)}"`, inputs };
}

const bundles = new Map<string, Promise<Bundle>>();

/** A bundle, rebuilt when one of its input files changed. */
async function bundleFor(key: string, contents: () => Promise<string>): Promise<Bundle> {
  let p = bundles.get(key);
  if (p) {
    const done = await p.catch(() => null);
    if (!done || !(await Promise.all(done.inputs.map(async ([f, t]) => (await mtimeOf(f)) === t))).every(Boolean)) p = undefined;
  }
  if (!p) {
    p = contents().then(makeBundle);
    bundles.set(key, p);
  }
  return p;
}

export async function gameBundle(game: AnyGame): Promise<Bundle> {
  const dir = await gameDir(game.id);
  if (!dir) throw notFound(`no game "${game.id}"`);
  return bundleFor(`game:${game.id}`, async () =>
    [`import game from ${JSON.stringify(join(dir, 'index.ts'))};`, `import { mountPlay } from './page.ts';`, `mountPlay(game);`].join('\n'),
  );
}

export const workerBundle = () => bundleFor('worker', async () => `import './worker.ts';`);

/** The bots' worker script (/assets/play/worker.js), for tests that run it outside a browser. */
export const playWorkerScript = async (): Promise<string> => (await workerBundle()).body.toString('utf8');

export function sendScript(request: FastifyRequest, reply: FastifyReply, b: Bundle, headers: Record<string, string> = {}) {
  void reply.header('etag', b.etag).header('cache-control', 'no-cache').headers(headers);
  if (request.headers['if-none-match'] === b.etag) return reply.status(304).send();
  return reply.type('text/javascript; charset=utf-8').send(b.body);
}

/** A bot's worker may evaluate code (the prelude and the bot) and compile a C++ player's module, and reach nothing: no network, no other script. */
export const WORKER_POLICY = { 'content-security-policy': "default-src 'none'; script-src 'unsafe-eval' 'wasm-unsafe-eval'" };
