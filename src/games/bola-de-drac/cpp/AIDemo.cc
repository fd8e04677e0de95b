// Demo: a simple player to learn from (the C++ twin of bots/Demo.ts: the same
// decisions, so the same match for the same seed). The goku walks to the
// nearest ball, then to the nearest capsule; without a Kinton cloud it acts
// only in even rounds.
#include "Player.hh"

#define PLAYER_NAME Demo

struct PLAYER_NAME : public Player {

  static Player* factory () {
    return new PLAYER_NAME;
  }

  const vector<Dir> dirs = {Top, Bottom, Left, Right};

  /** A cell we may walk into: on the board, not a rock, no goku there. */
  bool free_cell (Pos p) {
    if (not pos_ok(p)) return false;
    const Cell& c = cell(p);
    return c.type != Rock and c.id == -1;
  }

  /**
   * Breadth-first search from p to the nearest cell of type t: the direction
   * of the first step (None if there is no way). Rocks and other gokus block
   * the way.
   */
  Dir first_step (Pos p, CType t) {
    int C = cols();
    vector<int> first(rows() * C, -1);
    first[p.i * C + p.j] = None;
    vector<Pos> queue;
    for (Dir d : dirs) {
      Pos q = dest(p, d);
      if (free_cell(q) and first[q.i * C + q.j] == -1) {
        first[q.i * C + q.j] = d;
        queue.push_back(q);
      }
    }
    for (size_t head = 0; head < queue.size(); ++head) {
      Pos q = queue[head];
      Dir d = Dir(first[q.i * C + q.j]);
      if (cell(q).type == t) return d;
      for (Dir e : dirs) {
        Pos r = dest(q, e);
        if (free_cell(r) and first[r.i * C + r.j] == -1) {
          first[r.i * C + r.j] = d;
          queue.push_back(r);
        }
      }
    }
    return None;
  }

  virtual void play () {
    const Goku& g = goku(me());
    if (not g.alive) return;
    // Without a Kinton cloud, a goku only acts in even rounds.
    if (round() % 2 == 1 and not has_kinton(g.type)) return;
    CType target = has_ball(g.type) ? Capsule : Ball;
    Dir d = first_step(g.pos, target);
    if (d != None) move(d);
  }
};

RegisterPlayer(PLAYER_NAME);
