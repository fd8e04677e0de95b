// Runs the built-in Dummy on a given state, outside a match, with its
// random() fed from a Park–Miller generator at a given seed: the generator
// the original game's players drew from (Utils.hh randomize(), shared with the
// board). With the seed the original player saw before its play(), the Dummy
// must ask for the same action as the original dummy did.

import vm from 'node:vm';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import game from '../../../src/games/bola-de-drac/index.ts';
import type { State } from '../../../src/games/bola-de-drac/engine.ts';
import { DIR_CHARS } from '../../../src/games/bola-de-drac/consts.ts';
import { compileBot } from '../../../src/sandbox/languages/index.ts';
import { buildPrelude } from '../../../src/sandbox/hosts/prelude.ts';
import type { BotHandle } from '../../../src/sandbox/hosts/bot-runtime.ts';

/** The original's randomize() from a given rnd_seed. */
export class Randomize {
  constructor(public seed: number) {}
  next(): number {
    this.seed = (this.seed * 48271) % 2147483647;
    return this.seed - 1;
  }
}

function runWithGlobals(context: vm.Context, expression: string, filename: string, replace: Record<string, unknown>): unknown {
  const global = vm.runInContext('globalThis', context) as Record<string, unknown>;
  const names = Object.getOwnPropertyNames(global).filter(
    (n) => /^[A-Za-z_$][\w$]*$/.test(n) && !['globalThis', 'eval', 'undefined', 'NaN', 'Infinity', 'arguments'].includes(n),
  );
  for (const n of Object.keys(replace)) if (!names.includes(n)) names.push(n);
  const wrapper = vm.runInContext(`(function (${names.join(', ')}) { return ${expression}; })`, context, { filename }) as (...args: unknown[]) => unknown;
  return wrapper(...names.map((n) => (n in replace ? replace[n] : global[n])));
}

export interface DummyProbe {
  /** The action the Dummy asks for in this state, as the original prints it: "m t", "t l", "u n"... */
  decide(state: State, rndSeed: number): string;
  /** A new Dummy for another match, as a match loads one (the Dummy keeps what it learnt of a board from round to round). */
  newMatch(): void;
}

/** A Dummy playing seat `me`, random() answering l + randomize() % (u - l + 1). */
export async function loadDummy(me: number): Promise<DummyProbe> {
  const file = fileURLToPath(new URL('../../../src/games/bola-de-drac/bots/Dummy.ts', import.meta.url));
  const code = await compileBot(await readFile(file, 'utf8'), 'Dummy.ts');
  const prelude = await buildPrelude(game);
  const context = vm.createContext({});
  const handle = runWithGlobals(context, prelude, 'prelude.js', {}) as BotHandle;
  handle.setup(me, 0, 1 << 20);
  let gen = new Randomize(1);
  const random = (l: number, u: number) => l + (gen.next() % (u - l + 1));
  const exports = runWithGlobals(context, code, 'Dummy.js', { random });
  handle.load(exports);
  return {
    newMatch() {
      handle.load(exports);
    },
    decide(state, rndSeed) {
      gen = new Randomize(rndSeed);
      const view = game.encodeView(state);
      const status = JSON.stringify({ status: [0, 0, 0, 0], names: ['Dummy', 'Dummy', 'Dummy', 'Dummy'] });
      const [, orders] = handle.play(JSON.stringify(Object.keys(view)), status, ...Object.values(view));
      const list = JSON.parse(orders) as [string, number][];
      if (!list.length) return 'u n';
      const [kind, dir] = list[0]!;
      return `${kind === 'move' || kind === 'm' ? 'm' : 't'} ${DIR_CHARS[dir]}`;
    },
  };
}
