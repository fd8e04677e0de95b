// The canonical text of a __TITLE__ state, for golden traces: the same text
// printed twice, from the original engine's output file (`originalStates`)
// and from Arbiter's state (`arbiterState`); test/helpers/golden.ts compares
// their digests round by round. scripts/golden-import.ts reads this file.
//
//   one line per board row: '.' nobody's cell, 0-3 the player who painted it
//   round r
//   one line per player: row column score

import type { State } from '../index.ts';

/** Every state of an original output file (round 0 first), as canonical text. */
export function originalStates(resText: string): string[] {
  // Write this parser against the original engine's output (Board::print_state
  // or whatever it prints per round) so that it yields what arbiterState prints.
  void resText;
  throw new Error('__ID__ golden: originalStates is not written yet (see docs/writing-a-game.md)');
}

export function arbiterState(s: State): string {
  const { rows, cols } = s.cfg;
  const lines: string[] = [];
  for (let i = 0; i < rows; i++) {
    let line = '';
    for (let j = 0; j < cols; j++) {
      const o = s.owner[i * cols + j]!;
      line += o < 0 ? '.' : String(o);
    }
    lines.push(line);
  }
  lines.push(`round ${s.round}`);
  for (let p = 0; p < s.pos.length; p++) lines.push(`${Math.floor(s.pos[p]! / cols)} ${s.pos[p]! % cols} ${s.score[p]}`);
  return lines.join('\n') + '\n';
}
