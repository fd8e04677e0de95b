/// <reference path="../player.d.ts" />
// Null: the Moria player that does nothing. Copy this file to start your own:
// change PLAYER_NAME (unique, at most 12 characters from A-Z a-z 0-9 _) and
// write your strategy in play().
export const GAME = 'moria';
export const PLAYER_NAME = 'Null';

export default class extends Player {
  // Fields you declare here keep their values from one round to the next.

  /** Called once per round: give your orders with command(id, dir). */
  play(): void {
    // Write your code here. For instance:
    //   for (const id of dwarves(me())) command(id, Dir.Bottom);
    // See player.d.ts for the whole API and Demo.ts for an example.
  }
}
