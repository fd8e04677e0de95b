// `arbiter verify <replays.zip>`: a small Coins tournament run end to end on a
// real worker, the recorder and the scheduler (one entry withdrawn by an
// admin after the start), its archive downloaded as anyone would, then
// verified as it is (exit 0, one line) and in tampered copies, each of which
// must fail naming what differs: a score in a replay, two replays' contents
// swapped, a seat moved in the manifest and in a replay, a standing, the
// tournament seed.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScheduler, type Scheduler } from '../../../src/jobs/scheduler/index.ts';
import { createTournament } from '../../../src/domain/tournaments.ts';
import { zipEntries } from '../../../src/domain/similarity/unzip.ts';
import { zip } from '../../../src/http/starter-kit/zip.ts';
import { decodeReplay, encodeReplay } from '../../../src/match/replay-io.ts';
import { verifyTournamentBundle, type BundleResult } from '../../../src/domain/verify-tournament.ts';
import { startTestJudge, type TestJudge } from '../../helpers/judge.ts';
import { waitFor } from '../../helpers/queue.ts';
import { arbiterAsync } from '../../helpers/cli.ts';
import { coinsBot, qualifiedPlayer, TEST_GAMES, type TestPlayer } from '../../helpers/tournaments.ts';

process.env.ARBITER_GAMES_PATH = TEST_GAMES;

const SEED = 4242;
const CONFIG = { nb_rounds: 60 };

let judge: TestJudge;
let scheduler: Scheduler | null = null;
let bundle: Buffer;
let dir: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-verify-'));
  judge = await startTestJudge({ workers: 0 });
  await judge.addWorker({ concurrency: 2 });
  // Eight players (two groups of four, then the final phase); Quitter, the strongest, is disabled once the tournament started.
  const players: TestPlayer[] = [];
  players.push(await qualifiedPlayer(judge.db, { username: 'quitter', name: 'Quitter', source: coinsBot('Quitter', 1) }));
  for (let i = 1; i < 8; i++)
    players.push(await qualifiedPlayer(judge.db, { username: `user${i}`, name: `Bot${i}`, source: coinsBot(`Bot${i}`, 1 + i, i % 2) }));
  await judge.queues.matches.pause();
  scheduler = startScheduler({
    db: judge.db,
    queues: judge.queues,
    rankedEnabled: false,
    sweepIntervalMs: 500,
    sweepOlderThanMs: 3000,
    tournamentIntervalMs: 200,
  });
  const t = await createTournament(judge.db, null, { game: 'coins', name: 'Verify cup', freezeAt: new Date(), config: CONFIG, seed: SEED });
  await waitFor('the start', async () => (await judge.db.tournament.findUnique({ where: { id: t.id } }))?.status === 'running', 30_000, 100);
  await judge.db.submission.update({ where: { id: players[0]!.submissionId }, data: { disabledAt: new Date() } });
  await judge.queues.matches.resume();
  await waitFor('the tournament to finish', async () => (await judge.db.tournament.findUnique({ where: { id: t.id } }))?.status === 'finished', 120_000, 200);
  const res = await judge.app.inject({ url: `/api/tournaments/${t.id}/replays.zip` });
  assert.equal(res.statusCode, 200);
  bundle = res.rawPayload;
});

