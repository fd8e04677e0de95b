// Who may call what, for every route the app has registered:
// each route is walked as an anonymous visitor, as a student and as an
// admin, under its own spelling and under spellings the router decodes or
// refuses (percent-encoded letters, upper case, doubled and trailing
// slashes, an encoded slash), with plausible values in its params. The
// answers are checked against the table below, which lives here on purpose:
// a route that is not in it fails the test, so a new route needs a rule.
// Anonymous visitors and students never get a 2xx from an admin route, under
// any spelling; nothing answers 5xx.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { adminOnlyApi, checkRouteAccess } from '../../src/http/access.ts';
import { startTestApi, registerUser, bot, insertMatch, type TestUser } from '../helpers/app.ts';

type Rule = 'public' | 'login' | 'user' | 'owner' | 'admin';

/**
 * The rules, by "METHOD path" as registered (a GET's HEAD follows its GET).
 * public: anyone; login: anyone, with credentials in the body (401 when they are wrong);
 * user: a logged-in user (anonymous: 401, or the log-in page; a route that
 * validates its body first may answer 400 to a request without one);
 * owner: a logged-in user, and only the owner's own things (the params below
 * name someone else's, so a student is refused) or an admin; admin: admins only.
 */
const TABLE: Record<string, Rule> = {
  // swagger UI
  'GET /docs': 'public',
  'GET /docs/': 'public',
  'GET /docs/static/index.html': 'public',
  'GET /docs/static/swagger-initializer.js': 'public',
  'GET /docs/*': 'public',
  'GET /docs/json': 'public',
  'GET /docs/yaml': 'public',
  // accounts
  'POST /api/users': 'public',
  'POST /api/sessions': 'login',
  'DELETE /api/sessions': 'public',
  'GET /api/me': 'user',
  'POST /api/tokens': 'login',
  'GET /api/tokens': 'user',
  'DELETE /api/tokens/:id': 'owner',
  'PUT /api/me/password': 'user',
  // submissions
  'POST /api/submissions': 'user',
  'GET /api/submissions/:id': 'public',
  'GET /api/submissions/:id/events': 'public',
  'GET /api/submissions/:id/source': 'owner',
  'GET /api/me/submissions': 'user',
  // games, matches, ops
  'GET /api/games': 'public',
  'GET /api/games/:game/leaderboard': 'public',
  'GET /api/players/:name': 'public',
  'GET /api/matches': 'public',
  'GET /api/matches/:id': 'public',
  'GET /api/matches/:id/replay': 'public',
  'GET /api/matches/:id/log': 'owner',
  'GET /api/queue': 'public',
  'GET /health': 'public',
  'GET /metrics': 'public',
  'POST /api/challenges': 'user',
  // play page API
  'POST /api/play/compile': 'public',
  'GET /api/play/:game/prelude.js': 'public',
  'GET /api/play/:game/builtins/:name': 'public',
  // tournaments
  'GET /api/tournaments': 'public',
  'POST /api/tournaments': 'admin',
  'GET /api/tournaments/:id': 'public',
  'GET /api/tournaments/:id/standings.csv': 'public',
  'GET /api/tournaments/:id/replays.zip': 'public',
  'POST /api/tournaments/:id/start': 'admin',
  'POST /api/tournaments/:id/pause': 'admin',
  'POST /api/tournaments/:id/resume': 'admin',
  'POST /api/tournaments/:id/matches/:matchId/rerun': 'admin',
  'PATCH /api/tournaments/:id': 'admin',
  'DELETE /api/tournaments/:id': 'admin',
  'GET /api/tournaments/:id/preview': 'admin',
  'POST /api/tournaments/:id/cancel': 'admin',
  'GET /api/representatives': 'user',
  'PUT /api/representatives/:game': 'user',
  // the admin's API
  'GET /api/admin/users': 'admin',
  'POST /api/admin/users/:id/disable': 'admin',
  'POST /api/admin/users/:id/enable': 'admin',
  'POST /api/admin/submissions/:id/disable': 'admin',
  'POST /api/admin/submissions/:id/enable': 'admin',
  'POST /api/admin/submissions/:id/rejudge': 'admin',
  'POST /api/admin/names/release': 'admin',
  'POST /api/admin/names/rename': 'admin',
  'GET /api/admin/games/:game': 'admin',
  'PUT /api/admin/games/:game/deadline': 'admin',
  'POST /api/admin/games/:game/ratings/reset': 'admin',
  'POST /api/admin/games/:game/ranked/wake': 'admin',
  'PUT /api/admin/games/:game/dummy': 'admin',
  'DELETE /api/admin/games/:game/dummy': 'admin',
  'GET /api/admin/queue': 'admin',
  'GET /api/admin/audit': 'admin',
  'GET /api/admin/exports/:game/leaderboard.csv': 'admin',
  'GET /api/admin/exports/qualified.csv': 'admin',
  // the teacher's view of students and grades
  'GET /api/admin/users/:id': 'admin',
  'GET /api/admin/submissions': 'admin',
  'GET /api/admin/exports/submissions.csv': 'admin',
  'GET /api/admin/exports/:game/grades.csv': 'admin',
  'GET /api/admin/exports/grades.csv': 'admin',
  'GET /api/admin/similarity/:game': 'admin',
  'POST /api/admin/similarity/:game': 'admin',
  'GET /api/admin/similarity/:game/pair': 'admin',
  'POST /api/admin/roster': 'admin',
  'POST /api/admin/users/:id/reset-link': 'admin',
  // assets
  'GET /assets/:file': 'public',
  'GET /assets/js/:file': 'public',
  'GET /assets/games/:game/:file': 'public',
  'GET /assets/play/:file': 'public',
  // pages
  'GET /': 'public',
  'GET /games/:game': 'public',
  'GET /games/:game/starter-kit.zip': 'public',
  'GET /games/:game/leaderboard': 'public',
  'GET /games/:game/play': 'public',
  'GET /play': 'public',
  'GET /view': 'public',
  'GET /queue': 'public',
  'GET /signup': 'public',
  'POST /signup': 'public',
  'GET /login': 'public',
  'POST /login': 'public',
  'POST /logout': 'public',
  'GET /reset/:token': 'public',
  'POST /reset/:token': 'public',
  'GET /account': 'user',
  'POST /account/tokens': 'user',
  'POST /account/password': 'user',
  'POST /account/tokens/:id/revoke': 'owner',
  'GET /account/representatives': 'user',
  'POST /account/representatives': 'user',
  'GET /submit': 'user',
  'POST /submit': 'user',
  'GET /submissions': 'user',
  'GET /submissions/:id': 'owner',
  'GET /submissions/:id/timeline': 'owner',
  'GET /submissions/:id/source': 'owner',
  'GET /matches': 'public',
  'GET /matches/:id': 'public',
  'GET /matches/:id/log/:seat': 'owner',
  'GET /players/:name': 'public',
  'POST /players/:name/challenge': 'user',
  'GET /tournaments': 'public',
  'GET /tournaments/:id': 'public',
  'GET /admin': 'admin',
  'GET /admin/users': 'admin',
  'GET /admin/audit': 'admin',
  'GET /admin/users/:id': 'admin',
  'GET /admin/submissions': 'admin',
  'POST /admin/actions/user': 'admin',
  'POST /admin/actions/submission': 'admin',
  'POST /admin/actions/name': 'admin',
  'POST /admin/actions/deadline': 'admin',
  'POST /admin/actions/ratings-reset': 'admin',
  'POST /admin/actions/dummy': 'admin',
  'POST /admin/actions/dummy-remove': 'admin',
  'GET /admin/similarity': 'admin',
  'GET /admin/similarity/:game': 'admin',
  'GET /admin/similarity/:game/pair': 'admin',
  'POST /admin/actions/similarity': 'admin',
  'GET /admin/tournaments': 'admin',
  'POST /admin/tournaments': 'admin',
  'POST /admin/tournaments/:id/start': 'admin',
  'POST /admin/tournaments/:id/pause': 'admin',
  'POST /admin/tournaments/:id/resume': 'admin',
  'POST /admin/tournaments/:id/matches/:matchId/rerun': 'admin',
  'GET /admin/tournaments/:id/edit': 'admin',
  'POST /admin/tournaments/:id/edit': 'admin',
  'POST /admin/tournaments/:id/cancel': 'admin',
  'POST /admin/tournaments/:id/delete': 'admin',
  'POST /admin/actions/roster': 'admin',
  'POST /admin/actions/reset-link': 'admin',
};

