// `npm run bench tournament`: wall time of a 64-player official tournament of
// Coins (the test game, 30 rounds a match: the platform's cost, not a game's),
// from the freeze to the champion, with one and with two match runners, through
// the whole pipeline (scheduler → queue → match runners → recorder, which
// draws each next round). Uses the embedded defaults: PGlite in memory and
// Redis as `npm start` finds it.
//   npm run bench tournament [players=64]

import { withJudge } from './judge.ts';
import { startScheduler } from '../src/jobs/scheduler/index.ts';
import { createTournament } from '../src/domain/tournaments.ts';
import { coinsBot, qualifiedPlayer, TEST_GAMES } from '../test/helpers/tournaments.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function once(players: number, runners: number): Promise<void> {
  await withJudge(runners, async (db, queues) => {
    const scheduler = startScheduler({ db, queues, rankedEnabled: false, tournamentIntervalMs: 200 });
    try {
      for (let i = 0; i < players; i++) {
        const name = i === 0 ? 'Strong' : `Bot${i}`;
        await qualifiedPlayer(db, { username: `u${i}`, name, source: i === 0 ? coinsBot(name, 1) : coinsBot(name, 2 + (i % 5), i % 3) });
      }
      const t0 = Date.now();
      const t = await createTournament(db, null, { game: 'coins', name: 'bench', freezeAt: new Date(), config: { nb_rounds: 30 }, seed: 20261204 });
      for (;;) {
        const row = await db.tournament.findUniqueOrThrow({ where: { id: t.id } });
        if (row.status === 'finished') break;
        if (Date.now() - t0 > 600_000) throw new Error('bench: timed out');
        await sleep(50);
      }
      const ms = Date.now() - t0;
      const matches = await db.match.count({ where: { tournamentId: t.id } });
      const rounds = (await db.tournament.findUniqueOrThrow({ where: { id: t.id } })).round;
      const champion = await db.tournamentEntry.findFirst({ where: { tournamentId: t.id, place: 1 } });
      console.log(
        `tournament, ${players} players, ${runners} match runner(s): ${(ms / 1000).toFixed(1)} s from freeze to champion (${rounds} rounds, ${matches} matches, ${((matches / ms) * 60_000).toFixed(0)} matches/min; champion ${champion?.name ?? 'none'})`,
      );
    } finally {
      await scheduler.close();
    }
  });
}

export async function run(args: string[] = []): Promise<void> {
  process.env.ARBITER_GAMES_PATH = TEST_GAMES;
  const players = Number(args[0] ?? 64);
  for (const runners of [1, 2]) await once(players, runners);
}
