/// <reference path="../player.d.ts" />
// Bola de Drac: the empty player. Copy this file, rename the class's
// PLAYER_NAME (1 to 12 letters, digits or _), and write your strategy in
// play(). The whole API is in player.d.ts: cell(i, j), goku(id), round(),
// move(d), throw_kamehame(d), ... (also as this.cell(i, j), etc.).

export const GAME = 'bola-de-drac';
export const PLAYER_NAME = 'Null';

export default class extends Player {
  // Fields declared here keep their values from one round to the next.

  /** Called once per round: read the board and ask for your goku's action. */
  play(): void {
    // Your code here. For instance:
    //   const g = goku(me());
    //   if (g.alive && (round() % 2 === 0 || has_kinton(g.type))) move(Dir.Right);
  }
}
