// Reading Moria's replay for the viewer: the frame index.ts records (one grid
// char per cell, player/health/pos per unit id) and where this round's events
// happened. The events name units by id only, so the cells are rebuilt from
// the previous frame, the orders and the Sauron moves. Pure: no DOM, no Node,
// so the test reads it directly and esbuild bundles it for the browser.

import type { Replay, ReplayRound } from '../../../sdk/replay-format.ts';
import { DI, DJ, NONE_DIR, UT, maxHealth, type MoriaEvent } from '../engine.ts';

export { UT };

/** What index.ts frame() records each round. */
export interface MoriaFrame {
  round: number;
  rows: number;
  cols: number;
  /** One char per cell: O outside, C cave, T cave with treasure, 0-3 cave conquered by that clan, A abyss, G granite, R rock, a-z rock with 1-26 hits left. */
  grid: string;
  /** Per unit id: player (-1 Sauron), health, pos (i*cols+j, -1 = not on the board). */
  units: number[];
  /** Per unit id, its UT digit. */
  unitTypes: string;
  nbCells: number[];
  nbTreasures: number[];
}

export const frameOf = (round: ReplayRound<MoriaFrame>): MoriaFrame => round.frame;

/** Cell kinds as the viewer draws them (the engine's CT order). */
export const CELL_OUTSIDE = 0;
export const CELL_CAVE = 1;
export const CELL_ABYSS = 2;
export const CELL_GRANITE = 3;
export const CELL_ROCK = 4;

const CH_O = 79;
const CH_C = 67;
const CH_T = 84;
const CH_0 = 48;
const CH_A = 65;
const CH_G = 71;
const CH_R = 82;
const CH_a = 97;

export function cellKind(code: number): number {
  switch (code) {
    case CH_O:
      return CELL_OUTSIDE;
    case CH_C:
    case CH_T:
      return CELL_CAVE;
    case CH_A:
      return CELL_ABYSS;
    case CH_G:
      return CELL_GRANITE;
    default:
      if (code >= CH_0 && code <= CH_0 + 9) return CELL_CAVE;
      return CELL_ROCK;
  }
}

/** The clan a cave is conquered by, or -1. */
export const cellOwner = (code: number): number => (code >= CH_0 && code <= CH_0 + 9 ? code - CH_0 : -1);
export const cellTreasure = (code: number): boolean => code === CH_T;
/** Hits a rock still needs before it opens (full resistance for an untouched rock), 0 for other cells. */
export const rockHitsLeft = (code: number, resistance: number): number => (code === CH_R ? resistance : code >= CH_a ? code - CH_a + 1 : 0);

export const CELL_NAMES = ['outside', 'cave', 'abyss', 'granite', 'rock'] as const;
export const UNIT_NAMES = ['dwarf', 'wizard', 'orc', 'troll', 'Balrog'] as const;

/** The unit kind of every id (fixed for the whole match), from a frame's unitTypes. */
export function unitKinds(frame: MoriaFrame): Uint8Array {
  const t = frame.unitTypes;
  const out = new Uint8Array(t.length);
  for (let id = 0; id < t.length; id++) out[id] = t.charCodeAt(id) - CH_0;
  return out;
}

export { maxHealth };

export const rockResistance = (replay: Replay<MoriaFrame>): number => {
  const r = Number(replay.config.rock_resistance);
  return Number.isInteger(r) && r > 0 ? r : 5;
};

/** Where things happened during one round, as flat lists of numbers (reused between rounds). */
export interface RoundMarks {
  /** Per attack: attacker's cell, victim's cell. */
  attacks: number[];
  /** Per death: cell, the unit's player before it died (-1 Sauron), its kind, its id. */
  deaths: number[];
  /** Per dwarf or wizard reborn in another clan this round: id, its former clan. */
  captured: number[];
  /** Cells whose treasure was picked. */
  gold: number[];
}

export const emptyMarks = (): RoundMarks => ({ attacks: [], deaths: [], captured: [], gold: [] });

let dirOf = new Int8Array(0);
let attacked = new Uint8Array(0);

