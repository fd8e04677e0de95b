// Submissions: upload (multipart or JSON), status with the gate's matches,
// live status (SSE), source (owner/admin only), my submissions.

import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { BotCompileError, CompileInfraError, compileBot, readBotHeader } from '../../../sandbox/compile.ts';
import type { Config } from '../../config.ts';
import type { AppDeps } from '../app.ts';
import { loadGames } from '../../game-kit/registry.ts';
import { checkNameForSubmission, NameError, type NameClaim } from '../../judge/names.ts';
import { requireUser, requireOwnerOrAdmin } from '../auth.ts';
import { HttpError, badRequest, conflict, notFound, tooLarge } from '../errors.ts';
import { withTimeout } from '../../queue/connection.ts';
import { statusOut, FINAL_STATUSES, matchOut, matchInclude } from '../serialize.ts';
import { clientKey } from '../attempt-budgets.ts';
import type { JudgeEventMessage } from '../events.ts';
import { idParams } from '../schemas.ts';

const EXT_RE = /\.(ts|js|mts|mjs|cts|cjs)$/i;

interface Upload {
  game: string | undefined;
  source: string;
  filename: string | undefined;
}

/** A file esbuild cannot parse, refused at upload (400, code compile-error), with its line when known. */
export class SubmissionCompileError extends HttpError {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(400, message, 'compile-error');
  }
}

/** An uploaded file's bytes as text, or a 400 (not-text). */
export function decodeUtf8(buf: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    throw badRequest('the file is not UTF-8 text: upload the bot source file (.ts or .js)', 'not-text');
  }
}

/** The upload rate limit, per user (the API and the form share it). */
export const submitRateLimit = (config: Config) => ({
  rateLimit: {
    max: config.rateLimitSubmit,
    timeWindow: '1 minute',
    keyGenerator: (req: FastifyRequest) => (req.user ? `user:${req.user.id}` : `ip:${req.ip}`),
  },
});

/** The checks and the insert every upload goes through (the API and the website's form). */
export interface NewSubmission {
  userId: number;
  game: string | undefined;
  source: string;
  filename: string | undefined;
  /** The client's Idempotency-Key (checked by parseIdempotencyKey): the same key again returns the same submission. */
  idempotencyKey?: string | undefined;
}

const IDEMPOTENCY_KEY_RE = /^[\x20-\x7e]{1,128}$/;

/** The Idempotency-Key header: absent, or 1-128 printable ASCII characters (a 400 otherwise). */
export function parseIdempotencyKey(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw badRequest('send one Idempotency-Key header, not several', 'bad-idempotency-key');
  if (!IDEMPOTENCY_KEY_RE.test(value) || value.trim() === '') {
    throw badRequest('Idempotency-Key must be 1 to 128 printable ASCII characters (a UUID, for example)', 'bad-idempotency-key');
  }
  return value;
}

/**
 * Validates an upload, claims or reuses its player name, inserts the new
 * version and starts the gate. Bad input throws an HttpError whose code says
 * which check failed (no-game, unknown-game, empty, not-text, too-large,
 * no-name, no-game-in-file, game-mismatch, bad-filename, name-<problem>,
 * compile-error). `syntaxCheck` also refuses, before anything is stored, a
 * file esbuild cannot parse (the gate's compile step would reject it anyway).
 */
