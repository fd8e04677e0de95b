// Route schemas shared by the API and the pages. What a request carries (params,
// querystring, body) is a TypeBox schema: the app's type provider types each handler's
// request from it (src/http/typed.ts), so no route restates its types. The responses are
// plain JSON schemas: they document and serialize, and a handler's return is checked by them.

import { Type, type Static, type TObject, type TProperties } from 'typebox';
import { GATE_STEP_STATES } from '../domain/gate-progress.ts';
import { JUDGING, MATCH_KINDS, MATCH_STATUSES, statusOut, VERDICTS } from '../statuses.ts';

export { Type, type Static };

/** A positive 32-bit database id. */
export const dbId = (options: { description?: string } = {}) => Type.Integer({ minimum: 1, maximum: 2147483647, ...options });

/** `:id` path parameters: a positive 32-bit database id. */
export const idParams = Type.Object({ id: dbId() });

/** `:game` path parameters (an unknown game is the route's 404, with the known ones listed). */
export const gameParams = Type.Object({ game: Type.String() });

/** `limit` and `offset` query parameters of a paged list. */
export const paging = (maxLimit: number, defaultLimit: number) => ({
  limit: Type.Integer({ minimum: 1, maximum: maxLimit, default: defaultLimit }),
  offset: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
});

/** `page` of a page's list: 1 when not given. */
export const pageNumber = Type.Integer({ minimum: 1, maximum: 100000, default: 1 });

/**
 * A querystring of only these properties. Optional ones are wrapped in Type.Optional; one with a
 * default is always there once validated (ajv's useDefaults fills it in), so its type is not
 * optional, yet nothing is `required`: a request without it gets the default.
 */
export const query = <const P extends TProperties>(properties: P) => ({ type: 'object', additionalProperties: false, properties }) as unknown as TObject<P>;

/** An answer documented as an object whose fields the domain's own types say (admin answers, reports). */
export const anyObject = Type.Unsafe<unknown>({ type: 'object', additionalProperties: true });

/** A string of one of these values, typed as their union. */
export const stringEnum = <const T extends string>(values: readonly T[], options: { description?: string } = {}) =>
  Type.Unsafe<T>({ type: 'string', enum: values, ...options });

// Response schemas, so /docs shows the real status codes and bodies. Objects
// keep additionalProperties: fields added later still go out, and /docs
// documents the ones clients rely on.

const nullable = (type: string) => ({ type: [type, 'null'] });
const obj = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', additionalProperties: true, properties, required }) as const;

/** Every refusal: the one error handler's body (src/http/errors.ts). */
export const errorBody = obj(
  {
    statusCode: { type: 'integer' },
    error: { type: 'string' },
    message: { type: 'string' },
    code: { type: 'string', description: 'a stable code for programs, e.g. name-taken' },
    line: { type: 'integer', description: 'code compile-error: the line of the first error (1-based)' },
    column: { type: 'integer', description: 'code compile-error: its column (1-based)' },
  },
  ['statusCode', 'error', 'message'],
);

const REFUSAL_TEXT: Record<number, string> = {
  400: 'bad input: the message says which field and why',
  401: 'not logged in (session cookie or Authorization: Bearer token)',
  403: 'not yours',
  404: 'no such thing',
  409: 'conflicts with existing data (a name taken or locked)',
  410: 'gone (a pruned replay)',
  413: 'too large',
  422: 'an Idempotency-Key reused for another upload',
  429: 'too many requests: Retry-After says when to try again',
  503: 'a dependency (database, Redis) is down',
};

/** Response entries for the refusals a route can answer with. */
export function refusals(...codes: number[]): Record<number, unknown> {
  return Object.fromEntries(codes.map((c) => [c, { ...errorBody, description: REFUSAL_TEXT[c] ?? 'refused' }]));
}

const limits = obj({ cpuBudgetMs: { type: 'integer' }, memoryMb: { type: 'integer' } });

export const participantSchema = obj({
  seat: { type: 'integer' },
  name: { type: 'string' },
  builtin: nullable('string'),
  submissionId: nullable('integer'),
  score: nullable('number'),
  rank: nullable('integer'),
  cpuMs: nullable('number'),
  frozen: { anyOf: [{ type: 'null' }, obj({ round: nullable('integer'), reason: { type: 'string' }, message: nullable('string') })] },
});

