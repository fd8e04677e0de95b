// The __TITLE__ viewer's words in each language the site offers: the legend,
// the tooltip and the scoreboard's counters. English is the shape the others follow.

import type { Words } from '../../../sdk/viewer/lang.ts';

const en = {
  player: (seat: number) => `player ${seat}`,
  paintedBy: (player: string) => `painted by ${player}`,
  unitOf: (player: string) => `unit of ${player}`,
  legend: { free: 'cell nobody painted', painted: 'cell painted by a player (its colour)', unit: "a player's unit" },
  counters: { cells: 'cells' },
};

export const WORDS: Words<typeof en> = {
  en,
  ca: {
    player: (seat) => `jugador ${seat}`,
    paintedBy: (player) => `pintada per ${player}`,
    unitOf: (player) => `unitat de ${player}`,
    legend: { free: 'casella que ningú ha pintat', painted: 'casella pintada per un jugador (el seu color)', unit: "la unitat d'un jugador" },
    counters: { cells: 'caselles' },
  },
  es: {
    player: (seat) => `jugador ${seat}`,
    paintedBy: (player) => `pintada por ${player}`,
    unitOf: (player) => `unidad de ${player}`,
    legend: { free: 'casilla que nadie ha pintado', painted: 'casilla pintada por un jugador (su color)', unit: 'la unidad de un jugador' },
    counters: { cells: 'casillas' },
  },
};
