// The view probe of the game contract test: a bot that reads, through the
// statement's API, everything a player can see, and logs a hash of it each
// round; and the same hash computed from the engine's state. They agree when
// the view carries the state faithfully and bot-api.ts decodes it right.

import { layout, type MoriaState } from './engine.ts';
import { fnv1a, probeHeader } from '../../sdk/view-probe.ts';

export const probeBot = `${probeHeader('moria')}export default class extends Player {
  play(): void {
    const np = nb_players();
    let s = [me(), round(), np, nb_rounds(), nb_dwarves(), nb_wizards(), max_nb_orcs(), nb_trolls(), treasure_value(), rock_resistance(), rows(), cols(), balrog_id(), nb_units()].join(',');
    for (let pl = 0; pl < np; pl++) s += ';' + nb_cells(pl) + ',' + nb_treasures(pl) + ',' + dwarves(pl).join(' ') + ',' + wizards(pl).join(' ');
    s += ';' + orcs().join(' ') + ';' + trolls().join(' ') + ';';
    for (let i = 0; i < rows(); i++)
      for (let j = 0; j < cols(); j++) {
        const c = cell(i, j);
        s += c.type + '.' + c.owner + '.' + c.id + '.' + c.turns + '.' + (c.treasure ? 1 : 0) + ' ';
      }
    for (let id = 0; id <= balrog_id(); id++) {
      const u = unit(id);
      if (u.id >= 0) s += ';' + u.id + '.' + u.type + '.' + u.player + '.' + u.health + '.' + u.pos.i + '.' + u.pos.j;
    }
    console.log('VIEW ' + round() + ' ' + fnv1a(s));
  }
}
`;

export function expectedViewHash(st: MoriaState, me: number): number {
  const c = st.cfg;
  const L = layout(c);
  const np = c.nb_players;
  const alive = (id: number) => st.upos[id]! >= 0;
  const ids = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k).filter(alive);
  const per = (pl: number, type: number) => ids(0, L.firstOrc).filter((id) => st.uplayer[id] === pl && st.utype[id] === type);
  let s = [
    me,
    st.round,
    np,
    c.nb_rounds,
    c.nb_dwarves,
    c.nb_wizards,
    c.max_nb_orcs,
    c.nb_trolls,
    c.treasure_value,
    c.rock_resistance,
    c.rows,
    c.cols,
    L.balrog,
    L.nbUnits,
  ].join(',');
  for (let pl = 0; pl < np; pl++) s += ';' + st.nbCells[pl] + ',' + st.nbTreasures[pl] + ',' + per(pl, 0).join(' ') + ',' + per(pl, 1).join(' ');
  s += ';' + ids(L.firstOrc, L.firstTroll).join(' ') + ';' + Array.from({ length: L.balrog - L.firstTroll }, (_, k) => L.firstTroll + k).join(' ') + ';';
  for (let p = 0; p < st.type.length; p++) s += st.type[p] + '.' + st.owner[p] + '.' + st.unitAt[p] + '.' + st.turns[p] + '.' + st.treasure[p] + ' ';
  for (let id = 0; id <= L.balrog; id++) {
    if (!alive(id)) continue;
    const p = st.upos[id]!;
    s += ';' + id + '.' + st.utype[id] + '.' + st.uplayer[id] + '.' + st.uhealth[id] + '.' + Math.floor(p / c.cols) + '.' + (p % c.cols);
  }
  return fnv1a(s);
}
