/// <reference path="../player.d.ts" />
// Null: the Harry Potter player that does nothing. Copy this file to start your
// own: change PLAYER_NAME (unique, at most 12 characters from A-Z a-z 0-9 _)
// and write your strategy in play().
export const GAME = 'harry-potter';
export const PLAYER_NAME = 'Null';

export default class extends Player {
  // Fields you declare here keep their values from one round to the next.

  /** Called once per round: give your orders with move(id, dir) and spell(ghostId, solution). */
  play(): void {
    // Write your code here. For instance:
    //   for (const id of wizards(me())) move(id, Dir.Up);
    //   spell(ghost(me()), [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]);
    // See player.d.ts for the whole API and Demo.ts for an example.
  }
}
