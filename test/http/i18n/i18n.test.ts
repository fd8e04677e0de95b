// The site's languages: negotiation (?lang= > cookie > Accept-Language > English),
// the catalogs agreeing key for key, and the pages and error messages as a
// browser sees them through app.inject (html lang, the switch, the cookie that
// keeps the choice, the API's codes the same in every language).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApi } from '../../helpers/app.ts';
import { CATALOGS, LANGS, negotiate, resolveLanguage, translate } from '../../../src/http/i18n/index.ts';
import { VIEWER_WORDS } from '../../../src/http/client/viewer/words.ts';
import { MORIA_WORDS } from '../../../src/games/moria/viewer-words.ts';
import { WALKING_DEAD_WORDS } from '../../../src/games/walking-dead/viewer-words.ts';
import { HARRY_POTTER_WORDS } from '../../../src/games/harry-potter/viewer-words.ts';
import { BOLA_DE_DRAC_WORDS } from '../../../src/games/bola-de-drac/viewer-words.ts';

test('Accept-Language: the supported language with the highest q wins, regions and case ignored, q=0 refuses', () => {
  assert.equal(negotiate(undefined), null);
  assert.equal(negotiate(''), null);
  assert.equal(negotiate('ca'), 'ca');
  assert.equal(negotiate('ca-ES,ca;q=0.9'), 'ca');
  assert.equal(negotiate('ES-es'), 'es');
  assert.equal(negotiate('fr-FR,fr;q=0.9,es;q=0.8,en;q=0.7'), 'es');
  assert.equal(negotiate('en;q=0.5,ca;q=0.8'), 'ca', 'order in the header is not preference');
  assert.equal(negotiate('es;q=0.8,ca;q=0.8'), 'es', 'ties: the header order');
  assert.equal(negotiate('ca;q=0,en;q=0.1'), 'en');
  assert.equal(negotiate('de,fr;q=0.5'), null);
  assert.equal(negotiate('*'), null);
  assert.equal(negotiate('ca;q=abc,es;q=2'), null, 'malformed q-values are passed over');
});

test('the language: ?lang= over the cookie over Accept-Language over English; unsupported values passed over', () => {
  assert.equal(resolveLanguage({}), 'en');
  assert.equal(resolveLanguage({ acceptLanguage: 'es' }), 'es');
  assert.equal(resolveLanguage({ cookie: 'ca', acceptLanguage: 'es' }), 'ca');
  assert.equal(resolveLanguage({ query: 'en', cookie: 'ca', acceptLanguage: 'es' }), 'en');
  assert.equal(resolveLanguage({ query: 'fr', cookie: 'xx', acceptLanguage: 'es' }), 'es');
  assert.equal(resolveLanguage({ query: ['ca'], acceptLanguage: 'es' }), 'es');
});

test('every catalog has the same keys, the same arguments, and markup only in _html keys', () => {
  const keys = Object.keys(CATALOGS.en).sort();
  assert.ok(keys.length > 20);
  for (const lang of LANGS) {
    const catalog = CATALOGS[lang] as Record<string, unknown>;
    assert.deepEqual(Object.keys(catalog).sort(), keys, lang);
    for (const key of keys) {
      const m = catalog[key];
      const source = (CATALOGS.en as Record<string, unknown>)[key];
      assert.equal(typeof m, typeof source, `${lang} ${key}`);
      if (typeof m === 'function') assert.equal(m.length, (source as (...a: unknown[]) => string).length, `${lang} ${key}: arguments`);
      else {
        assert.ok(typeof m === 'string' && m.trim() !== '', `${lang} ${key}: empty`);
        if (!key.endsWith('_html')) assert.doesNotMatch(m, /<[a-z]/i, `${lang} ${key}: markup outside an _html key`);
      }
    }
  }
  assert.equal(translate('ca', 'nav.games'), 'Jocs');
  assert.equal(translate('es', 'form.problems', 3), 'Hay 3 problemas');
});

