// Every message a person reads in the page's language: the gate's verdicts
// (stored as a code and parameters, src/domain/reasons.ts), older rows that
// have only the English sentence, the expected wait, and the challenge and
// tournament refusals. Catalan and Spanish pages carry none of the judge's
// English words. Also: one seat numbering (0 to 3, as `arbiter play`) on the
// gate timeline and the match page, and the `arbiter play` line on both.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApi, registerUser, submitJson, insertMatch, type TestUser } from '../../helpers/app.ts';
import { englishReason, type Reason } from '../../../src/domain/reasons.ts';
import { expectedWait } from '../../../src/domain/queue-overview.ts';
import { localizeReason, waitExplanation } from '../../../src/http/i18n/reasons.ts';
import { withLang, type Lang } from '../../../src/http/i18n/index.ts';
import type { Prisma } from '../../../src/db/generated/client.ts';

const { app, db } = await startTestApi();
const ana = await registerUser(app, 'verdictana');

/** The judge's English words: none may appear in a Catalan or Spanish verdict. */
const ENGLISH =
  /\b(lost to|gate match|ranked \d|tied for first|ties are not wins|your bot|froze|frozen|self-play|copy|the judge|could not|not your bot|please resubmit|compile error|the file declares|was submitted|name locked|qualified first|see match|against|best|version \d|exception|used up|earlier submission|runners?|at a time|Match times|challenges? per hour|try again|is not your player|cannot represent|representatives of|seats|choose|qualified player|built-in)\b|(?<!-)\bseed \d/i;

const source = (name: string) =>
  `export const GAME = 'moria';\nexport const PLAYER_NAME = '${name}';\nexport default class extends Player {\n  play(): void {}\n}\n`;

let names = 0;
async function rejected(why: Reason | null, reason: string, extra: { step?: string; line?: number } = {}) {
  const name = `Verd${++names}`;
  const res = await submitJson(app, ana, source(name));
  assert.equal(res.statusCode, 202, res.body);
  const id = res.json().id as number;
  await db.submission.update({
    where: { id },
    data: {
      status: 'rejected',
      reason,
      finishedAt: new Date(),
      reasonDetail: { step: extra.step ?? 'dummy', ...(why ? { code: why.code, params: why.params } : {}) } as Prisma.InputJsonValue,
      ...(extra.line !== undefined ? { reasonLine: extra.line } : {}),
    },
  });
  return { id, name };
}

const page = async (user: TestUser | null, url: string, lang: Lang) => {
  const res = await app.inject({ url: `${url}${url.includes('?') ? '&' : '?'}lang=${lang}`, headers: user ? { cookie: user.cookie } : {} });
  assert.equal(res.statusCode, 200, `${url}: ${res.body.slice(0, 300)}`);
  return res.body;
};
const verdictOf = (body: string) => /<span id="verdict-reason">([^]*?)<\/span>/.exec(body)?.[1] ?? assert.fail('no verdict on the page');
const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

