/// <reference path="../player.d.ts" />
// Null: The Walking Dead player that does nothing. Copy this file to start
// your own: change PLAYER_NAME (unique, at most 12 characters from
// A-Z a-z 0-9 _) and write your strategy in play().
export const GAME = 'walking-dead';
export const PLAYER_NAME = 'Null';

export default class extends Player {
  // Fields you declare here keep their values from one round to the next.

  /** Called once per round: give your orders with move(id, dir). */
  play(): void {
    // Write your code here. For instance:
    //   for (const id of alive_units(me())) move(id, Dir.Up);
    // Orders are executed in the order you give them (interleaved at random
    // with the other players'), so give the most urgent ones first.
    // See player.d.ts for the whole API and Demo.ts for an example.
  }
}
