// Builds Moria states from ASCII pictures for rule tests.
//   O outside   . cave   T cave with treasure   0-3 cave owned by that clan
//   G granite   R rock   A abyss
import { DEFAULT_CONFIG, type MoriaConfig } from '../../../src/games/moria/config.ts';
import { blankState, CT, computeNbCells, layout, place, playRound, type MoriaOrder, type MoriaState } from '../../../src/games/moria/engine.ts';

export interface UnitSpec {
  id: number;
  at: [number, number];
  player?: number;
  health?: number;
}

/**
 * Small config: 3 dwarves + 1 wizard per clan (ids pl*4..), 2 orcs (16,17), no troll, Balrog 18.
 * With { cfg: WITH_TROLL }: troll 18, Balrog 19.
 */
export const SMALL: Partial<MoriaConfig> = { nb_dwarves: 3, nb_wizards: 1, max_nb_orcs: 2, nb_trolls: 0 };
export const WITH_TROLL: Partial<MoriaConfig> = { nb_trolls: 1 };

export function build(picture: string[], units: UnitSpec[], opts: { cfg?: Partial<MoriaConfig>; seed?: number; balrog?: boolean } = {}): MoriaState {
  const rows = picture.length;
  const cols = picture[0]!.length;
  const cfg: MoriaConfig = { ...DEFAULT_CONFIG, ...SMALL, ...opts.cfg, rows, cols };
  const s = blankState(cfg, opts.seed ?? 1);
  for (let i = 0; i < rows; i++)
    for (let j = 0; j < cols; j++) {
      const ch = picture[i]![j]!;
      const p = i * cols + j;
      s.turns[p] = 0;
      s.treasure[p] = 0;
      s.owner[p] = -1;
      if (ch === 'O') s.type[p] = CT.Outside;
      else if (ch === 'G') s.type[p] = CT.Granite;
      else if (ch === 'R') {
        s.type[p] = CT.Rock;
        s.turns[p] = cfg.rock_resistance;
      } else if (ch === 'A') s.type[p] = CT.Abyss;
      else {
        s.type[p] = CT.Cave;
        if (ch === 'T') s.treasure[p] = 1;
        else if (ch >= '0' && ch <= '3') s.owner[p] = +ch;
      }
    }
  const L = layout(cfg);
  for (const u of units) {
    if (u.player !== undefined) s.uplayer[u.id] = u.player;
    if (u.health !== undefined) s.uhealth[u.id] = u.health;
    else if (u.id >= L.firstOrc && u.id < L.firstTroll) s.uhealth[u.id] = 75;
    place(s, u.id, u.at[0] * cols + u.at[1]);
  }
  // Unlisted dwarves, wizards and trolls wait on Outside cells, from the bottom-right corner back.
  let p = rows * cols - 1;
  for (let id = 0; id < L.balrog; id++) {
    if (s.upos[id]! >= 0 || (id >= L.firstOrc && id < L.firstTroll)) continue;
    while (p >= 0 && (s.type[p] !== CT.Outside || s.unitAt[p]! >= 0)) p--;
    if (p < 0) throw new Error('picture: no room on Outside for unlisted units');
    place(s, id, p);
  }
  if (opts.balrog === false && s.upos[L.balrog]! >= 0) throw new Error('balrog listed and disabled');
  computeNbCells(s);
  return s;
}

/** Plays one round with orders for the given players (others give none). */
export function play(s: MoriaState, orders: Record<number, MoriaOrder[]>) {
  const all: MoriaOrder[][] = [];
  for (let pl = 0; pl < s.cfg.nb_players; pl++) all.push(orders[pl] ?? []);
  return playRound(s, all);
}

export function at(s: MoriaState, i: number, j: number): number {
  return i * s.cfg.cols + j;
}

export function posOf(s: MoriaState, id: number): [number, number] | null {
  const p = s.upos[id]!;
  return p < 0 ? null : [Math.floor(p / s.cfg.cols), p % s.cfg.cols];
}

export const Dir = { Bottom: 0, BR: 1, Right: 2, RT: 3, Top: 4, TL: 5, Left: 6, LB: 7, None: 8 } as const;