export async function createSubmission(deps: AppDeps, upload: NewSubmission, log: FastifyBaseLogger, options: { syntaxCheck?: boolean } = {}) {
  const { db, config } = deps;
  const max = config.submissionMaxBytes;
  const me = { id: upload.userId };
  const { queues, startGate } = deps;

  // Starting the gate waits for Redis at most gateStartTimeoutMs: while Redis
  // is down, BullMQ holds the command until it is back. The upload answers at
  // once and the row stays queued for the sweep; if the queued command goes
  // through later, it does what the sweep would have done (same job id).
  const startGateQuickly = async (submissionId: number) => {
    if (!queues || !startGate) return;
    try {
      await withTimeout(startGate({ db, queues }, submissionId), config.gateStartTimeoutMs, 'queueing the compile check');
    } catch (err) {
      log.warn({ err, submissionId }, 'startGate failed or timed out; submission left queued for the sweep');
    }
  };
  const key = upload.idempotencyKey;
  // The same upload sent again with its key (a client retrying): the first one's submission, not a new version.
  const replay = async () => {
    if (key === undefined) return null;
    const earlier = await db.submission.findUnique({ where: { userId_idempotencyKey: { userId: me.id, idempotencyKey: key } }, include: { player: true } });
    if (!earlier) return null;
    if (earlier.source !== upload.source || earlier.game !== upload.game) {
      throw new HttpError(422, `Idempotency-Key "${key}" was already used for submission ${earlier.id} with another file or game: use a new key for a new upload`, 'idempotency-key-reused');
    }
    if (earlier.status === 'queued') await startGateQuickly(earlier.id);
    const current = await db.submission.findUnique({ where: { id: earlier.id }, select: { status: true } });
    return { ...earlier, status: current?.status ?? earlier.status, replayed: true };
  };
  const replayed = await replay();
  if (replayed) return replayed;
  const size = Buffer.byteLength(upload.source, 'utf8');
  if (size > max) throw tooLarge(`file too large: ${size} bytes, at most ${max}`);
  if (size === 0 || upload.source.trim() === '') throw badRequest('the file is empty', 'empty');
  if (upload.source.includes('\0')) throw badRequest('the file contains NUL bytes: upload the bot source file (.ts or .js)', 'not-text');
  if (upload.game?.includes('\0')) throw badRequest('NUL characters are not allowed in "game"');
  const games = await loadGames();
  if (!upload.game) throw badRequest(`missing field "game" (one of: ${[...games.keys()].join(', ')})`, 'no-game');
  const game = games.get(upload.game);
  if (!game) throw badRequest(`unknown game "${upload.game}" (known: ${[...games.keys()].join(', ')})`, 'unknown-game');
  const header = readBotHeader(upload.source);
  if (!header.name) throw badRequest('no player name in the file: add  export const PLAYER_NAME = "YourName";', 'no-name');
  if (!header.game) throw badRequest(`no game in the file: add  export const GAME = "${game.id}";`, 'no-game-in-file');
  if (header.game !== game.id) {
    throw badRequest(`game mismatch: the file says GAME = "${header.game}" but the submission is for "${game.id}"`, 'game-mismatch');
  }
  let filename = upload.filename ? upload.filename.split(/[\\/]/).pop()! : `${header.name}.ts`;
  if (!EXT_RE.test(filename)) throw badRequest(`"${filename}": the bot must be a .ts or .js file`, 'bad-filename');
  filename = filename.slice(0, 100);
  if (options.syntaxCheck) {
    // esbuild parses in milliseconds; the message and line are the ones the gate's compile step gives.
    try {
      await compileBot(upload.source, filename);
    } catch (err) {
      if (err instanceof CompileInfraError) {
        // The judge could not compile it, not the file's fault: the upload is taken and the gate compiles it again.
        log.warn({ err: err.message }, 'syntax check skipped: the compiler failed; the gate will compile the file');
      } else {
        if (!(err instanceof BotCompileError)) throw err;
        // Worded as the gate words it (src/scheduler/gate.ts gateOnCheck).
        const where = err.line !== undefined && !/\bline \d+/.test(err.message) ? ` (line ${err.line})` : '';
        throw new SubmissionCompileError(`compile error: ${err.message}${where}`, err.line);
      }
    }
  }

  const checkName = async (): Promise<NameClaim> => {
    try {
      return await checkNameForSubmission(db, { name: header.name!, game: game.id, userId: me.id, offensiveWords: config.offensiveWords });
    } catch (err) {
      if (err instanceof NameError) {
        throw new HttpError(err.problem === 'taken' || err.problem === 'locked' ? 409 : 400, err.message, `name-${err.problem}`);
      }
      throw err;
    }
  };
  let claim = await checkName();

  const create = () =>
    db.$transaction(async (tx) => {
      let playerId = claim.playerId;
      if (playerId === null) {
        const p = await tx.playerName.create({ data: { game: game.id, name: header.name!, nameLower: header.name!.toLowerCase(), ownerId: me.id } });
        playerId = p.id;
      } else {
        // Row lock: a qualification (which locks the name) cannot commit between this check and the insert.
        const [p] = await tx.$queryRaw<{ name: string; locked: boolean }[]>`SELECT "name", "locked" FROM "PlayerName" WHERE "id" = ${playerId} FOR UPDATE`;
        if (!p) throw conflict('the player name changed meanwhile: submit again');
        if (p.locked) throw conflict(`name locked: "${p.name}" already qualified; choose a new name for a new bot`, 'name-locked');
      }
      const last = await tx.submission.aggregate({ where: { playerId }, _max: { version: true } });
      return tx.submission.create({
        data: {
          playerId,
          userId: me.id,
          game: game.id,
          version: (last._max.version ?? 0) + 1,
          source: upload.source,
          filename,
          sizeBytes: size,
          ...(key !== undefined ? { idempotencyKey: key } : {}),
        },
        include: { player: true },
      });
    });
  let sub;
  try {
    sub = await create();
  } catch (err) {
    // Two uploads at once under one name: the unique (player, version) or (game, name) index refused one.
    if ((err as { code?: string }).code !== 'P2002') throw err;
    // Or the same key twice at once: the (user, key) index refused the second.
    const again = await replay();
    if (again) return again;
    claim = await checkName();
    sub = await create();
  }

  await startGateQuickly(sub.id);
  const current = await db.submission.findUnique({ where: { id: sub.id }, select: { status: true } });
  log.info({ part: 'api', submissionId: sub.id, userId: sub.userId, game: sub.game, player: sub.player.name, version: sub.version, status: current?.status ?? sub.status }, 'submission stored');
  return { ...sub, status: current?.status ?? sub.status, replayed: false };
}

