// A built-in bot made cheaper must decide as it did (issue 35). This plays
// whole matches where a seat is a pair of twins: the shipped bot and its
// reference (the plain version it replaced, kept under
// test/fixtures/bots/reference/<game>/), each in a node:vm context of its own with the same seat and
// seed, both fed the same view every round. The twins must ask for the same
// orders, byte for byte, every round; the shipped twin's orders are played.
// The other seats are ordinary built-ins, to vary the matches.

import vm from 'node:vm';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { getGame } from '../../src/games/registry.ts';
import { isOver, type AnyGame } from '../../src/sdk/types.ts';
import { compileBot } from '../../src/sandbox/languages/index.ts';
import { buildPrelude } from '../../src/sandbox/hosts/prelude.ts';
import { runWithLexicalGlobals } from '../../src/sandbox/hosts/inprocess-host.ts';
import type { BotHandle } from '../../src/sandbox/hosts/bot-runtime.ts';

/** A bot loaded in a node:vm context of its own, as the match process loads a built-in. */
async function loadBot(game: AnyGame, prelude: string, path: string, me: number, seed: number): Promise<BotHandle> {
  const code = await compileBot(await readFile(path, 'utf8'), path.split('/').pop()!, game.id);
  const context = vm.createContext({});
  const handle = runWithLexicalGlobals(context, prelude, 'prelude.js') as BotHandle;
  handle.setup(me, seed, 1 << 20);
  const factory = runWithLexicalGlobals(context, code, 'bot.js');
  handle.load(typeof factory === 'function' ? (factory as () => unknown)() : factory);
  return handle;
}

export interface TwinRun {
  /** Rounds where the twins were compared, over all twin seats. */
  compared: number;
  /** How often each order list was asked for (to show the matches exercised the bot). */
  orders: Map<string, number>;
}

/**
 * Plays `seeds` x `configs` x `lineups` matches of `gameId`: a lineup names
 * each seat's built-in, "twin" for the shipped `bot` paired with `reference`
 * (source paths). Fails on the first round the twins disagree.
 */
export async function playTwins(
  gameId: string,
  spec: { bot: string; reference: string; seeds: readonly number[]; configs: readonly Record<string, unknown>[]; lineups: readonly string[][] },
): Promise<TwinRun> {
  const game = await getGame(gameId);
  const prelude = await buildPrelude(game);
  const run: TwinRun = { compared: 0, orders: new Map() };
  for (const settings of spec.configs) {
    const config = game.parseConfig(settings);
    for (const seed of spec.seeds) {
      for (const lineup of spec.lineups) {
        const seats = await Promise.all(
          lineup.map(async (name, p) =>
            name === 'twin'
              ? [await loadBot(game, prelude, spec.bot, p, seed), await loadBot(game, prelude, spec.reference, p, seed)]
              : [await loadBot(game, prelude, game.bots.builtin[name]!, p, seed)],
          ),
        );
        const where = (p: number, round: number) => `${JSON.stringify(settings)} seed ${seed} lineup ${lineup.join(',')} seat ${p} round ${round}`;
        let state = game.create(config, seed);
        const frozen = lineup.map(() => false);
        while (!isOver(game, config, state)) {
          const round = game.round(state) + 1;
          const view = game.encodeView(state);
          const names = JSON.stringify(Object.keys(view));
          const status = JSON.stringify({ status: lineup.map(() => 0), names: lineup.map((n) => (n === 'twin' ? 'Dummy' : n)) });
          const orders = seats.map(([bot, reference], p) => {
            const [, mine, log] = bot!.play(names, status, ...Object.values(view));
            if (reference) {
              const [, theirs, theirLog] = reference.play(names, status, ...Object.values(view));
              assert.equal(mine, theirs, `${where(p, round)}: the bot asked for ${mine}, its reference for ${theirs}`);
              assert.equal(log, theirLog, `${where(p, round)}: the logs differ`);
              run.compared++;
              run.orders.set(mine, (run.orders.get(mine) ?? 0) + 1);
            }
            return game.validateOrders(state, p, JSON.parse(mine)).orders;
          });
          state = game.next(state, orders, frozen).state;
        }
      }
    }
  }
  return run;
}