/** Every route as fastify lists it (printRoutes' tree, read back into "METHOD path" pairs). */
function registeredRoutes(app: FastifyInstance): { method: string; url: string }[] {
  const out: { method: string; url: string }[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[└├]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    const path = (stack[depth - 1] ?? '') + m[2]!;
    stack[depth] = path;
    for (const method of (m[3] ?? '').split(', ').filter(Boolean)) out.push({ method, url: path });
  }
  return out;
}

const isPage = (url: string) => !/^\/(api|assets|docs|health|metrics)(\/|$)/.test(url);

const api = await startTestApi();
const { app, db } = api;

const admin = await registerUser(app, 'rootAdmin');
await db.user.update({ where: { id: admin.id }, data: { isAdmin: true } });
const student = await registerUser(app, 'student');
const other = await registerUser(app, 'otherOwner');

// Someone else's things: a qualified player with a submission, a match with its log, a token, a tournament.
const player = await db.playerName.create({
  data: { game: 'moria', name: 'Otherbot', nameLower: 'otherbot', ownerId: other.id, locked: true, lockedAt: new Date() },
});
const sub = await db.submission.create({
  data: {
    playerId: player.id,
    userId: other.id,
    game: 'moria',
    version: 1,
    source: bot('Otherbot'),
    filename: 'Otherbot.ts',
    sizeBytes: 100,
    status: 'qualified',
    finishedAt: new Date(),
  },
});
await db.playerName.update({ where: { id: player.id }, data: { qualifiedSubmissionId: sub.id } });
const match = await insertMatch(db, {
  seats: [
    { name: 'Otherbot', playerId: player.id, submissionId: sub.id, score: 3, rank: 1, log: 'hello' },
    { name: 'Dummy', builtinName: 'Dummy', score: 2, rank: 2 },
    { name: 'Dummy', builtinName: 'Dummy', score: 1, rank: 3 },
    { name: 'Dummy', builtinName: 'Dummy', score: 0, rank: 4 },
  ],
});
const token = await db.apiToken.findFirstOrThrow({ where: { userId: other.id } });
const tournament = await db.tournament.create({ data: { game: 'moria', name: 'Cup', seed: 7, freezeAt: new Date(Date.now() + 86_400_000) } });

