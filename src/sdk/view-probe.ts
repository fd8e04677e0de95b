// The hash a game's view probe (src/games/<id>/view-check.ts) writes from
// inside a bot and computes again from the engine's state: 32-bit FNV-1a.
// The probe bot gets this same function's source.

export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < s.length; k++) h = Math.imul(h ^ s.charCodeAt(k), 0x01000193) >>> 0;
  return h;
}

/** The header every probe bot starts with: its game, its name, and fnv1a. */
export function probeHeader(game: string): string {
  return `/// <reference path="../player.d.ts" />\nexport const GAME = '${game}';\nexport const PLAYER_NAME = 'Probe';\n${fnv1a.toString()}\n`;
}
