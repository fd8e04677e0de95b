// The shipped Demo must never pass the gate (the course's rules): a
// gate is four matches against three Dummies, one in each seat. Every game's
// bots test plays the same gate-like sets here: seeds 1-16 in four sets of
// four, the Demo at seat (seed - 1) mod 4, and checks that no set is won
// whole and that the Demo wins at most `maxWins` of the 16.

import assert from 'node:assert/strict';
import { isOutrightWinner } from '../../src/sdk/ranking.ts';

interface Played {
  replay: { players: { frozenReason: string | null }[]; result: { scores: number[] } };
}

export async function assertDemoNeverPassesGate<Seat>(
  demo: Seat,
  dummy: Seat,
  play: (seats: Seat[], seed: number) => Promise<Played>,
  maxWins = 1,
): Promise<number> {
  let wins = 0;
  const lines: string[] = [];
  for (let first = 1; first <= 16; first += 4) {
    let setWins = 0;
    for (let seed = first; seed < first + 4; seed++) {
      const at = (seed - 1) % 4;
      const seats = [dummy, dummy, dummy, dummy];
      seats[at] = demo;
      const { replay } = await play(seats, seed);
      assert.ok(
        replay.players.every((p) => p.frozenReason === null),
        `seed ${seed}: a bot was frozen`,
      );
      if (isOutrightWinner(replay.result.scores, at)) setWins++;
      lines.push(`${seed}: ${replay.result.scores.join(' ')} (Demo at ${at})`);
    }
    assert.ok(setWins < 4, `the Demo passed the gate of seeds ${first}-${first + 3}\n  ${lines.join('\n  ')}`);
    wins += setWins;
  }
  assert.ok(wins <= maxWins, `the Demo won ${wins} of 16 against three Dummies\n  ${lines.join('\n  ')}`);
  return wins;
}