export default async function submissionRoutes(app: FastifyInstance) {
  const { db, config } = app.deps;
  const max = config.submissionMaxBytes;

  async function readUpload(request: FastifyRequest): Promise<Upload> {
    if (request.isMultipart()) {
      let game: string | undefined;
      let source: string | undefined;
      let filename: string | undefined;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            if (part.fieldname !== 'file') throw badRequest(`unexpected file field "${part.fieldname}": send the bot as "file"`);
            const buf = await part.toBuffer();
            source = decodeUtf8(buf);
            filename = part.filename;
          } else if (part.fieldname === 'game') {
            game = String(part.value);
          } else if (part.fieldname === 'source' && typeof part.value === 'string') {
            source = part.value;
          }
        }
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT') {
          throw tooLarge(code === 'FST_FILES_LIMIT' ? 'send one file only' : `file too large: at most ${max} bytes`);
        }
        throw err;
      }
      if (source === undefined) throw badRequest('no file: send the bot source as the multipart field "file"', 'no-file');
      return { game, source, filename };
    }
    const body = request.body as unknown;
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      throw badRequest('send multipart/form-data (game, file) or JSON {"game": "...", "source": "..."}');
    }
    const b = body as Record<string, unknown>;
    for (const key of Object.keys(b)) {
      if (!['game', 'source', 'filename'].includes(key)) throw badRequest(`unknown field "${key}" (expected game, source, filename)`);
    }
    if (typeof b.source !== 'string') throw badRequest('"source" must be the bot source as a string', 'no-file');
    if (b.game !== undefined && typeof b.game !== 'string') throw badRequest('"game" must be a string');
    if (b.filename !== undefined && (typeof b.filename !== 'string' || b.filename.length > 200)) throw badRequest('"filename" must be a short string');
    return { game: b.game as string | undefined, source: b.source, filename: b.filename as string | undefined };
  }

  app.post(
    '/api/submissions',
    {
      bodyLimit: max * 6 + 64 * 1024,
      config: submitRateLimit(config),
      schema: {
        tags: ['submissions'],
        summary: 'Submit a bot: multipart (game, file) or JSON {game, source}. Answers 202 at once; the gate runs after.',
        consumes: ['multipart/form-data', 'application/json'],
        security: [{ bearer: [] }, { session: [] }],
      },
    },
    async (request, reply) => {
      const me = requireUser(request);
      const idempotencyKey = parseIdempotencyKey(request.headers['idempotency-key']);
      const upload = await readUpload(request);
      const sub = await createSubmission(app.deps, { userId: me.id, ...upload, idempotencyKey }, request.log);
      if (sub.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(202).send({
        id: sub.id,
        status: statusOut(sub.status),
        game: sub.game,
        player: sub.player.name,
        version: sub.version,
        filename: sub.filename,
        sizeBytes: sub.sizeBytes,
        links: { self: `/api/submissions/${sub.id}`, events: `/api/submissions/${sub.id}/events` },
      });
    },
  );

  async function loadSubmission(id: number) {
    const s = await db.submission.findUnique({
      where: { id },
      select: {
        id: true,
        game: true,
        version: true,
        filename: true,
        sizeBytes: true,
        status: true,
        reason: true,
        reasonLine: true,
        reasonDetail: true,
        createdAt: true,
        startedAt: true,
        finishedAt: true,
        userId: true,
        user: { select: { username: true } },
        player: { select: { name: true, locked: true } },
      },
    });
    if (!s) throw notFound(`no submission ${id}`);
    return s;
  }

  /** reasonDetail (what a bot threw, its stack) is its owner's or an admin's to read; others get null. */
  async function submissionOut(id: number, viewer: FastifyRequest['user']) {
    const s = await loadSubmission(id);
    const mayReadDetail = viewer !== null && (viewer.id === s.userId || viewer.isAdmin);
    const matches = await db.match.findMany({ where: { submissionId: id, kind: 'gate' }, include: matchInclude, orderBy: { id: 'asc' } });
    return {
      id: s.id,
      game: s.game,
      player: s.player.name,
      owner: s.user.username,
      version: s.version,
      filename: s.filename,
      sizeBytes: s.sizeBytes,
      status: statusOut(s.status),
      reason: s.reason,
      reasonLine: s.reasonLine,
      reasonDetail: mayReadDetail ? s.reasonDetail : null,
      createdAt: s.createdAt,
      startedAt: s.startedAt,
      finishedAt: s.finishedAt,
      gateMatches: matches.map(matchOut),
    };
  }

  app.get<{ Params: { id: number } }>(
    '/api/submissions/:id',
    { schema: { tags: ['submissions'], summary: 'Status, reason, and the gate matches', params: idParams } },
    async (request) => submissionOut(request.params.id, request.user),
  );

  // Live streams open per client address in this process: each holds a socket, a subscription and a poll.
  const openStreams = new Map<string, number>();
  function claimStream(ip: string): () => void {
    const key = clientKey(ip);
    const open = openStreams.get(key) ?? 0;
    if (open >= config.sseMaxPerIp) {
      throw new HttpError(429, `too many live status streams open from your address (at most ${config.sseMaxPerIp}): close one and try again`, 'too-many-streams');
    }
    openStreams.set(key, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (openStreams.get(key) ?? 1) - 1;
      if (left > 0) openStreams.set(key, left);
      else openStreams.delete(key);
    };
  }

  app.get<{ Params: { id: number } }>(
    '/api/submissions/:id/events',
    {
      schema: {
        tags: ['submissions'],
        summary: 'Server-sent events: the current status first, then every change until the verdict',
        params: idParams,
      },
    },
    async (request, reply) => {
      const id = request.params.id;
      await loadSubmission(id); // 404 before the stream starts
      const release = claimStream(request.ip); // 429 before it starts too
      // Subscribe first, then read the current status: no change can fall between the two.
      // Events before the current status is read are already reflected in it (the recorder writes, then publishes).
      let live = false;
      let closed = false;
      let lastStatus = '';
      const res = reply.raw;
      const send = (data: unknown, event?: string) => {
        if (closed) return;
        res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
      };
      const cleanups: (() => void)[] = [release];
      const finish = () => {
        if (closed) return;
        closed = true;
        for (const c of cleanups) c();
        res.end();
      };
      const onStatus = (status: string) => {
        lastStatus = status;
        if (FINAL_STATUSES.has(status)) setImmediate(finish);
      };
      const hub = app.deps.events;
      if (hub) {
        cleanups.push(
          hub.subscribe((event: JudgeEventMessage) => {
            if (String(event.submissionId) !== String(id)) return;
            if (!live) return;
            send(event);
            if (event.matchId === undefined) onStatus(event.status);
          }),
        );
        await Promise.race([hub.ready(), new Promise((ok) => setTimeout(ok, 2000))]).catch(() => {});
      }
      let current;
      try {
        current = await db.submission.findUnique({ where: { id }, select: { status: true, reason: true } });
      } catch (err) {
        for (const c of cleanups) c();
        throw err;
      }
      if (!current) {
        for (const c of cleanups) c();
        throw notFound(`no submission ${id}`);
      }
      reply.hijack();
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      request.raw.on('close', finish);
      res.on('close', finish);
      // The client may have gone while the stream was being set up: no 'close' is coming then.
      if (res.destroyed || request.raw.socket?.destroyed) return finish();
      lastStatus = statusOut(current.status);
      send({ submissionId: String(id), status: lastStatus, reason: current.reason, current: true });
      if (FINAL_STATUSES.has(lastStatus)) return finish();
      live = true;
      // A safety net for a lost message (or no Redis): poll the row now and then.
      const poll = setInterval(() => {
        db.submission
          .findUnique({ where: { id }, select: { status: true, reason: true } })
          .then((row) => {
            if (!row) return finish();
            const s = statusOut(row.status);
            if (s !== lastStatus) {
              send({ submissionId: String(id), status: s, reason: row.reason });
              onStatus(s);
            }
          })
          .catch(() => {});
      }, 3000);
      const ping = setInterval(() => !closed && res.write(': ping\n\n'), 15000);
      cleanups.push(() => clearInterval(poll), () => clearInterval(ping));
    },
  );

  app.get<{ Params: { id: number } }>(
    '/api/submissions/:id/source',
    { schema: { tags: ['submissions'], summary: 'The source file (its owner or an admin only)', params: idParams } },
    async (request, reply) => {
      const s = await db.submission.findUnique({ where: { id: request.params.id }, select: { userId: true, source: true, filename: true } });
      if (!s) throw notFound(`no submission ${request.params.id}`);
      requireOwnerOrAdmin(request, s.userId, 'submission');
      return reply
        .header('content-type', 'text/plain; charset=utf-8')
        .header('content-disposition', `inline; filename="${s.filename.replace(/["\\\r\n]/g, '_')}"`)
        .header('cache-control', 'private, no-store')
        .send(s.source);
    },
  );

  app.get<{ Querystring: { limit: number; offset: number; game?: string } }>(
    '/api/me/submissions',
    {
      schema: {
        tags: ['submissions'],
        summary: 'My submissions, newest first',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
            offset: { type: 'integer', minimum: 0, maximum: 1000000, default: 0 },
            game: { type: 'string', maxLength: 64 },
          },
        },
      },
    },
    async (request) => {
      const me = requireUser(request);
      const where = { userId: me.id, ...(request.query.game ? { game: request.query.game } : {}) };
      const [rows, total] = await Promise.all([
        db.submission.findMany({
          where,
          orderBy: { id: 'desc' },
          take: request.query.limit,
          skip: request.query.offset,
          select: {
            id: true,
            game: true,
            version: true,
            filename: true,
            status: true,
            reason: true,
            createdAt: true,
            finishedAt: true,
            player: { select: { name: true, locked: true } },
          },
        }),
        db.submission.count({ where }),
      ]);
      return {
        total,
        limit: request.query.limit,
        offset: request.query.offset,
        submissions: rows.map((s) => ({
          id: s.id,
          game: s.game,
          player: s.player.name,
          nameLocked: s.player.locked,
          version: s.version,
          filename: s.filename,
          status: statusOut(s.status),
          reason: s.reason,
          createdAt: s.createdAt,
          finishedAt: s.finishedAt,
        })),
      };
    },
  );
}