const PARAMS: Record<string, string> = {
  game: 'moria',
  name: 'Otherbot',
  file: 'app.js',
  seat: '0',
  matchId: String(match.id),
};
/** Plausible values for a route's params (ids of the things above, by what the path is about). */
function fill(url: string): string {
  return url.replace(/:(\w+)/g, (_m, key: string, at: number) => {
    if (key !== 'id') return PARAMS[key] ?? '1';
    const before = url.slice(0, at);
    if (/tokens\/$/.test(before)) return String(token.id);
    if (/users\/$/.test(before)) return String(other.id);
    if (/matches\/$/.test(before)) return String(match.id);
    if (/tournaments\/$/.test(before)) return String(tournament.id);
    return String(sub.id);
  });
}
const QUERY: Record<string, string> = { pair: '?a=s:1&b=s:2' };
const queryOf = (url: string) => QUERY[url.split('/').pop()!] ?? '';

const letters = (path: string, every: boolean) =>
  path
    .split('/')
    .map((seg) => seg.replace(every ? /[a-zA-Z]/g : /^[a-zA-Z]/, (c) => '%' + c.charCodeAt(0).toString(16).padStart(2, '0')))
    .join('/');

/** Spellings the router must take as the route itself, and spellings it may refuse (never a 2xx for the refused). */
function spellings(path: string): { url: string; same: boolean }[] {
  const out = [
    { url: path, same: true },
    { url: letters(path, false), same: true },
    { url: letters(path, true), same: true },
    { url: path.toUpperCase(), same: false },
    { url: path.replace(/^\/([^/]*)/, (s) => (path.length > 1 ? s.charAt(0) + s.charAt(1).toUpperCase() + s.slice(2) : s)), same: false },
    { url: '/' + path, same: false },
    { url: path.replace(/\/(?=[^/]*$)/, '//'), same: false },
    { url: path.endsWith('/') ? path.slice(0, -1) : path + '/', same: false },
    { url: path.replace(/\/(?=[^/]+$)/, '%2F'), same: false },
  ];
  const seen = new Set<string>();
  return out.filter((s) => s.url !== '' && !seen.has(s.url) && (seen.add(s.url), true));
}

type Who = 'anonymous' | 'student' | 'admin';
const users: Record<Who, TestUser | null> = { anonymous: null, student, admin };

/** What the rule allows this visitor, as a reason the answer breaks it (null: fine). */
function breaks(rule: Rule, who: Who, route: string, method: string, res: LightMyRequestResponse): string | null {
  const page = isPage(route);
  const s = res.statusCode;
  if (s >= 500 && !(s === 503 && route === '/health')) return `a ${s}`; // /health says 503 when a dependency (here Redis) is down
  const toLogin = s === 303 && String(res.headers.location ?? '').startsWith('/login');
  const refusedAnon = page ? toLogin || s === 401 : s === 401;
  if (rule === 'public') return s === 401 || s === 403 ? `refused a public route (${s})` : null;
  if (rule === 'login') return s === 403 ? `refused a log-in route (${s})` : null;
  // These routes validate their body before they look at the user; the body here is none.
  if (who === 'anonymous' && (rule === 'user' || rule === 'owner') && s === 400 && method !== 'GET' && method !== 'HEAD') return null;
  if (who === 'anonymous') return refusedAnon ? null : `anonymous got ${s} (want ${page ? '303 to /login or 401' : '401'})`;
  if (rule === 'user') return s === 401 || s === 403 ? `a ${who} was refused (${s})` : null;
  if (rule === 'owner') {
    if (who === 'student')
      return s >= 200 && s < 300 && method !== 'HEAD' ? `a student got someone else's thing (${s})` : s === 401 ? 'a student got 401' : null;
    return s === 401 || s === 403 ? `an admin was refused (${s})` : null;
  }
  // admin
  if (who === 'student') return s === 403 ? null : `a student got ${s} (want 403)`;
  return s === 401 || s === 403 ? `an admin was refused (${s})` : null;
}