export const matchSchema = obj({
  id: { type: 'integer' },
  game: { type: 'string' },
  seed: { type: 'integer' },
  kind: { type: 'string', enum: MATCH_KINDS },
  status: { type: 'string', enum: MATCH_STATUSES },
  submissionId: nullable('integer'),
  gateStep: nullable('string'),
  gateIndex: nullable('integer'),
  winnerSeat: nullable('integer'),
  error: nullable('string'),
  createdAt: { type: 'string', format: 'date-time' },
  startedAt: { type: ['string', 'null'], format: 'date-time' },
  finishedAt: { type: ['string', 'null'], format: 'date-time' },
  durationMs: nullable('integer'),
  participants: { type: 'array', items: participantSchema },
  replay: { anyOf: [{ type: 'null' }, obj({ url: { type: 'string' }, sizeBytes: { type: 'integer' } })] },
  play: { type: 'string', description: 'the arbiter play command line that plays the match again: the seats in order (seat 0 first), the seed, the settings' },
});

export const matchListSchema = obj({
  total: { type: 'integer' },
  limit: { type: 'integer' },
  offset: { type: 'integer' },
  matches: { type: 'array', items: matchSchema },
});

const gateStepSchema = obj({
  key: { type: 'string' },
  label: { type: 'string' },
  state: { type: 'string', enum: GATE_STEP_STATES },
  matchId: nullable('integer'),
  seed: nullable('integer'),
});

export const submissionSchema = obj({
  id: { type: 'integer' },
  game: { type: 'string' },
  player: { type: 'string' },
  owner: { type: 'string' },
  version: { type: 'integer' },
  filename: { type: 'string' },
  sizeBytes: { type: 'integer' },
  status: { type: 'string', enum: [...JUDGING, ...VERDICTS].map(statusOut) },
  reason: nullable('string'),
  reasonLine: nullable('integer'),
  createdAt: { type: 'string', format: 'date-time' },
  startedAt: { type: ['string', 'null'], format: 'date-time' },
  finishedAt: { type: ['string', 'null'], format: 'date-time' },
  disabledAt: { type: ['string', 'null'], format: 'date-time', description: 'set when an admin disabled it: out of ranked play, no challenge' },
  gate: obj({ status: { type: 'string' }, final: { type: 'boolean' }, failedStep: nullable('string'), steps: { type: 'array', items: gateStepSchema } }),
  gateMatches: { type: 'array', items: matchSchema },
  wait: {
    type: ['object', 'null'],
    description:
      'while the gate waits for a runner or compiles (queued, compiling, or its self-play not started): the earlier submissions whose gates are ahead of it (first come, first served) and the estimated seconds to its verdict (null when there is no estimate: no runner, no Redis, nothing played yet); null otherwise',
    properties: { ahead: { type: 'integer' }, seconds: nullable('number') },
  },
});

/** POST /api/submissions as multipart/form-data (what `curl -F file=@bot.ts` and Swagger UI send); `games` are the game ids. */
export const submissionMultipartSchema = (games: readonly string[]) =>
  ({
    type: 'object',
    required: ['file'],
    properties: {
      file: { type: 'string', format: 'binary', description: 'the bot source file (.ts or .js), UTF-8 text' },
      game: { type: 'string', enum: games, description: "the game's id; without it, the file's `export const GAME` says" },
    },
  }) as const;

/** POST /api/submissions as JSON. */
export const submissionJsonSchema = (games: readonly string[]) =>
  ({
    type: 'object',
    required: ['source'],
    properties: {
      source: { type: 'string', description: 'the bot source file as text' },
      game: { type: 'string', enum: games, description: "the game's id; without it, the file's `export const GAME` says" },
      filename: { type: 'string', maxLength: 200, description: 'the file name (its extension says the language); default <PLAYER_NAME>.ts' },
    },
  }) as const;

export const submissionCreatedSchema = {
  ...obj({
    id: { type: 'integer' },
    status: { type: 'string' },
    game: { type: 'string' },
    player: { type: 'string' },
    version: { type: 'integer' },
    filename: { type: 'string' },
    sizeBytes: { type: 'integer' },
    links: obj({ self: { type: 'string' }, events: { type: 'string' } }),
  }),
  description: 'taken: the gate runs after; Location is the submission',
  headers: { location: { type: 'string', description: 'the submission: /api/submissions/{id}' } },
};

