/// <reference path="../player.d.ts" />
// Demo: a tour of the Moria API, not a player to imitate.
//
// It takes the decisions of the demo player that came with the original
// game package, which only shows how the calls are made: its moves follow no
// plan, so against three Dummies it almost never finishes first, and it never
// passes the gate. Start your own player from the template (MyBot.ts) and
// borrow from here only the calls you need.
//
// Every round:
//  - Dwarves, taken in a random order: one time in three a random step in one
//    of the eight directions; otherwise a chain of questions about the state
//    (the round, the CPU used, the dwarf's health, a few cells, the counters)
//    whose first "yes" picks a direction.
//  - Wizards: the first time the Demo sees a wizard it gives it a style, kept
//    in a field from one round to the next: random straight steps, or the
//    four straight directions in turn as the rounds go by.
export const GAME = 'moria';
export const PLAYER_NAME = 'Demo';

// The straight directions, the only ones a wizard can take (the even numbers 0, 2, 4, 6).
const STRAIGHT = [Dir.Bottom, Dir.Right, Dir.Top, Dir.Left];

export default class extends Player {
  // Fields keep their values between rounds: wizard id -> style
  // (0: a random straight step every round, 1: the straight directions in turn).
  style = new Map<number, number>();

  play(): void {
    this.moveDwarves();
    this.moveWizards();
  }

  moveDwarves(): void {
    const ids = dwarves(me()); // the ids of my dwarves
    const order = random_permutation(ids.length); // 0..n-1 shuffled
    for (const k of order) {
      const id = ids[k]!;
      if (random(0, 2) === 0) {
        // random(l, u) draws an integer in [l, u]: 0 one time in three.
        command(id, random(0, 7)); // directions are numbers: 0..7 (Bottom, BR, ..., LB), 8 is None
      } else {
        const d = this.pickDirection(id);
        if (d >= 0) command(id, d);
      }
    }
  }

  /**
   * The first rule that applies gives the direction; -1 gives no command.
   * The questions make no sense as a strategy: each one only shows a call
   * (note that random(0, 1) is drawn only between rounds 40 and 180).
   */
  pickDirection(id: number): number {
    const mine = me();
    const u = unit(id); // type, id, player, health, pos
    if (round() < 40) return Dir.Left; // round() counts the rounds already played
    if (round() > 180) return Dir.None; // a command that stays put
    if (random(0, 1) === 1) {
      // Four different random cells of the board, sorted by row and then column;
      // one of them is chosen at random: is it in the lower half?
      const spots: Pos[] = [];
      while (spots.length < 4) {
        const j = random(0, cols() - 1); // the column is drawn first,
        const i = random(0, rows() - 1); // then the row
        const p = Pos(i, j);
        if (!spots.some((q) => pos_eq(p, q))) spots.push(p);
      }
      spots.sort((a, b) => a.i - b.i || a.j - b.j);
      return spots[random(0, 3)]!.i >= Math.floor(rows() / 2) ? Dir.Bottom : Dir.RT;
    }
    if (status(0) > 0.8) return Dir.Left; // player 0 has used 80% of its CPU time
    if (u.health < 20) return STRAIGHT[random(0, 3)]!; // a straight step at random
    if (cell(10, 20).owner === 2) return Dir.TL; // who has conquered cell (10, 20)?
    if (nb_cells(3) > 50) return Dir.LB; // cells conquered by player 3
    if (nb_treasures(mine) < 4) return Dir.BR; // treasures my clan has collected
    if (cell(Pos(20, 30)).type === CellType.Cave) return Dir.Bottom;
    if (cell(Pos(2, 2)).treasure) return Dir.Top;
    return -1; // no rule applies: this dwarf gets no command
  }

  moveWizards(): void {
    for (const id of wizards(me())) {
      if (!this.style.has(id)) this.style.set(id, random(0, 1));
      if (this.style.get(id) === 0) command(id, STRAIGHT[random(0, 3)]!);
      else command(id, STRAIGHT[round() % 4]!); // Bottom, Right, Top, Left, Bottom, ...
    }
  }
}