test('every registered route has a rule in the table, and every rule a route', () => {
  const routes = registeredRoutes(app);
  assert.ok(routes.length > 100, `found only ${routes.length} routes`);
  const keys = new Set(routes.map((r) => `${r.method === 'HEAD' ? 'GET' : r.method} ${r.url}`));
  const missing = [...keys].filter((k) => !(k in TABLE));
  assert.deepEqual(missing, [], 'routes without a rule: add them to TABLE');
  const stale = Object.keys(TABLE).filter((k) => !keys.has(k));
  assert.deepEqual(stale, [], 'rules for routes that do not exist');
});

test('what each route declares (config.access, as the app recorded it) is what the table says', () => {
  const wrong = app.routeAccess
    .filter((r) => r.method !== 'HEAD')
    .map((r) => ({ key: `${r.method} ${r.url}`, declared: r.access }))
    .filter(({ key, declared }) => TABLE[key] !== undefined && (TABLE[key] === 'login' ? 'public' : TABLE[key]) !== declared)
    .map(({ key, declared }) => `${key}: declares ${declared}, the table says ${TABLE[key]}`);
  assert.deepEqual(wrong, []);
});

test('the app refuses to start with a route that declares no access, or an admin route outside an admin scope', async () => {
  const bare = async (register: (app: FastifyInstance) => Promise<void>) => {
    const app = Fastify({ logger: false });
    app.addHook('onRoute', function (route) {
      checkRouteAccess.call(this, route, []);
    });
    try {
      await register(app);
      await app.ready();
    } finally {
      await app.close();
    }
  };
  const h = async () => 'ok';
  await assert.rejects(
    bare(async (app) => void app.get('/x', h)),
    /declares no access/,
  );
  await assert.rejects(
    bare(async (app) => void app.get('/x', { config: { access: 'admin' } }, h)),
    /outside an admin scope/,
  );
  await assert.rejects(
    bare(async (app) => void (await app.register(adminOnlyApi(async (s) => void s.get('/x', { config: { access: 'public' } }, h))))),
    /sits in an admin scope/,
  );
  await bare(async (app) => {
    app.get('/x', { config: { access: 'public' } }, h);
    await app.register(adminOnlyApi(async (s) => void s.get('/y', { config: { access: 'admin' } }, h)));
  });
});

test('every route, every visitor, every spelling: answers as the table says; no admin route answers a non-admin with a 2xx', { timeout: 600_000 }, async () => {
  const problems: string[] = [];
  let requests = 0;
  // Writes last (an admin's action must not change what a later read sees), logging out at the very end.
  const routes = registeredRoutes(app).sort((a, b) => Number(a.method !== 'GET' && a.method !== 'HEAD') - Number(b.method !== 'GET' && b.method !== 'HEAD'));
  for (const { method, url } of routes) {
    const rule = TABLE[`${method === 'HEAD' ? 'GET' : method} ${url}`];
    if (!rule) continue; // the test above names it
    const path = fill(url.replace('/*', '/index.css'));
    for (const who of ['anonymous', 'student', 'admin'] as Who[]) {
      for (const spelling of spellings(path)) {
        const u = users[who];
        const res = await app.inject({
          method: method as 'GET',
          url: spelling.url + queryOf(url),
          headers: { ...(u ? u.auth : {}), accept: isPage(url) ? 'text/html' : 'application/json' },
        });
        requests++;
        const where = `${method} ${spelling.url} (${url}, ${rule}) as ${who}`;
        if (spelling.same) {
          const why = breaks(rule, who, url, method, res);
          if (why) problems.push(`${where}: ${why}`);
        } else {
          if (res.statusCode >= 500) problems.push(`${where}: a ${res.statusCode}`);
          if (rule === 'admin' && who !== 'admin' && res.statusCode >= 200 && res.statusCode < 300)
            problems.push(`${where}: a non-admin got ${res.statusCode}`);
        }
      }
    }
  }
  console.log(`${requests} requests, ${problems.length} problems${problems.map((p) => `\n  ${p}`).join('')}`);
  assert.deepEqual(problems, []);
});