/**
 * Fills `out` with the marks of rounds[index] (nothing for the initial state).
 * A unit moves or attacks at most once a round, so its cell when something
 * happened to it is its cell in the previous frame, or that plus its order's
 * direction if the order moved it.
 */
export function roundMarks(replay: Replay<MoriaFrame>, index: number, out: RoundMarks): RoundMarks {
  out.attacks.length = 0;
  out.deaths.length = 0;
  out.captured.length = 0;
  out.gold.length = 0;
  if (index <= 0) return out;
  const round = replay.rounds[index]!;
  const prev = frameOf(replay.rounds[index - 1]!);
  const cur = frameOf(round);
  const { rows, cols } = cur;
  const nbUnits = prev.units.length / 3;
  if (dirOf.length < nbUnits) {
    dirOf = new Int8Array(nbUnits);
    attacked = new Uint8Array(nbUnits);
  }
  dirOf.fill(-1, 0, nbUnits);
  attacked.fill(0, 0, nbUnits);
  for (const list of round.orders) {
    if (!Array.isArray(list)) continue;
    for (const o of list) {
      if (!Array.isArray(o)) continue;
      const id = o[0] as number;
      const d = o[1] as number;
      if (id >= 0 && id < nbUnits && d >= 0 && d <= NONE_DIR) dirOf[id] = d;
    }
  }
  const step = (p: number, d: number): number => {
    if (p < 0 || d < 0 || d >= NONE_DIR) return -1;
    const i = Math.floor(p / cols) + DI[d]!;
    const j = (p % cols) + DJ[d]!;
    return i < 0 || j < 0 || i >= rows || j >= cols ? -1 : i * cols + j;
  };
  const prevPos = (id: number): number => prev.units[3 * id + 2]!;
  const balrog = cur.unitTypes.lastIndexOf(String(UT.Balrog));
  let balrogMoved = false;
  const lastHit = new Map<number, number>();
  for (const raw of round.events) {
    const e = raw as MoriaEvent;
    switch (e.t) {
      case 'move':
        dirOf[e.v] = e.d;
        if (e.v === balrog) balrogMoved = true;
        break;
      case 'atk': {
        // An attacker stays on its cell; the victim is one step along its order.
        attacked[e.a] = 1;
        const from = prevPos(e.a);
        const to = step(from, dirOf[e.a]!);
        if (from >= 0 && to >= 0) {
          out.attacks.push(from, to);
          lastHit.set(e.v, to);
        }
        break;
      }
      case 'kill': {
        const p0 = prevPos(e.v);
        let p = p0;
        if (e.why === 'attack') p = lastHit.get(e.v) ?? p0;
        else {
          // Fell into an abyss or walked into the Balrog's reach: the cell it stepped on.
          // Caught in the ring when the Balrog moved: wherever it stood then.
          const t = attacked[e.v] ? -1 : step(p0, dirOf[e.v]!);
          // An order into a cell still rock at the end of the round was a dig: the dwarf stayed.
          // (A rock opened this round may have been walked into: the current grid, not the previous one.)
          const k = t >= 0 ? cellKind(cur.grid.charCodeAt(t)) : -1;
          const stepped = e.why === 'abyss' || (k !== CELL_ROCK && k !== CELL_GRANITE) ? t : -1;
          if (e.why === 'abyss' || !balrogMoved) p = stepped >= 0 ? stepped : p0;
          else {
            const b = cur.units[3 * balrog + 2]!;
            p = stepped >= 0 && chebyshev(stepped, b, cols) <= 1 ? stepped : p0;
          }
        }
        const oldPlayer = prev.units[3 * e.v]!;
        if (p >= 0) out.deaths.push(p, oldPlayer, cur.unitTypes.charCodeAt(e.v) - CH_0, e.v);
        if (e.to >= 0 && oldPlayer >= 0 && e.to !== oldPlayer) out.captured.push(e.v, oldPlayer);
        break;
      }
      case 'gold':
        out.gold.push(e.p);
        break;
      default:
        break;
    }
  }
  return out;
}

export function chebyshev(a: number, b: number, cols: number): number {
  return Math.max(Math.abs(Math.floor(a / cols) - Math.floor(b / cols)), Math.abs((a % cols) - (b % cols)));
}
