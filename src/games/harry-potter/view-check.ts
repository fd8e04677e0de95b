// The view probe of the game contract test: a bot that reads, through the
// statement's API, everything a player can see, and logs a hash of it each
// round; and the same hash computed from the engine's state. They agree when
// the view carries the state faithfully and bot-api.ts decodes it right.

import { GHOST, magicStrength, WIZARD, type HPState } from './engine.ts';
import { fnv1a, probeHeader } from '../../sdk/view-probe.ts';

export const probeBot = `${probeHeader('harry-potter')}export default class extends Player {
  play(): void {
    const np = num_players();
    let s = [me(), round(), np, num_rounds(), board_rows(), board_cols(), num_ini_wizards_per_clan(), num_ini_books(), clan_ini_magic_strength(),
      points_for_converting_wizard(), points_per_owned_cell(), book_magic_strength(), rounds_for_converting_wizard(), rounds_attack_resting_ghost(),
      rounds_spell_resting_ghost(), rounds_no_attack_ghost(), pos_voldemort().i, pos_voldemort().j, spell_ingredients().join(' ')].join(',');
    const ids: number[] = [];
    for (let pl = 0; pl < np; pl++) {
      s += ';' + score(pl) + ',' + magic_strength(pl) + ',' + wizards(pl).join(' ') + ',' + ghost(pl);
      ids.push(...wizards(pl), ghost(pl));
    }
    s += ';';
    for (let i = 0; i < board_rows(); i++)
      for (let j = 0; j < board_cols(); j++) {
        const c = cell(i, j);
        s += c.type + '.' + c.owner + '.' + c.id + '.' + (c.book ? 1 : 0) + ' ';
      }
    for (const id of ids.sort((a, b) => a - b)) {
      const u = unit(id);
      s += ';' + u.id + '.' + u.type + '.' + u.player + '.' + u.pos.i + '.' + u.pos.j + '.' + u.rounds_pending + '.' + u.next_player;
    }
    console.log('VIEW ' + round() + ' ' + fnv1a(s));
  }
}
`;

export function expectedViewHash(st: HPState, me: number): number {
  const c = st.cfg;
  const np = c.num_players;
  const all = Array.from({ length: st.utype.length }, (_, id) => id);
  let s = [
    me,
    st.round,
    np,
    c.num_rounds,
    st.rows,
    st.cols,
    c.num_ini_wizards_per_clan,
    c.num_ini_books,
    c.clan_ini_magic_strength,
    c.points_for_converting_wizard,
    c.points_per_owned_cell,
    c.book_magic_strength,
    c.rounds_for_converting,
    c.rounds_attack_resting_ghost,
    c.rounds_spell_resting_ghost,
    c.rounds_no_attack_ghost,
    st.vi,
    st.vj,
    Array.from(st.spell).join(' '),
  ].join(',');
  const ids: number[] = [];
  for (let pl = 0; pl < np; pl++) {
    const wizards = all.filter((id) => st.utype[id] === WIZARD && st.uplayer[id] === pl);
    const ghost = all.find((id) => st.utype[id] === GHOST && st.uplayer[id] === pl) ?? -1;
    s += ';' + st.score[pl] + ',' + magicStrength(st, pl, wizards.length) + ',' + wizards.join(' ') + ',' + ghost;
    ids.push(...wizards, ghost);
  }
  s += ';';
  for (let p = 0; p < st.wall.length; p++) s += st.wall[p] + '.' + st.owner[p] + '.' + st.cellId[p] + '.' + st.book[p] + ' ';
  for (const id of ids.sort((a, b) => a - b)) {
    const p = st.upos[id]!;
    s +=
      ';' + id + '.' + st.utype[id] + '.' + st.uplayer[id] + '.' + Math.floor(p / st.cols) + '.' + (p % st.cols) + '.' + st.upending[id] + '.' + st.unext[id];
  }
  return fnv1a(s);
}
