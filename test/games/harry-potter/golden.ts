// The canonical text of a Harry Potter state, for golden traces: what the
// original engine prints for every state (Board::print_state of the original
// package, repository gbg4812/TheGame, folder game/), minus the CPU `status`
// line, which a local run of the original always prints as zeros.
//
//   grid / one line per row: W wall, 0-3 owner, . nobody
//   units / per unit: type(w|g) id player row column rounds next
//   books / per book, row-major: row column
//   spell / the 15 ingredients
//   voldemort row column
//   round r / score ... / scr_acc ... / strength ...

import type { HPState } from '../../../src/games/harry-potter/engine.ts';
import { GHOST } from '../../../src/games/harry-potter/engine.ts';

function text(
  grid: string[],
  units: string[],
  books: string[],
  spell: number[],
  v: [number, number],
  round: number,
  score: number[],
  acc: number[],
  strength: number[],
): string {
  return [
    'grid',
    ...grid,
    'units',
    ...units,
    'books',
    ...books,
    `spell ${spell.join(' ')}`,
    `voldemort ${v[0]} ${v[1]}`,
    `round ${round}`,
    `score ${score.join(' ')}`,
    `scr_acc ${acc.join(' ')}`,
    `strength ${strength.join(' ')}`,
    '',
  ].join('\n');
}

/** Every state of an original output file (round 0 first), as canonical text. */
export function originalStates(resText: string): string[] {
  const lines = resText.split('\n').map((l) => l.replace(/\r$/, ''));
  const out: string[] = [];
  let k = 0;
  const nums = (l: string): number[] => l.trim().split(/\s+/).filter(Boolean).map(Number);
  const after = (label: string): string[] => {
    while (k < lines.length && lines[k] !== label) k++;
    if (k >= lines.length) throw new Error(`harry-potter golden: "${label}" missing`);
    k++;
    return [];
  };
  const labelled = (prefix: string): number[] => {
    while (k < lines.length && !lines[k]!.startsWith(prefix)) k++;
    if (k >= lines.length) throw new Error(`harry-potter golden: "${prefix}" missing`);
    return nums(lines[k++]!.slice(prefix.length));
  };
  for (;;) {
    // A state starts with two column-label lines ("   000...", "   012...").
    while (k < lines.length && !/^ {3}\d+$/.test(lines[k]!)) k++;
    if (k >= lines.length) break;
    k += 2;
    const grid: string[] = [];
    while (k < lines.length && /^\d\d+ /.test(lines[k]!)) grid.push(lines[k++]!.replace(/^\d+ /, ''));
    after('units');
    const nu = Number(lines[k++]);
    k++; // header
    const units: string[] = [];
    for (let x = 0; x < nu; x++) units.push(lines[k++]!.split('\t').join(' '));
    after('books');
    const nb = Number(lines[k++]);
    k++; // header
    const books: string[] = [];
    for (let x = 0; x < nb; x++) books.push(lines[k++]!.split('\t').join(' '));
    after('spell_ingredients');
    k++; // count
    const spell = nums(lines[k++]!);
    after('Voldemort');
    const v = nums(lines[k++]!) as [number, number];
    const round = labelled('round ')[0]!;
    const score = labelled('score');
    const acc = labelled('scr_acc');
    const strength = labelled('strength');
    out.push(text(grid, units, books, spell, v, round, score, acc, strength));
  }
  return out;
}

/** The same text from Arbiter's engine state. */
export function arbiterState(s: HPState): string {
  const { rows, cols } = s;
  const grid: string[] = [];
  for (let i = 0; i < rows; i++) {
    let row = '';
    for (let j = 0; j < cols; j++) {
      const k = i * cols + j;
      const o = s.owner[k]!;
      row += s.wall[k] ? 'W' : o >= 0 && o <= 3 ? String(o) : '.';
    }
    grid.push(row);
  }
  const units: string[] = [];
  for (let id = 0; id < s.utype.length; id++) {
    const k = s.upos[id]!;
    units.push(`${s.utype[id] === GHOST ? 'g' : 'w'} ${id} ${s.uplayer[id]} ${(k / cols) | 0} ${k % cols} ${s.upending[id]} ${s.unext[id]}`);
  }
  const books: string[] = [];
  for (let k = 0; k < rows * cols; k++) if (s.book[k]) books.push(`${(k / cols) | 0} ${k % cols}`);
  return text(grid, units, books, Array.from(s.spell), [s.vi, s.vj], s.round, Array.from(s.score), Array.from(s.scoreAcc), Array.from(s.strength));
}