const frozen = { round: 12, why: 'exception', message: 'TypeError: x is undefined (Verd.ts:4:9)' };
const REASONS: { why: Reason; ca: RegExp; es: RegExp }[] = [
  {
    why: { code: 'compile-error', params: { message: 'compile error: Verd.ts:3:14: Unexpected ";"', line: 3 } },
    ca: /^Error de compilació: Verd\.ts:3:14: Unexpected ";" \(línia 3\)$/,
    es: /^Error de compilación: .* \(línea 3\)$/,
  },
  {
    why: { code: 'game-mismatch', params: { declared: 'walking-dead', game: 'moria' } },
    ca: /GAME = "walking-dead", però s’ha enviat per a moria/,
    es: /pero se ha enviado para moria/,
  },
  { why: { code: 'name-mismatch', params: { declared: 'Other', name: 'Verd' } }, ca: /PLAYER_NAME = "Other"/, es: /se ha enviado como "Verd"/ },
  {
    why: { code: 'judge-error', params: { step: 'selfplay', matchId: 41, error: 'ECONNRESET' } },
    ca: /^Partida contra si mateix: el jutge no ha pogut jugar la partida #41 \(ECONNRESET\)/,
    es: /^Partida contra sí mismo: el juez no ha podido jugar la partida #41/,
  },
  {
    why: { code: 'judge-error', params: { step: 'dummy', matchId: 42, error: 'ECONNRESET' } },
    ca: /^El jutge no ha pogut jugar la partida #42/,
    es: /^El juez no ha podido/,
  },
  {
    why: { code: 'selfplay-frozen', params: { seat: 2, copies: 4, frozen: 2, matchId: 43, ...frozen } },
    ca: /la còpia del seient 2 s’ha congelat a la ronda 11 \(excepció: TypeError: x is undefined \(Verd\.ts:4:9\)\) \(se n’han congelat 2 de 4 còpies\); mira la partida #43$/,
    es: /la copia del asiento 2 se ha congelado en la ronda 11 \(excepción: TypeError/,
  },
  {
    why: { code: 'selfplay-frozen', params: { seat: 0, copies: 4, frozen: 1, matchId: 44, round: 3, why: 'cpu', message: 'CPU budget of 2 s used up' } },
    ca: /seient 0 s’ha congelat a la ronda 2 \(temps de CPU esgotat\); mira/,
    es: /asiento 0 se ha congelado en la ronda 2 \(tiempo de CPU agotado\); mira/,
  },
  {
    why: { code: 'selfplay-frozen', params: { seat: 1, copies: 4, frozen: 1, matchId: 45, round: 7, why: 'watchdog', message: 'wall-clock limit' } },
    ca: /\(temps real esgotat\)/,
    es: /\(tiempo real agotado\)/,
  },
  {
    why: {
      code: 'lost',
      params: { opponent: 'Dummy', n: 2, of: 4, matchId: 46, seed: 987, seat: 1, tied: false, score: 10, best: 30, rank: 3, players: 4, froze: null },
    },
    ca: /^Ha perdut contra Dummy a la partida 2 de 4 de la prova \(partida #46, llavor 987\): 3r de 4 amb 10, contra el millor de Dummy, 30$/,
    es: /^Ha perdido contra Dummy en la partida 2 de 4 de la prueba \(partida #46, semilla 987\): 3º de 4 con 10/,
  },
  {
    why: {
      code: 'lost',
      params: {
        opponent: 'Dummy',
        n: 4,
        of: 4,
        matchId: 47,
        seed: 5,
        seat: 3,
        tied: true,
        score: 20,
        best: 20,
        rank: 1,
        players: 4,
        froze: { round: 30, why: 'memory', message: 'heap' },
      },
    },
    ca: /empat al primer lloc amb Dummy a 20 \(un empat no és una victòria\); el teu jugador s’ha congelat a la ronda 29 \(memòria esgotada\)$/,
    es: /empate en el primer puesto con Dummy a 20 \(un empate no es una victoria\); tu jugador se ha congelado en la ronda 29 \(memoria agotada\)$/,
  },
  {
    why: { code: 'name-locked', params: { version: 3, opponent: 'Dummy', name: 'Verd' } },
    ca: /^Nom bloquejat: la versió 3 ha guanyat Dummy/,
    es: /^Nombre bloqueado: la versión 3 ha ganado a Dummy/,
  },
];

test('every gate rejection reads in Catalan and Spanish on the submission page and in the list, in English on English pages and in the API', async () => {
  const ids: number[] = [];
  for (const r of REASONS) {
    const english = englishReason(r.why);
    const { id, name } = await rejected(r.why, english, { step: r.why.code === 'lost' || r.why.code === 'name-locked' ? 'dummy' : 'compile' });
    ids.push(id);
    for (const lang of ['ca', 'es'] as const) {
      const text = decode(verdictOf(await page(ana, `/submissions/${id}`, lang)));
      assert.match(text, r[lang], `${r.why.code} in ${lang}`);
      // The bot's own error (its message, its file) is quoted as it is; everything else is in the page's language.
      assert.doesNotMatch(text.replace(frozen.message, '').replace(/Unexpected ";"/, ''), ENGLISH, `${r.why.code} in ${lang}: ${text}`);
    }
    assert.equal(decode(verdictOf(await page(ana, `/submissions/${id}`, 'en'))), english);
    const api = (await app.inject({ url: `/api/submissions/${id}?lang=ca`, headers: { cookie: ana.cookie } })).json();
    assert.equal(api.reason, english, 'the API keeps the English sentence');
    assert.equal(api.reasonDetail.code, r.why.code, 'and the code with its parameters, for the owner');
    // The player's public page lists the version with its reason, in the page's language too.
    const profile = await page(null, `/players/${name}`, 'es');
    const cell =
      /<table id="versions-moria">[^]*?<tbody><tr>(?:<td[^>]*>[^]*?<\/td>){3}<td>([^]*?)<\/td><\/tr>/.exec(profile)?.[1] ?? assert.fail('no version row');
    assert.match(decode(cell), r.es, `${r.why.code} on the player page`);
  }
  for (const lang of ['ca', 'es'] as const) {
    const list = await page(ana, '/submissions', lang);
    const cells = [...list.matchAll(/<td class="reason">([^]*?)<\/td>/g)].map((m) => decode(m[1]!));
    assert.ok(cells.length >= REASONS.length);
    for (const cell of cells) assert.doesNotMatch(cell.replace(frozen.message, '').replace(/Unexpected ";"/, ''), ENGLISH, `list in ${lang}: ${cell}`);
  }
});

test("older rows with only the English sentence: its usual shapes are worded in the page's language, anything else shown as written", async () => {
  const old = [
    {
      reason: "lost to Dummy in gate match 2 of 4 (match #7, seed 99): ranked 3 of 4 with 10 against Dummy's best 30",
      ca: /^Ha perdut contra Dummy a la partida 2 de 4 de la prova \(partida #7, llavor 99\): 3r de 4 amb 10/,
    },
    {
      reason: 'self-play: copy 3 of 4 froze in round 4 (exception): Error: boom (Crasher.ts:3:9); see match #12',
      ca: /^Partida contra si mateix: la còpia del seient 2 s’ha congelat a la ronda 3 \(excepció: Error: boom \(Crasher\.ts:3:9\)\); mira la partida #12$/,
    },
    {
      reason: "the judge could not play gate match #5 (worker lost); not your bot's fault, please resubmit",
      ca: /^El jutge no ha pogut jugar la partida #5 \(worker lost\)/,
    },
    { reason: 'compile error: Old.ts:2:1: Unexpected "}" (line 2)', ca: /^Error de compilació: Old\.ts:2:1: Unexpected "\}" \(línia 2\)$/, line: 2 },
    { reason: 'name locked: version 2 beat Dummy, but another version of Verd qualified first', ca: /^Nom bloquejat: la versió 2 ha guanyat Dummy/ },
  ];
  for (const o of old) {
    const { id } = await rejected(null, o.reason, o.line !== undefined ? { line: o.line } : {});
    assert.match(decode(verdictOf(await page(ana, `/submissions/${id}`, 'ca'))), o.ca, o.reason);
  }
  const odd = 'something the judge once said';
  const { id } = await rejected(null, odd);
  assert.equal(decode(verdictOf(await page(ana, `/submissions/${id}`, 'es'))), odd);
  assert.equal(
    withLang('ca', () => localizeReason(null, null)),
    null,
  );
});

test("the expected wait reads in the page's language: no estimate, and the estimate with its figures", () => {
  const work = {
    compiling: 1,
    inSelfPlay: 1,
    selfplay: { queued: 1, running: 1 },
    dummy: { queued: 2, running: 1 },
    otherRunning: [{ kind: 'ranked' as const, running: 2 }],
    submissions: 3,
  };
  const durations = { selfplay: 2, dummy: 3, ranked: 4, tournament: null, challenge: null };
  const estimate = expectedWait({ redisOk: true, slots: 2, durations, matchSeconds: 3, work });
  assert.match(estimate.explanation, /^Gate jobs go before ranked and tournament matches/, 'the API keeps the English explanation');
  assert.equal(
    withLang('en', () => waitExplanation(estimate)),
    estimate.explanation,
  );
  const none = [
    expectedWait({ redisOk: false, slots: 2, durations, matchSeconds: 3, work }),
    expectedWait({ redisOk: true, slots: 0, durations, matchSeconds: 3, work }),
    expectedWait({
      redisOk: true,
      slots: 2,
      durations: { selfplay: null, dummy: null, ranked: null, tournament: null, challenge: null },
      matchSeconds: null,
      work,
    }),
  ];
  for (const lang of ['ca', 'es'] as const) {
    const text = withLang(lang, () => waitExplanation(estimate));
    assert.match(
      text,
      lang === 'ca'
        ? /les proves de 3 enviaments anteriors \(1 comprovació, 3 partides contra si mateix, 8 partides contra el Dummy\) i 2 altres partides en joc: uns \d+ s amb 2 executors/
        : /las pruebas de 3 envíos anteriores \(1 comprobación, 3 partidas contra sí mismo, 8 partidas contra el Dummy\) y 2 otras partidas en juego/,
    );
    assert.doesNotMatch(text, ENGLISH, text);
    for (const w of none)
      assert.doesNotMatch(
        withLang(lang, () => waitExplanation(w)),
        ENGLISH,
      );
  }
});

test("challenge and tournament refusals on the pages are in the page's language; the API's codes stay the same", async () => {
  const { id } = await rejected(null, 'compile error: x');
  await db.submission.update({ where: { id }, data: { reasonDetail: { step: 'compile' } } });
  const name = (await db.submission.findUniqueOrThrow({ where: { id }, include: { player: true } })).player.name;
  const challenge = async (lang: Lang, fields: Record<string, string>) => {
    const res = await app.inject({
      method: 'POST',
      url: `/players/${name}/challenge?lang=${lang}`,
      headers: { cookie: ana.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });
    return res;
  };
  const notEligible = await challenge('ca', { submission: String(id) });
  assert.equal(notEligible.statusCode, 409, notEligible.body);
  assert.match(notEligible.body, new RegExp(`l’enviament ${id} encara no ha superat la partida contra si mateix`));
  assert.doesNotMatch(decode(notEligible.body), /has not passed self-play/);
  const badSeed = await challenge('es', { submission: String(id), seed: '-3' });
  assert.equal(badSeed.statusCode, 400, badSeed.body);
  assert.match(badSeed.body, /la semilla es un número entero de 0 a 2147483647/);

  // The API: the same code in every language, the message in the request's.
  const api = await app.inject({
    method: 'POST',
    url: '/api/challenges',
    headers: { cookie: ana.cookie, 'accept-language': 'es' },
    payload: { submissionId: id, opponents: [] },
  });
  if (api.statusCode !== 404) {
    assert.equal(api.json().code, 'not-eligible');
    assert.match(api.json().message, /todavía no ha superado/);
  }

  // A representative that is not eligible (not qualified).
  const rep = await app.inject({
    method: 'POST',
    url: '/account/representatives?lang=ca',
    headers: { cookie: ana.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ game: 'moria', player: name }).toString(),
  });
  assert.ok(rep.statusCode >= 400 && rep.statusCode < 500, rep.body);
  assert.match(decode(rep.body), new RegExp(`${name} no et pot representar`));
  assert.doesNotMatch(decode(rep.body), /cannot represent you/);

  // An admin's tournament form: the domain's refusal on its field, in the page's language.
  const teacher = await registerUser(app, 'verdictteacher');
  await db.user.update({ where: { id: teacher.id }, data: { isAdmin: true } });
  const form = (lang: Lang, fields: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url: `/admin/tournaments?lang=${lang}`,
      headers: { cookie: teacher.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });
  const noName = await form('ca', { game: 'moria', name: '' });
  assert.equal(noName.statusCode, 400, noName.body);
  assert.match(noName.body, /el torneig necessita un nom/);
  const badGame = await form('es', { game: 'chess', name: 'Final' });
  assert.equal(badGame.statusCode, 400, badGame.body);
  assert.match(decode(badGame.body), /juego desconocido chess: uno de /);
  assert.doesNotMatch(decode(badGame.body), /unknown game/);
});

test("one seat numbering, 0 to 3 as arbiter play: the gate timeline and the match page agree, and both give the match's arbiter play line", async () => {
  const { id, name } = await rejected(null, 'x');
  const sub = await db.submission.findUniqueOrThrow({ where: { id } });
  const m = await insertMatch(db, {
    kind: 'gate',
    submissionId: id,
    seats: [
      { name: 'Dummy', builtinName: 'Dummy', score: 30, rank: 1 },
      { name, submissionId: id, playerId: sub.playerId, score: 10, rank: 3 },
      { name: 'Dummy', builtinName: 'Dummy', score: 20, rank: 2 },
      { name: 'Dummy', builtinName: 'Dummy', score: 5, rank: 4 },
    ],
  });
  await db.match.update({ where: { id: m.id }, data: { gateIndex: 1 } });
  await db.participant.updateMany({ where: { matchId: m.id, seat: 1 }, data: { frozenRound: 5, frozenReason: 'cpu', frozenMessage: 'CPU budget used up' } });
  const line = `node arbiter.mjs play Dummy ${sub.filename} Dummy Dummy --seed 42`;
  for (const lang of ['en', 'ca', 'es'] as const) {
    const gate = await page(ana, `/submissions/${id}`, lang);
    const seatWord = { en: 'Seat', ca: 'Seient', es: 'Asiento' }[lang];
    assert.match(gate, new RegExp(`<span class="visually-hidden">${seatWord} 1: </span><strong>${name}</strong>`), `${lang}: the bot sits in seat 1`);
    assert.match(gate, new RegExp(`<span class="visually-hidden">${seatWord} 0: </span>Dummy`));
    assert.ok(gate.includes(`<code class="play" id="play-${m.id}">${line}</code>`), `${lang}: the gate gives the play line`);
    const match = await page(null, `/matches/${m.id}`, lang);
    assert.match(
      match,
      new RegExp(`<tr data-seat="1">\\s*<td[^>]*><span class="seat seat-1" aria-hidden="true"></span>1</td>\\s*<td[^>]*>(<a[^>]*>)?${name}`),
      `${lang}: the match page numbers the same seat 1`,
    );
    assert.ok(match.includes(`<code class="play" id="match-play">${line}</code>`), `${lang}: the match page gives the same line`);
    // Why it froze, in the page's language (English keeps the recorded word), in the round the bot's round() saw: stored 5, shown 4.
    const why = { en: 'cpu', ca: 'temps de CPU', es: 'tiempo de CPU' }[lang];
    assert.ok(
      gate.includes(`${{ en: 'frozen', ca: 'congelat', es: 'congelado' }[lang]}, ${{ en: 'round', ca: 'ronda', es: 'ronda' }[lang]} 4 (${why})`),
      `${lang}: the gate's frozen badge`,
    );
    assert.match(
      match,
      new RegExp(`</span> ${why}${{ en: ' in round', ca: ' a la ronda', es: ' en la ronda' }[lang]} 4`),
      `${lang}: the match page's out column`,
    );
  }
  const api = (await app.inject({ url: `/api/matches/${m.id}` })).json();
  assert.equal(api.play, line);
  assert.deepEqual(
    api.participants.map((p: { seat: number }) => p.seat),
    [0, 1, 2, 3],
  );
  const play = await page(null, '/games/moria/play', 'ca');
  assert.deepEqual(
    [...play.matchAll(/<label for="play-seat-(\d)">Jugador (\d)<\/label>/g)].map((x) => [x[1], x[2]]),
    [
      ['1', '1'],
      ['2', '2'],
      ['3', '3'],
    ],
    'the play page: your bot is player 0, the opponents 1 to 3',
  );
});

test("the teacher's views of a student (the student's page, the list of submissions) word the gate's reasons in the page's language", async () => {
  const teacher = await registerUser(app, 'verdictstaff');
  await db.user.update({ where: { id: teacher.id }, data: { isAdmin: true } });
  const why = REASONS.find((r) => r.why.code === 'lost')!;
  await rejected(why.why, englishReason(why.why), { step: 'dummy' });
  for (const lang of ['ca', 'es'] as const) {
    for (const url of [`/admin/users/${ana.id}`, `/admin/submissions?user=${ana.username}`]) {
      const body = await page(teacher, url, lang);
      const cells = [...body.matchAll(/<(?:span|td) class="reason">([^]*?)<\/(?:span|td)>/g)].map((m) => decode(m[1]!));
      assert.ok(cells.length >= 1, `${url} in ${lang}: a reason`);
      const start = { ca: 'Ha perdut contra Dummy a la partida', es: 'Ha perdido contra Dummy en la partida' }[lang];
      assert.ok(
        cells.some((c) => c.startsWith(start)),
        `${url} in ${lang}: ${cells.join(' | ')}`,
      );
      // (The older test's row of no known shape is shown as written.)
      for (const cell of cells.filter((c) => c !== 'something the judge once said'))
        assert.doesNotMatch(cell.replace(frozen.message, '').replace(/Unexpected ";"/, ''), ENGLISH, `${url} in ${lang}: ${cell}`);
    }
  }
});
