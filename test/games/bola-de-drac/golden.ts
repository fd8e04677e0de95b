// The canonical text of a Bola de Drac state for golden traces, read from the
// original engine's output (2012, hecrj/bola-de-drac, Board::print: `round r`,
// the maze, beans, kintons, one line per goku) or printed from Arbiter's
// state. The gokus' CPU status (last number of a goku line) is left out: the
// 2012 game never changes it and Arbiter keeps it outside the engine.

import { CType } from '../../../src/games/bola-de-drac/consts.ts';
import type { State } from '../../../src/games/bola-de-drac/engine.ts';

/** Every state of an original output file, round 0 first. */
export function originalStates(resText: string): string[] {
  const lines = resText.split('\n');
  const out: string[] = [];
  for (let at = 0; at < lines.length; at++) {
    if (!/^round \d+$/.test(lines[at]!)) continue;
    const text: string[] = [lines[at]!];
    at++;
    while (at < lines.length && lines[at] !== 'beans') text.push(lines[at++]!);
    text.push(lines[at++]!);
    while (at < lines.length && lines[at] !== 'kintons') text.push(lines[at++]!);
    text.push(lines[at++]!);
    // Kinton lines have 4 fields; goku lines start with a type word.
    while (at < lines.length && /^\d/.test(lines[at]!)) text.push(lines[at++]!);
    for (let p = 0; p < 4; p++) {
      const f = lines[at++]!.trim().split(/\s+/);
      text.push(f.slice(0, 8).join(' '));
    }
    out.push(text.join('\n') + '\n');
    at--;
  }
  return out;
}

export function arbiterState(s: State): string {
  const { rows, cols } = s;
  const text: string[] = [`round ${s.round}`];
  for (let i = 0; i < rows; i++) {
    let line = '';
    for (let j = 0; j < cols; j++) {
      const t = s.grid[i * cols + j]!;
      line += t === CType.Rock ? 'X' : t === CType.Capsule ? 'C' : t === CType.Ball ? 'B' : '.';
    }
    text.push(line);
  }
  for (const [name, arr] of [
    ['beans', s.beans],
    ['kintons', s.kintons],
  ] as const) {
    text.push(name);
    for (let b = 0; b < arr.length; b += 3) text.push(`${Math.floor(arr[b]! / cols)} ${arr[b]! % cols} ${arr[b + 1] ? 'y' : 'n'} ${arr[b + 2]}`);
  }
  for (const g of s.gokus) {
    const type = g.kinton > 0 ? (g.ball ? 'on_kinton_with_ball' : 'on_kinton') : g.ball ? 'with_ball' : 'normal';
    text.push(`${type} ${Math.floor(g.pos / cols)} ${g.pos % cols} ${g.time} ${g.alive ? 'a' : 'd'} ${g.balls} ${g.strength} ${g.kinton}`);
  }
  return text.join('\n') + '\n';
}
