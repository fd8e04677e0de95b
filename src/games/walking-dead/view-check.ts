// The view probe of the game contract test: a bot that reads, through the
// statement's API, everything a player can see, and logs a hash of it each
// round; and the same hash computed from the engine's state. They agree when
// the view carries the state faithfully and bot-api.ts decodes it right.

import { strengthOf, UType, type TwdState } from './engine.ts';
import { fnv1a, probeHeader } from '../../sdk/view-probe.ts';

export const probeBot = `${probeHeader('walking-dead')}export default class extends Player {
  play(): void {
    const np = num_players();
    let s = [me(), round(), np, num_rounds(), board_rows(), board_cols(), num_ini_units_per_clan(), num_ini_zombies(), num_ini_food(), clan_ini_strength(),
      points_for_killing_person(), points_for_killing_zombie(), points_per_owned_cell(), food_strength(), rounds_before_becoming_zombie()].join(',');
    const ids: number[] = [];
    for (let pl = 0; pl < np; pl++) {
      s += ';' + strength(pl) + ',' + score(pl) + ',' + alive_units(pl).join(' ') + ',' + dead_units(pl).join(' ');
      ids.push(...alive_units(pl), ...dead_units(pl));
    }
    s += ';' + zombies().join(' ') + ';';
    ids.push(...zombies());
    for (let i = 0; i < board_rows(); i++)
      for (let j = 0; j < board_cols(); j++) {
        const c = cell(i, j);
        s += c.type + '.' + c.owner + '.' + c.id + '.' + (c.food ? 1 : 0) + ' ';
      }
    for (const id of ids.sort((a, b) => a - b)) {
      const u = unit(id);
      s += ';' + u.id + '.' + u.type + '.' + u.player + '.' + u.pos.i + '.' + u.pos.j + '.' + u.rounds_for_zombie;
    }
    console.log('VIEW ' + round() + ' ' + fnv1a(s));
  }
}
`;

export function expectedViewHash(st: TwdState, me: number): number {
  const c = st.cfg;
  const np = c.num_players;
  const n = st.uType.length;
  const of = (type: number, pl: number) =>
    Array.from({ length: n }, (_, id) => id).filter((id) => st.uType[id] === type && (type === UType.Zombie || st.uPlayer[id] === pl));
  let s = [
    me,
    st.round,
    np,
    c.num_rounds,
    c.board_rows,
    c.board_cols,
    c.num_ini_units_per_clan,
    c.num_ini_zombies,
    c.num_ini_food,
    c.clan_ini_strength,
    c.points_for_killing_person,
    c.points_for_killing_zombie,
    c.points_per_owned_cell,
    c.food_strength,
    c.rounds_before_becoming_zombie,
  ].join(',');
  const ids: number[] = [];
  for (let pl = 0; pl < np; pl++) {
    s += ';' + strengthOf(st, pl) + ',' + st.score[pl] + ',' + of(UType.Alive, pl).join(' ') + ',' + of(UType.Dead, pl).join(' ');
    ids.push(...of(UType.Alive, pl), ...of(UType.Dead, pl));
  }
  s += ';' + of(UType.Zombie, -1).join(' ') + ';';
  ids.push(...of(UType.Zombie, -1));
  for (let p = 0; p < st.waste.length; p++) s += st.waste[p] ? '1.-1.-1.0 ' : '0.' + st.owner[p] + '.' + st.cellUnit[p] + '.' + st.food[p] + ' ';
  for (const id of ids.sort((a, b) => a - b)) {
    const p = st.uPos[id]!;
    s +=
      ';' +
      id +
      '.' +
      st.uType[id] +
      '.' +
      st.uPlayer[id] +
      '.' +
      (p < 0 ? -1 : Math.floor(p / st.cols)) +
      '.' +
      (p < 0 ? -1 : p % st.cols) +
      '.' +
      st.uRfz[id];
  }
  return fnv1a(s);
}