/** The shape of a words object: every path, with a function's arity or an array's length. */
function shape(v: unknown, path = ''): string[] {
  if (typeof v === 'function') return [`${path}()${v.length}`];
  if (Array.isArray(v)) return [`${path}[${v.length}]`, ...v.flatMap((x, i) => shape(x, `${path}[${i}]`))];
  if (v && typeof v === 'object')
    return Object.entries(v)
      .flatMap(([k, x]) => shape(x, `${path}.${k}`))
      .sort();
  assert.ok(typeof v === 'string' && v.trim() !== '', `${path}: empty`);
  return [path];
}

test("the viewer's words and each game's legend and tooltip words exist in every language, Catalan from the statements", () => {
  for (const [name, words] of Object.entries({ VIEWER_WORDS, MORIA_WORDS, WALKING_DEAD_WORDS, HARRY_POTTER_WORDS, BOLA_DE_DRAC_WORDS })) {
    for (const lang of LANGS) assert.deepEqual(shape(words[lang]), shape(words.en), `${name}.${lang}`);
  }
  assert.deepEqual(MORIA_WORDS.ca.cells, ['Exterior', 'Cova', 'Abisme', 'Granit', 'Roca']);
  assert.equal(WALKING_DEAD_WORDS.ca.legend.waste, 'deixalla');
  assert.equal(BOLA_DE_DRAC_WORDS.ca.cells.capsule, 'càpsula Hoi Poi');
  assert.equal(HARRY_POTTER_WORDS.ca.legend.wall, 'Paret');
});

const { app } = await startTestApi();
const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...headers } });

test('pages: <html lang> and the words follow Accept-Language; ?lang= wins and sets a cookie that keeps the choice', async () => {
  const en = await get('/');
  assert.match(en.body, /<html lang="en">/);
  assert.match(en.body, /<a href="\/matches">Matches<\/a>/);
  assert.match(String(en.headers.vary), /Accept-Language/);
  const es = await get('/', { 'accept-language': 'es-ES,es;q=0.9,en;q=0.5' });
  assert.match(es.body, /<html lang="es">/);
  assert.match(es.body, /<a href="\/matches">Partidas<\/a>/);
  const ca = await get('/queue?lang=ca', { 'accept-language': 'es' });
  assert.equal(ca.statusCode, 200, 'a page whose query allows nothing else still takes ?lang=');
  assert.match(ca.body, /<html lang="ca">/);
  assert.match(ca.body, /<a href="\/matches">Partides<\/a>/);
  const cookie = [ca.headers['set-cookie']].flat().find((c) => /^lang=ca;/.test(String(c)));
  assert.ok(cookie, 'the choice is remembered');
  assert.match(String(cookie), /Path=\//);
  assert.match(String(cookie), /Max-Age=\d{6,}/);
  // The switch links to the same page in each other language.
  assert.match(ca.body, /<a href="\/queue\?lang=en" hreflang="en" lang="en" data-lang="en">English<\/a>/);
  assert.match(ca.body, /<a href="\/queue\?lang=es" hreflang="es" lang="es" data-lang="es">Español<\/a>/);
  assert.match(ca.body, /<span aria-current="true" lang="ca">Català<\/span>/);
  const later = await get('/matches', { cookie: 'lang=ca', 'accept-language': 'es' });
  assert.match(later.body, /<html lang="ca">/, 'the cookie wins over Accept-Language');
  const bad = await get('/?lang=fr', { 'accept-language': 'es' });
  assert.match(bad.body, /<html lang="es">/);
  assert.equal(bad.headers['set-cookie'], undefined);
});

test('error pages speak the language; the API answers the same code in every language', async () => {
  const missing = await get('/no/such/page', { 'accept-language': 'ca' });
  assert.equal(missing.statusCode, 404);
  assert.match(missing.body, /<h1>No s&#39;ha trobat<\/h1>/);
  assert.match(missing.body, /No hi ha cap pàgina a \/no\/such\/page\./);
  const codes = new Set<string>();
  for (const lang of ['en', 'ca', 'es']) {
    const r = await app.inject({ method: 'GET', url: '/api/me', headers: { 'accept-language': lang } });
    assert.equal(r.statusCode, 401);
    codes.add(r.json().code);
    const v = await app.inject({ method: 'GET', url: `/api/matches?limit=abc&lang=${lang}` });
    assert.equal(v.statusCode, 400);
    codes.add(v.json().code);
  }
  assert.deepEqual([...codes].sort(), ['unauthorized', 'validation']);
  // A refusal with a translated code: the message follows Accept-Language, the code does not.
  const answers = new Map<string, { code: string; message: string }>();
  for (const lang of ['en', 'ca', 'es']) {
    const r = await app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { 'accept-language': lang },
      payload: { username: `weak_${lang}`, password: 'x' },
    });
    assert.equal(r.statusCode, 400);
    answers.set(lang, r.json());
  }
  assert.deepEqual([...new Set([...answers.values()].map((a) => a.code))], ['weak-password']);
  assert.match(answers.get('en')!.message, /^password must be at least \d+ characters$/);
  assert.match(answers.get('ca')!.message, /^la contrasenya ha de tenir com a mínim \d+ caràcters$/);
  assert.match(answers.get('es')!.message, /^la contraseña debe tener al menos \d+ caracteres$/);
});

