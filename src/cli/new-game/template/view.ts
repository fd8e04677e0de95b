// The bot's view of __TITLE__, declared once: index.ts encodes it, bot-api.ts
// decodes it, the C++ headers are generated from it. Pure: bundled into the
// bots' isolates, so it imports nothing from Node.

import { defineView } from '../../../sdk/view-layout.ts';

export const VIEW = defineView({
  meta: { type: 'Int32', fields: ['round', 'nb_rounds', 'rows', 'cols'], doc: 'the round and the settings' },
  cells: { type: 'Int8', doc: 'per cell, row-major: the player who painted it, -1 for nobody' },
  players: { type: 'Int32', fields: ['pos', 'score'], doc: "per player: its unit's cell (i*cols+j) and its score" },
});

/** Directions: none, up, down, left, right (the order of the Dir enum in player.d.ts). */
export const DI = [0, -1, 1, 0, 0] as const;
export const DJ = [0, 0, 0, -1, 1] as const;
