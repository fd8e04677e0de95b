// Turns an original engine's output file into a golden trace fixture, and
// optionally compares Arbiter's match with it right away:
//
//   node --no-node-snapshot --import tsx scripts/golden-import.ts <game> <original-output> \
//     --seed N --players A,B,C,D [--set key=value ...] [--original "repo, folder, file"] \
//     [-o test/fixtures/golden/<game>/<name>.json] [--check]
//
// Players are files in test/fixtures/golden/<game>/players/ or built-in names,
// in the seats the original run gave them. `--set key=@file` reads the value
// from a file (a fixed board, say). `--check` plays the match in Arbiter and
// prints the first state that differs, line by line.

import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { getGame } from '../src/games/registry.ts';
import { digest, firstDifference, goldenSeat, playStates, type GoldenTrace } from '../test/helpers/golden.ts';

interface GoldenFormat {
  originalStates(resText: string): string[];
  arbiterState(state: unknown): string;
}

function parseValue(raw: string): unknown {
  if (raw.startsWith('@')) return readFileSync(raw.slice(1), 'utf8');
  if (/^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (raw === 'true' || raw === 'false') return raw === 'true';
  return raw;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      seed: { type: 'string' },
      players: { type: 'string' },
      set: { type: 'string', multiple: true, default: [] },
      original: { type: 'string', default: '' },
      o: { type: 'string' },
      check: { type: 'boolean', default: false },
    },
  });
  const [gameId, resPath] = positionals;
  if (!gameId || !resPath || values.seed === undefined || !values.players) {
    console.error('usage: golden-import.ts <game> <original-output> --seed N --players A,B,C,D [--set k=v] [--original TEXT] [-o fixture.json] [--check]');
    return 2;
  }
  const game = await getGame(gameId);
  const format = (await import(`../test/games/${gameId}/golden.ts`)) as GoldenFormat;
  const config: Record<string, unknown> = {};
  for (const kv of values.set) {
    const eq = kv.indexOf('=');
    if (eq < 1) {
      console.error(`--set takes key=value, got "${kv}"`);
      return 2;
    }
    config[kv.slice(0, eq)] = parseValue(kv.slice(eq + 1));
  }
  const texts = format.originalStates(readFileSync(resPath, 'utf8'));
  const trace: GoldenTrace = {
    format: 'arbiter-golden',
    game: game.id,
    original: values.original,
    engineVersion: game.engineVersion,
    seed: Number(values.seed),
    config,
    players: values.players.split(','),
    digests: texts.map(digest),
    round0: texts[0],
  };
  console.log(`${texts.length} states read from ${resPath}`);
  if (values.o) {
    writeFileSync(values.o, JSON.stringify(trace, null, 1) + '\n');
    console.log(`wrote ${values.o}`);
  }
  if (!values.check) return 0;

  const seats = await Promise.all(trace.players.map((p) => goldenSeat(game.id, p)));
  const states = await playStates(game.id, trace.seed, seats, config);
  const n = Math.min(states.length, texts.length);
  for (let r = 0; r < n; r++) {
    const mine = format.arbiterState(states[r]);
    if (mine === texts[r]) continue;
    console.log(`round ${r} differs, first at ${firstDifference(texts[r]!, mine)}`);
    return 1;
  }
  if (states.length !== texts.length) {
    console.log(`the first ${n} states match, but the original has ${texts.length - 1} rounds and Arbiter ${states.length - 1}`);
    return 1;
  }
  console.log(`all ${n} states match`);
  return 0;
}

process.exitCode = await main();
