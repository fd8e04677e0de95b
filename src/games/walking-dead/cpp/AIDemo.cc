// Demo: a simple player to learn from (the C++ twin of bots/Demo.ts: the same
// decisions and the same random() calls, so the same match for the same seed).
//  1. A zombie next to a unit dies if the unit moves onto it.
//  2. Otherwise the unit walks towards the nearest food (BFS, up to 30 steps).
//  3. Otherwise it moves at random.
#include "Player.hh"

#define PLAYER_NAME Demo

struct PLAYER_NAME : public Player {

  static Player* factory () {
    return new PLAYER_NAME;
  }

  /** The four directions an alive unit may take. */
  const vector<Dir> dirs = {Down, Right, Up, Left};

  /**
   * Breadth-first search from p over street cells without units: the first
   * step of a shortest path to the nearest food, or -1 if there is none
   * within 30 steps.
   */
  int direction_to_food (Pos p) {
    int rows = board_rows(), cols = board_cols();
    vector<int> first_dir(rows * cols, -1), dist(rows * cols, 0);
    vector<Pos> queue;
    for (Dir d : dirs) {
      Pos q = p + d;
      if (not pos_ok(q)) continue;
      Cell c = cell(q);
      if (c.type == Waste or c.id != -1) continue;
      if (c.food) return d;
      first_dir[q.i * cols + q.j] = d;
      dist[q.i * cols + q.j] = 1;
      queue.push_back(q);
    }
    for (size_t head = 0; head < queue.size(); ++head) {
      Pos u = queue[head];
      int k = u.i * cols + u.j;
      if (dist[k] >= 30) break;
      for (Dir d : dirs) {
        Pos q = u + d;
        if (not pos_ok(q) or first_dir[q.i * cols + q.j] != -1 or q == p) continue;
        Cell c = cell(q);
        if (c.type == Waste or c.id != -1) continue;
        if (c.food) return first_dir[k];
        first_dir[q.i * cols + q.j] = first_dir[k];
        dist[q.i * cols + q.j] = dist[k] + 1;
        queue.push_back(q);
      }
    }
    return -1;
  }

  virtual void play () {
    // If nearly out of CPU time, do nothing.
    if (status(me()) >= 0.9) return;

    for (int id : alive_units(me())) {
      Pos p = unit(id).pos;

      // 1. A zombie next to us dies if we move onto it.
      bool done = false;
      for (Dir d : dirs) {
        Pos q = p + d;
        if (not pos_ok(q)) continue;
        int other = cell(q).id;
        if (other != -1 and unit(other).type == Zombie) {
          move(id, d);
          done = true;
          break;
        }
      }
      if (done) continue;

      // 2. Towards the nearest food.
      int d = direction_to_food(p);
      if (d != -1) {
        move(id, Dir(d));
        continue;
      }

      // 3. Anywhere.
      Dir r = dirs[random(0, 3)];
      Pos q = p + r;
      if (pos_ok(q) and cell(q).type != Waste) move(id, r);
    }
  }
};

RegisterPlayer(PLAYER_NAME);
