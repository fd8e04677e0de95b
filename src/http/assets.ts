// The site's static files and browser code. Browser code is TypeScript under
// src/http/client/ (and each game's src/games/<id>/viewer.ts), bundled by
// esbuild on first request and kept in memory, so the user's side needs no
// build tools and a new game's viewer is served without touching anything
// here. A bundle is rebuilt when one of its input files changes on disk.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { typed } from './typed.ts';
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';
import { notFound } from './errors.ts';
import { gameDir } from '../games/registry.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const clientDir = join(root, 'src', 'http', 'client');
const staticDir = join(root, 'src', 'http', 'static');

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
  /** Files it was made from, with their mtimes, to notice edits. */
  inputs: [string, number][];
}

const mtime = (file: string) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return -1;
  }
};
const fresh = (a: Asset) => a.inputs.every(([f, t]) => mtime(f) === t);
const etagOf = (b: Buffer | string) => `"${createHash('sha1').update(b).digest('base64url').slice(0, 20)}"`;

const bundles = new Map<string, Promise<{ js: Asset; map: Asset }>>();

async function bundle(entry: string): Promise<{ js: Asset; map: Asset }> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome100', 'firefox110', 'safari16'],
    minify: true,
    sourcemap: 'external',
    outdir: '/virtual',
    write: false,
    metafile: true,
    logLevel: 'silent',
    legalComments: 'none',
  });
  const inputs = Object.keys(result.metafile!.inputs).map((f): [string, number] => {
    const abs = resolve(root, f);
    return [abs, mtime(abs)];
  });
  const js = result.outputFiles.find((f) => f.path.endsWith('.js'))!;
  const map = result.outputFiles.find((f) => f.path.endsWith('.js.map'))!;
  const jsBody = Buffer.from(js.contents);
  const mapBody = Buffer.from(map.contents);
  return {
    js: { body: jsBody, type: 'text/javascript; charset=utf-8', etag: etagOf(jsBody), inputs },
    map: { body: mapBody, type: 'application/json; charset=utf-8', etag: etagOf(mapBody), inputs },
  };
}

/** The bundle of one entry file, rebuilt when its sources changed. */
export async function bundled(entry: string): Promise<{ js: Asset; map: Asset }> {
  let p = bundles.get(entry);
  if (p) {
    const done = await p.catch(() => null);
    if (!done || !fresh(done.js)) p = undefined;
  }
  if (!p) {
    p = bundle(entry);
    bundles.set(entry, p);
  }
  return p;
}

const STATIC_TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};
const statics = new Map<string, Asset>();

function staticAsset(name: string): Asset | null {
  const ext = /\.[a-z]+$/.exec(name)?.[0] ?? '';
  const type = Object.hasOwn(STATIC_TYPES, ext) ? STATIC_TYPES[ext] : undefined;
  const file = join(staticDir, name);
  if (!type || !existsSync(file)) return null;
  const cached = statics.get(name);
  if (cached && fresh(cached)) return cached;
  const body = readFileSync(file);
  const a: Asset = { body, type, etag: etagOf(body), inputs: [[file, mtime(file)]] };
  statics.set(name, a);
  return a;
}

function send(request: FastifyRequest, reply: FastifyReply, a: Asset) {
  // Revalidate every time: cheap (304), and a new deploy is seen at once.
  void reply.header('etag', a.etag).header('cache-control', 'no-cache');
  if (request.headers['if-none-match'] === a.etag) return reply.status(304).send();
  return reply.type(a.type).send(a.body);
}

const NAME = '^[a-z0-9][a-z0-9-]*$';

/** The asset routes, also used alone by `arbiter view`. */
export default async function assetRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  app.get(
    '/:file',
    {
      config: { access: 'public' },
      schema: {
        hide: true,
        params: { type: 'object', required: ['file'], properties: { file: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*\\.[a-z]+$' } } },
      },
    },
    async (request, reply) => {
      const a = staticAsset(request.params.file);
      if (!a) throw notFound(`no asset ${request.params.file}`);
      return send(request, reply, a);
    },
  );

  app.get(
    '/js/:file',
    {
      config: { access: 'public' },
      schema: {
        hide: true,
        params: { type: 'object', required: ['file'], properties: { file: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*\\.js(\\.map)?$' } } },
      },
    },
    async (request, reply) => {
      const { file } = request.params;
      const entry = join(clientDir, file.replace(/\.js(\.map)?$/, '.ts'));
      if (!existsSync(entry)) throw notFound(`no script ${file}`);
      const b = await bundled(entry);
      return send(request, reply, file.endsWith('.map') ? b.map : b.js);
    },
  );

  app.get(
    '/games/:game/:file',
    {
      config: { access: 'public' },
      schema: {
        hide: true,
        params: {
          type: 'object',
          required: ['game', 'file'],
          properties: { game: { type: 'string', pattern: NAME, maxLength: 64 }, file: { type: 'string', enum: ['viewer.js', 'viewer.js.map'] } },
        },
      },
    },
    async (request, reply) => {
      const { game, file } = request.params;
      const dir = await gameDir(game);
      const entry = dir && join(dir, 'viewer.ts');
      if (!entry || !existsSync(entry)) throw notFound(`no viewer for game "${game}"`);
      const b = await bundled(entry);
      return send(request, reply, file.endsWith('.map') ? b.map : b.js);
    },
  );
}