test('the play page in Catalan with ?lang=ca: its heading, the judge note, the form; the same ids', async () => {
  const r = await get('/games/moria/play?lang=ca');
  assert.equal(r.statusCode, 200);
  assert.match(r.body, /<html lang="ca">/);
  assert.match(r.body, /<h1>Juga a Moria al navegador<\/h1>/);
  assert.match(r.body, /<p class="notice" id="play-judge-note"><strong>[^<]*el servidor continua sent l’únic jutge\.[^<]*<\/strong><\/p>/);
  assert.match(r.body, /<label for="play-seed">Llavor<\/label>/);
  assert.match(r.body, /<option value="Dummy" selected>Dummy \(el de la prova\)<\/option>/);
  assert.match(r.body, /<button type="submit">Juga la partida<\/button>/);
  const text = r.body
    .replace(/<nav class="site-lang"[^]*?<\/nav>/, '')
    .replace(/<script[^]*?<\/script>/g, '')
    .replace(/<[^>]+>/g, ' ');
  assert.doesNotMatch(text, /\b(Play|Your bot|Opponents|Seed|Logs|Download|only judge|the gate)\b/);
  const picker = await get('/play', { 'accept-language': 'ca' });
  assert.match(picker.body, /<h1>Juga al navegador<\/h1>[^]*<h2>Tria un joc<\/h2>/);
});

test('the public pages in Catalan and Spanish leave no English behind (statements and game names aside)', async () => {
  const english =
    /\b(Log in|Sign up|Matches|Leaderboard|No match yet|Latest matches|Download|Limits|Workers|Throughput|Submit|How it works|qualified players?|per match|waiting|Statement|Replay viewer|Tournaments|Username|Password|Not found)\b/;
  assert.match((await get('/queue')).body.replace(/<[^>]+>/g, ' '), english, 'the check sees English where it is');
  for (const lang of ['ca', 'es']) {
    for (const url of [
      '/',
      '/games/moria',
      '/games/walking-dead/leaderboard',
      '/matches',
      '/queue',
      '/tournaments',
      '/view',
      '/login',
      '/signup',
      '/no/such/page',
    ]) {
      const r = await get(url, { cookie: `lang=${lang}` });
      const text = r.body
        .replace(/<section class="statement"[^]*?<\/section>/, '')
        .replace(/<nav class="site-lang"[^]*?<\/nav>/, '')
        .replace(/<[^>]+>/g, ' ');
      assert.doesNotMatch(text, english, `${lang} ${url}`);
    }
  }
});
