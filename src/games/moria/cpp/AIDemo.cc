// Demo: a tour of the Moria API, not a player to imitate (the C++ twin of
// bots/Demo.ts: the same decisions and the same random() calls, so the same
// match for the same seed).
//
// It takes the decisions of the demo player that came with the original
// game package, which only shows how the calls are made: its moves follow no
// plan, so against three Dummies it almost never finishes first, and it never
// passes the gate. Start your own player from AINull.cc and borrow from here
// only the calls you need.
//
// Every round:
//  - Dwarves, taken in a random order: one time in three a random step in one
//    of the eight directions; otherwise a chain of questions about the state
//    (the round, the CPU used, the dwarf's health, a few cells, the counters)
//    whose first "yes" picks a direction.
//  - Wizards: the first time the Demo sees a wizard it gives it a style, kept
//    in a member from one round to the next: random straight steps, or the
//    four straight directions in turn as the rounds go by.
//
// The calls it shows (all of them are members of Player):
//   me()                      my player number, 0..3
//   round()                   the rounds already played (0 in the first one)
//   rows(), cols()            the size of the board
//   dwarves(pl), wizards(pl)  the ids of player pl's units, as vector<int>
//   unit(id)                  a Unit: type, id, player, health, pos
//   cell(i, j), cell(p)       a Cell: type (Cave, Rock, ...), owner, id, treasure
//   nb_cells(pl)              cells conquered by player pl
//   nb_treasures(pl)          treasures collected by player pl
//   status(pl)                the fraction of its CPU time player pl has used
//   random(l, u)              a random integer in [l, u], from my own generator
//   random_permutation(n)     0..n-1 in a random order
//   command(id, d)            moves unit id in direction d (one command per
//                             unit and round: the first one counts)
// Directions: Bottom, BR, Right, RT, Top, TL, Left, LB (0..7) and None (8);
// Dir(k) turns a number into a direction. Pos(i, j) is a position; p + d is
// the position one step from p in direction d.
#include "Player.hh"

// The name of your player: the file must be called AI<name>.cc.
#define PLAYER_NAME Demo

struct PLAYER_NAME : public Player {

  // The judge builds your player with this function: do not change it.
  static Player* factory () {
    return new PLAYER_NAME;
  }

  // The straight directions, the only ones a wizard can take (the even numbers 0, 2, 4, 6).
  const vector<Dir> straight = {Bottom, Right, Top, Left};

  // Members keep their values between rounds: wizard id -> style
  // (0: a random straight step every round, 1: the straight directions in turn).
  map<int, int> style;

  // Called once per round.
  virtual void play () {
    move_dwarves();
    move_wizards();
  }

  void move_dwarves () {
    vector<int> ids = dwarves(me());                  // the ids of my dwarves
    vector<int> order = random_permutation(ids.size()); // 0..n-1 shuffled
    for (int k : order) {
      int id = ids[k];
      if (random(0, 2) == 0) {
        // random(l, u) draws an integer in [l, u]: 0 one time in three.
        command(id, Dir(random(0, 7))); // Dir(0..7) is Bottom, BR, ..., LB; None is 8
      }
      else {
        int d = pick_direction(id);
        if (d >= 0) command(id, Dir(d));
      }
    }
  }

  void move_wizards () {
    for (int id : wizards(me())) {
      if (style.find(id) == style.end()) style[id] = random(0, 1);
      if (style[id] == 0) command(id, straight[random(0, 3)]);
      else command(id, straight[round() % 4]); // Bottom, Right, Top, Left, Bottom, ...
    }
  }

  // Four different random cells of the board, sorted by row and then column
  // (a set<Pos> keeps them so: Pos has operator<); one of them is chosen at
  // random: is it in the lower half of the board?
  bool lower_half_at_random () {
    set<Pos> spots;
    while (spots.size() < 4) {
      int j = random(0, cols() - 1); // the column is drawn first,
      int i = random(0, rows() - 1); // then the row
      spots.insert(Pos(i, j));
    }
    vector<Pos> v(spots.begin(), spots.end());
    return v[random(0, 3)].i >= rows() / 2;
  }

  // The first rule that applies gives the direction; -1 gives no command.
  // The questions make no sense as a strategy: each one only shows a call
  // (note that random(0, 1) is drawn only between rounds 40 and 180).
  int pick_direction (int id) {
    int mine = me();
    Unit u = unit(id); // type, id, player, health, pos
    if (round() < 40) return Left;  // round() counts the rounds already played
    if (round() > 180) return None; // a command that stays put
    if (random(0, 1) == 1) return lower_half_at_random() ? Bottom : RT;
    if (status(0) > 0.8) return Left;              // player 0 has used 80% of its CPU time
    if (u.health < 20) return straight[random(0, 3)]; // a straight step at random
    if (cell(10, 20).owner == 2) return TL;        // who has conquered cell (10, 20)?
    if (nb_cells(3) > 50) return LB;               // cells conquered by player 3
    if (nb_treasures(mine) < 4) return BR;         // treasures my clan has collected
    if (cell(Pos(20, 30)).type == Cave) return Bottom;
    if (cell(Pos(2, 2)).treasure) return Top;
    // Whatever is written to cerr goes to your log in the match page.
    cerr << "dwarf " << id << " at " << u.pos << ": no command" << endl;
    return -1;
  }
};

// Registers the player with the judge: do not change it.
RegisterPlayer(PLAYER_NAME);
