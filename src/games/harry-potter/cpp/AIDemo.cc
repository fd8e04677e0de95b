// Demo: a simple player to learn from (the C++ twin of bots/Demo.ts: the same
// decisions and the same random() calls, so the same match for the same seed).
//  - A wizard attacks a neighbouring enemy wizard, else walks towards the
//    nearest book.
//  - The ghost goes for cells the clan does not own.
//  - Nobody steps next to Voldemort.
#include "Player.hh"

#define PLAYER_NAME Demo

struct PLAYER_NAME : public Player {

  static Player* factory () {
    return new PLAYER_NAME;
  }

  static const int INF = 1000000000;
  int R = 0, C = 0;
  const vector<int> straight = {Down, Right, Up, Left};
  const vector<int> all = {0, 1, 2, 3, 4, 5, 6, 7};

  /** Would a unit entering p be killed by Voldemort (standing at v)? */
  bool deadly (Pos p, Pos v) {
    return abs(p.i - v.i) <= 1 and abs(p.j - v.j) <= 1;
  }

  /** Multi-source BFS over corridors: distance from each cell to the nearest cell where target holds. */
  template <class Target>
  vector<int> bfs (Target target, const vector<int>& dirs) {
    static const int DI[] = {1, 1, 0, -1, -1, -1, 0, 1};
    static const int DJ[] = {0, 1, 1, 1, 0, -1, -1, -1};
    vector<int> dist(R * C, INF);
    vector<int> queue;
    for (int i = 0; i < R; ++i)
      for (int j = 0; j < C; ++j)
        if (cell(i, j).type == Corridor and target(i, j)) {
          dist[i * C + j] = 0;
          queue.push_back(i * C + j);
        }
    for (size_t head = 0; head < queue.size(); ++head) {
      int p = queue[head];
      int i = p / C, j = p % C;
      for (int d : dirs) {
        int ni = i + DI[d], nj = j + DJ[d];
        if (not pos_ok(ni, nj) or dist[ni * C + nj] != INF or cell(ni, nj).type == Wall) continue;
        dist[ni * C + nj] = dist[p] + 1;
        queue.push_back(ni * C + nj);
      }
    }
    return dist;
  }

  /** The direction to a free neighbour with a smaller distance (-1 if none). */
  int downhill (Pos from, const vector<int>& dist, const vector<int>& dirs, Pos v) {
    int best = -1;
    int best_dist = dist[from.i * C + from.j];
    for (int d : dirs) {
      Pos p = from + Dir(d);
      if (not pos_ok(p) or deadly(p, v)) continue;
      Cell c = cell(p);
      if (c.type == Wall or c.id != -1) continue;
      int dd = dist[p.i * C + p.j];
      if (dd < best_dist or (dd == best_dist and best < 0 and random(0, 3) == 0)) {
        best = d;
        best_dist = dd;
      }
    }
    return best;
  }

  virtual void play () {
    R = board_rows();
    C = board_cols();
    int mine = me();
    Pos v = pos_voldemort();

    // Distance (4 directions) from every cell to the nearest book.
    vector<int> to_book = bfs([&](int i, int j) { return cell(i, j).book; }, straight);

    for (int id : wizards(mine)) {
      Unit u = unit(id);
      // 1. Attack a neighbouring enemy wizard.
      bool done = false;
      if (not u.is_in_conversion_process()) {
        for (int d : straight) {
          Pos p = u.pos + Dir(d);
          if (not pos_ok(p) or deadly(p, v)) continue;
          Cell c = cell(p);
          if (c.id != -1) {
            Unit e = unit(c.id);
            if (e.type == Wizard and e.player != mine and not e.is_in_conversion_process()) {
              move(id, Dir(d));
              done = true;
              break;
            }
          }
        }
      }
      // 2. Walk towards the nearest book.
      if (not done) {
        int d = downhill(u.pos, to_book, straight, v);
        if (d >= 0) move(id, Dir(d));
      }
    }

    // The ghost (8 directions) goes for cells we do not own.
    Unit g = unit(ghost(mine));
    vector<int> to_land = bfs([&](int i, int j) { return cell(i, j).owner != mine; }, all);
    int d = downhill(g.pos, to_land, all, v);
    if (d >= 0) move(g.id, Dir(d));
  }
};

RegisterPlayer(PLAYER_NAME);