export const userSchema = obj({ id: { type: 'integer' }, username: { type: 'string' }, isAdmin: { type: 'boolean' } });

export const gamesSchema = {
  type: 'array',
  items: obj({
    id: { type: 'string' },
    title: { type: 'string' },
    nbPlayers: { type: 'integer' },
    builtinPlayers: { type: 'array', items: { type: 'string' } },
    statements: { type: 'array', items: { type: 'string' } },
    limits,
    qualifiedPlayers: { type: 'integer' },
  }),
} as const;

/** An answer with no body (204). */
export const noContent = { type: 'null', description: 'done; no body' } as const;

export const meSchema = obj({
  id: { type: 'integer' },
  username: { type: 'string' },
  isAdmin: { type: 'boolean' },
  via: { type: 'string', enum: ['session', 'token'] },
});

export const tokenCreatedSchema = obj({
  id: { type: 'integer' },
  token: { type: 'string', description: 'shown once: the server keeps only its hash' },
  label: nullable('string'),
  createdAt: { type: 'string', format: 'date-time' },
});

export const tokenListSchema = {
  type: 'array',
  items: obj({
    id: { type: 'integer' },
    prefix: { type: 'string' },
    label: nullable('string'),
    createdAt: { type: 'string', format: 'date-time' },
    lastUsedAt: { type: ['string', 'null'], format: 'date-time' },
    revokedAt: { type: ['string', 'null'], format: 'date-time' },
  }),
} as const;

export const leaderboardSchema = obj({
  game: { type: 'string' },
  total: { type: 'integer' },
  limit: { type: 'integer' },
  offset: { type: 'integer' },
  players: {
    type: 'array',
    items: obj({
      rank: { type: 'integer' },
      player: { type: 'string' },
      owner: { type: 'string' },
      rating: { type: 'number', description: 'OpenSkill ordinal, mu - 3 sigma' },
      mu: { type: 'number', description: 'estimated skill' },
      sigma: { type: 'number', description: 'its uncertainty: the skill is within mu ± 3 sigma' },
      matchesPlayed: { type: 'integer' },
      provisional: { type: 'boolean', description: 'sigma above 4: a few matches may still move the rank a lot' },
    }),
  },
});

/** A player's profile: its games, versions, rating history and recent matches (shape in src/domain/players.ts). */
export const playerProfileSchema = obj({
  name: { type: 'string' },
  owner: { type: 'string' },
  games: { type: 'array', items: obj({ game: { type: 'string' }, qualified: { type: 'boolean' } }) },
});

export const mySubmissionsSchema = obj({
  total: { type: 'integer' },
  limit: { type: 'integer' },
  offset: { type: 'integer' },
  submissions: {
    type: 'array',
    items: obj({
      id: { type: 'integer' },
      game: { type: 'string' },
      player: { type: 'string' },
      nameLocked: { type: 'boolean' },
      version: { type: 'integer' },
      filename: { type: 'string' },
      status: { type: 'string' },
      reason: nullable('string'),
      createdAt: { type: 'string', format: 'date-time' },
      finishedAt: { type: ['string', 'null'], format: 'date-time' },
    }),
  },
});

const healthSchema = obj({
  status: { type: 'string', enum: ['ok', 'degraded'] },
  db: obj({ ok: { type: 'boolean' }, latencyMs: nullable('number'), error: { type: 'string' } }),
  redis: obj({ ok: { type: 'boolean' }, error: { type: 'string' } }),
  queue: { anyOf: [{ type: 'null' }, obj({ depth: { type: 'integer' } })] },
  workers: { anyOf: [{ type: 'null' }, obj({ seen: { type: 'integer' }, slots: { type: 'integer' } })] },
  recorder: { type: ['object', 'null'], additionalProperties: true },
});

/** /health answers the same body with 200 (all well) or 503 (a dependency is down). */
export const healthResponses = { 200: healthSchema, 503: { ...healthSchema, description: 'a dependency (database, Redis) is down' } };

// ---------------------------------------------------------------- tournaments

export const TOURNAMENT_STATUSES = ['scheduled', 'running', 'paused', 'finished', 'cancelled'];