after(async () => {
  await scheduler?.close();
  await judge?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The archive's files, by name. */
const files = (z: Buffer) => new Map(zipEntries(z).map((e) => [e.name, e.read(1 << 30)]));

/** A copy of the archive with some files changed. */
function tampered(edit: (f: Map<string, Buffer>, manifest: any) => void): Buffer {
  const f = files(bundle);
  const manifest = JSON.parse(f.get('manifest.json')!.toString());
  edit(f, manifest);
  f.set('manifest.json', Buffer.from(JSON.stringify(manifest, null, 2)));
  return zip([...f].map(([name, data]) => ({ name, data })));
}

const editReplay = (f: Map<string, Buffer>, file: string, edit: (r: ReturnType<typeof decodeReplay>) => void) => {
  const r = decodeReplay(f.get(file)!);
  edit(r);
  f.set(file, encodeReplay(r));
};

function fails(result: BundleResult, message: RegExp) {
  assert.equal(result.ok, false, 'the tampered archive must not verify');
  assert.ok(!result.ok);
  assert.equal(result.otherEngine, undefined);
  assert.match(result.message, message);
}

test('the archive as served verifies: exit 0 and one line; the manifest carries the seed, the rules and the withdrawal', async () => {
  const manifest = JSON.parse(files(bundle).get('manifest.json')!.toString());
  assert.equal(manifest.format, 'arbiter-tournament');
  assert.equal(manifest.tournament.seed, SEED);
  assert.deepEqual(manifest.tournament.config, CONFIG);
  assert.deepEqual(manifest.tournament.rules, { seats: 4, dummy: 'Dummy', maxRounds: 200 });
  assert.equal(manifest.entries.length, 8);
  const quitter = manifest.entries.find((e: any) => e.name === 'Quitter');
  assert.deepEqual([quitter.eliminatedRound, quitter.withdrawn], [1, true], 'Quitter won its round-1 match and was withdrawn when the round ended');
  assert.ok(manifest.entries.filter((e: any) => e.name !== 'Quitter').every((e: any) => !e.withdrawn));
  assert.ok(new Set(manifest.matches.map((m: any) => m.round)).size >= 3, 'a knockout round and a final phase');

  const result = await verifyTournamentBundle(bundle);
  assert.ok(result.ok, result.ok ? '' : result.message);
  assert.equal(result.matches, manifest.matches.length);

  const path = join(dir, 'replays.zip');
  writeFileSync(path, bundle);
  const cli = await arbiterAsync('verify', path);
  assert.equal(cli.code, 0, cli.err);
  assert.equal(cli.err, '');
  const lines = cli.out.trim().split('\n');
  assert.equal(lines.length, 1);
  const champion = manifest.standings[0].name;
  assert.match(
    lines[0]!,
    new RegExp(
      `^ok: tournament #${manifest.tournament.id} "Verify cup" \\(coins, seed ${SEED}\\): ${manifest.matches.length} matches in \\d+ rounds replayed .*every draw and match seed follows from the tournament seed, the standings follow from the results; champion ${champion}$`,
    ),
  );
});

test('a changed score: in a replay the re-run catches it; in the manifest the replay does', async () => {
  const m0 = JSON.parse(files(bundle).get('manifest.json')!.toString()).matches[0];
  const where = `round 1, group 1 \\(match ${m0.id}\\)`;
  fails(
    await verifyTournamentBundle(tampered((f) => editReplay(f, m0.file, (r) => (r.result.scores[2]! += 1)))),
    new RegExp(`^${where}: re-running ${m0.file.replace(/\./g, '\\.')} from its recorded orders, round \\d+: the final scores differ$`),
  );
  fails(
    await verifyTournamentBundle(tampered((f, m) => (m.matches[0].scores[1] += 5))),
    new RegExp(`^${where}, seat 1 \\(${m0.seats[1].name}\\): the manifest's score is ${m0.scores[1] + 5}, the replay's ${m0.scores[1]}$`),
  );
  // A score changed in the replay's last round and its result alike: the board replayed gives the true one.
  fails(
    await verifyTournamentBundle(
      tampered((f) =>
        editReplay(f, m0.file, (r) => {
          r.rounds.at(-1)!.scores[0]! += 1;
          r.result.scores[0]! += 1;
        }),
      ),
    ),
    new RegExp(`^${where}: re-running .* round \\d+: the scores after round \\d+ differ$`),
  );
});

test('two replays swapped: each file is checked against the match the manifest names it for', async () => {
  const { matches } = JSON.parse(files(bundle).get('manifest.json')!.toString());
  const [a, b] = matches as any[];
  const result = await verifyTournamentBundle(
    tampered((f) => {
      const x = f.get(a.file)!;
      f.set(a.file, f.get(b.file)!);
      f.set(b.file, x);
    }),
  );
  fails(
    result,
    new RegExp(
      `^round ${a.round}, group ${a.group} \\(match ${a.id}\\): .*${a.file.replace(/\./g, '\\.')} is the replay of a coins match with seed ${b.seed} and players ${b.seats.map((s: any) => s.name).join(', ')}; the manifest names it for seed ${a.seed} and players ${a.seats.map((s: any) => s.name).join(', ')}$`,
    ),
  );
});

test('a moved seat: in the manifest the draw from the seed catches it, in a replay the manifest does', async () => {
  const { matches, entries } = JSON.parse(files(bundle).get('manifest.json')!.toString());
  const m0 = matches[0];
  const who = (s: any) => (s.entry === null ? 'a Dummy' : `${entries[s.entry].name} \\(entry ${s.entry}\\)`);
  fails(
    await verifyTournamentBundle(
      tampered((_, m) => {
        const seats = m.matches[0].seats;
        [seats[0], seats[1]] = [
          { ...seats[1], seat: 0 },
          { ...seats[0], seat: 1 },
        ];
      }),
    ),
    new RegExp(
      `^round 1, group 1 \\(match ${m0.id}\\), seat 0: the manifest seats ${who(m0.seats[1])}, the draw from the tournament seed seats ${who(m0.seats[0])}$`,
    ),
  );
  fails(
    await verifyTournamentBundle(tampered((f) => editReplay(f, m0.file, (r) => ([r.players[0], r.players[1]] = [r.players[1]!, r.players[0]!])))),
    new RegExp(
      `^round 1, group 1 \\(match ${m0.id}\\): .* players ${m0.seats[1].name}, ${m0.seats[0].name}, .*; the manifest names it for seed ${m0.seed} and players ${m0.seats[0].name}, ${m0.seats[1].name}, `,
    ),
  );
});

test('a changed standing: in the manifest, in an entry, in standings.csv', async () => {
  const { standings } = JSON.parse(files(bundle).get('manifest.json')!.toString());
  const [first, second] = standings as any[];
  fails(
    await verifyTournamentBundle(
      tampered((_, m) => {
        [m.standings[0], m.standings[1]] = [
          { ...m.standings[1], place: 1, position: 1 },
          { ...m.standings[0], place: 2, position: 2 },
        ];
      }),
    ),
    new RegExp(`^standing 1: the manifest puts ${second.name} \\(entry ${second.entry}\\) there, the results put ${first.name} \\(entry ${first.entry}\\)$`),
  );
  fails(
    await verifyTournamentBundle(tampered((_, m) => (m.standings[2].lastScore += 1))),
    new RegExp(
      `^standing 3 \\(${standings[2].name}\\): the manifest's last score is ${standings[2].lastScore + 1}, the results give ${standings[2].lastScore}$`,
    ),
  );
  fails(
    await verifyTournamentBundle(tampered((_, m) => (m.entries.find((e: any) => e.eliminatedRound === 1 && !e.withdrawn).eliminatedRound = 2))),
    /^entry \d+ \(\w+\): the manifest says it fell in round 2; by the results it fell in round 1$/,
  );
  fails(
    await verifyTournamentBundle(tampered((_, m) => (m.entries.find((e: any) => e.withdrawn).withdrawn = false))),
    /^entry 0 \(Quitter\): the manifest says it fell in round 1; by the results it is still in at the end$|^round 2[,:] /,
  );
  fails(
    await verifyTournamentBundle(
      tampered((f) => {
        const lines = f.get('standings.csv')!.toString().split('\r\n');
        [lines[1], lines[2]] = [lines[2]!.replace(/^"2",/, '"1",'), lines[1]!.replace(/^"1",/, '"2",')];
        f.set('standings.csv', Buffer.from(lines.join('\r\n')));
      }),
    ),
    new RegExp(`^standings\\.csv, line 2 \\(standing 1, ${first.name}\\): player is "${second.name}", the results give "${first.name}"$`),
  );
});

test('a changed tournament seed: the first match’s seed no longer follows from it', async () => {
  const m0 = JSON.parse(files(bundle).get('manifest.json')!.toString()).matches[0];
  fails(
    await verifyTournamentBundle(tampered((_, m) => (m.tournament.seed = SEED + 1))),
    new RegExp(`^round 1, group 1 \\(match ${m0.id}\\): the manifest gives seed ${m0.seed}, the tournament seed ${SEED + 1} gives \\d+$`),
  );
});

test('a tournament under way: the rounds played so far are verified, the standings are not', async () => {
  const result = await verifyTournamentBundle(
    tampered((f, m) => {
      const lastRound = Math.max(...m.matches.map((x: any) => x.round));
      for (const x of m.matches.filter((x: any) => x.round === lastRound)) f.delete(x.file);
      m.matches = m.matches.filter((x: any) => x.round !== lastRound);
      m.tournament.status = 'running';
    }),
  );
  assert.ok(result.ok, result.ok ? '' : result.message);
  assert.equal(result.finished, false);
  assert.match(
    result.summary,
    /^ok so far: tournament #\d+ "Verify cup" \(coins, seed 4242\) is running and round \d+ is under way \(0 of 1 matches played\): .*; the standings are not final and were not checked$/,
  );
});

test('the CLI: a tampered archive exits 1 naming what differs; a zip without a manifest exits 2; an older manifest says so', async () => {
  const bad = join(dir, 'bad.zip');
  writeFileSync(
    bad,
    tampered((_, m) => (m.tournament.seed = SEED + 1)),
  );
  const none = join(dir, 'none.zip');
  writeFileSync(none, zip([{ name: 'hello.txt', data: 'hi' }]));
  const old = join(dir, 'old.zip');
  writeFileSync(
    old,
    tampered((_, m) => {
      delete m.format;
      delete m.entries;
    }),
  );
  const [b, n, o] = await Promise.all([arbiterAsync('verify', bad), arbiterAsync('verify', none), arbiterAsync('verify', old)]);
  assert.equal(b.code, 1);
  assert.equal(b.out, '');
  assert.match(b.err, /^mismatch: round 1, group 1 \(match \d+\): the manifest gives seed \d+, the tournament seed 4243 gives \d+\n$/);
  assert.equal(n.code, 2);
  assert.match(n.err, /^arbiter verify: not a tournament archive: no manifest\.json/);
  assert.equal(o.code, 2);
  assert.match(o.err, /made by an older Arbiter/);
});