const tournamentSummary = {
  id: { type: 'integer' },
  game: { type: 'string' },
  name: { type: 'string' },
  status: { type: 'string', enum: TOURNAMENT_STATUSES },
  freezeAt: { type: 'string', format: 'date-time' },
  startedAt: { type: ['string', 'null'], format: 'date-time' },
  finishedAt: { type: ['string', 'null'], format: 'date-time' },
  cancelledAt: { type: ['string', 'null'], format: 'date-time', description: 'when an admin cancelled it (status cancelled)' },
  round: { type: 'integer', description: 'the last round drawn (0 before the first)' },
};

export const tournamentListSchema = obj({
  tournaments: { type: 'array', items: obj({ ...tournamentSummary, entries: { type: 'integer' }, champion: nullable('string') }) },
});

const tournamentSeatSchema = obj({
  seat: { type: 'integer' },
  entry: nullable('integer'),
  name: { type: 'string' },
  builtin: { type: 'boolean', description: 'a Dummy padding the group' },
  rank: nullable('integer'),
  score: nullable('number'),
  frozen: { type: 'boolean' },
  fell: { type: 'boolean', description: 'the player fell in this round' },
});

export const tournamentSchema = obj({
  ...tournamentSummary,
  seed: { type: ['integer', 'null'], description: 'secret (null) until the tournament starts' },
  config: { type: ['object', 'null'], additionalProperties: true },
  entries: {
    type: 'array',
    items: obj({
      entry: { type: 'integer' },
      name: { type: 'string' },
      owner: { type: 'string' },
      submissionId: { type: 'integer' },
      eliminatedRound: nullable('integer'),
      place: nullable('integer'),
    }),
  },
  rounds: {
    type: 'array',
    items: obj({
      round: { type: 'integer' },
      final: { type: 'boolean', description: 'the final phase: four or fewer left, the strictly last falls' },
      groups: {
        type: 'array',
        items: obj({
          group: { type: 'integer' },
          seed: { type: 'integer' },
          settled: { type: 'boolean' },
          seats: { type: 'array', items: tournamentSeatSchema },
          match: {
            anyOf: [
              { type: 'null' },
              obj({
                id: { type: 'integer' },
                status: { type: 'string', enum: MATCH_STATUSES },
                attempt: { type: 'integer' },
                error: nullable('string'),
                replay: { anyOf: [{ type: 'null' }, obj({ url: { type: 'string' }, sizeBytes: { type: 'integer' } })] },
              }),
            ],
          },
          failedAttempts: { type: 'array', items: obj({ id: { type: 'integer' }, status: { type: 'string' }, error: nullable('string') }) },
          play: { type: 'string', description: 'the arbiter play command line that replays the match' },
        }),
      },
    }),
  },
  standings: {
    type: 'array',
    items: obj({
      place: { type: ['integer', 'null'], description: 'final place, once finished' },
      position: { type: 'integer' },
      entry: { type: 'integer' },
      name: { type: 'string' },
      owner: nullable('string'),
      eliminatedRound: nullable('integer'),
      lastRank: nullable('integer'),
      lastScore: nullable('number'),
    }),
  },
});

export const tournamentCreateBody = Type.Object(
  {
    game: Type.String({ minLength: 1, maxLength: 64 }),
    name: Type.String({ minLength: 1, maxLength: 100 }),
    freezeAt: Type.String({ minLength: 1, maxLength: 64, description: 'when the entries freeze and round 1 is drawn (ISO 8601)' }),
    config: Type.Optional(
      Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true, description: "overrides of the game's settings for every match" }),
    ),
    seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647, description: 'drawn when not given; published when the tournament starts' })),
  },
  { additionalProperties: false },
);

export type TournamentCreateBody = Static<typeof tournamentCreateBody>;

const representativePlayer = obj({ name: { type: 'string' }, playerId: { type: 'integer' }, submissionId: { type: 'integer' } });

export const representativeSchema = obj({
  game: { type: 'string' },
  current: { anyOf: [{ type: 'null' }, representativePlayer] },
  chosen: { type: 'boolean', description: 'false: the default, the latest qualified player' },
  players: { type: 'array', items: representativePlayer },
  frozenBy: { anyOf: [{ type: 'null' }, obj({ id: { type: 'integer' }, name: { type: 'string' } })] },
});

export const representativesSchema = obj({ representatives: { type: 'array', items: representativeSchema } });
