// Demo: a simple Moria player to learn from (the C++ twin of bots/Demo.ts:
// the same decisions, so the same match for the same seed).
//  - A dwarf next to an enemy (another clan's unit, an orc or a troll) hits it.
//  - Otherwise it takes one step downhill on a distance map: a BFS from every
//    treasure (digging through rock counts as one step), or, when no treasure
//    can be reached, from every cave its clan does not own.
//  - Wizards walk (straight only) towards the nearest dwarf of their clan, to heal it.
//  - Nobody steps near the Balrog or into an abyss.
#include "Player.hh"

#define PLAYER_NAME Demo

struct PLAYER_NAME : public Player {

  static Player* factory () {
    return new PLAYER_NAME;
  }

  static const int INF = 1000000000;

  int R = 0, C = 0;
  vector<int> type, owner, who;
  vector<char> gold, danger;

  /** Reads the whole board once per round into flat arrays (index i*C + j). */
  void read_board () {
    R = rows();
    C = cols();
    type.assign(R * C, 0);
    owner.assign(R * C, 0);
    who.assign(R * C, 0);
    gold.assign(R * C, 0);
    danger.assign(R * C, 0);
    for (int i = 0; i < R; ++i)
      for (int j = 0; j < C; ++j) {
        Cell c = cell(i, j);
        int p = i * C + j;
        type[p] = c.type;
        owner[p] = c.owner;
        who[p] = c.id;
        gold[p] = c.treasure ? 1 : 0;
      }
    // The Balrog moves one step and then kills its 8 neighbours: keep 2 cells away.
    Pos b = unit(balrog_id()).pos;
    for (int i = b.i - 2; i <= b.i + 2; ++i)
      for (int j = b.j - 2; j <= b.j + 2; ++j)
        if (pos_ok(i, j)) danger[i * C + j] = 1;
  }

  /** Can a dwarf walk into (or dig) q? */
  bool free_cell (Pos q) {
    if (not pos_ok(q)) return false;
    int p = q.i * C + q.j;
    int t = type[p];
    return t != Granite and t != Abyss and danger[p] == 0 and who[p] < 0;
  }

  /** An adjacent enemy to hit (never the Balrog), or -1. */
  int enemy_dir (Pos from) {
    for (int d = 0; d < 8; ++d) {
      Pos q = from + Dir(d);
      if (not pos_ok(q)) continue;
      int id = who[q.i * C + q.j];
      if (id >= 0 and id != balrog_id() and unit(id).player != me()) return d;
    }
    return -1;
  }

  /** Distances (8 directions, rock = 1 step) from every cell where goal holds. */
  template <class Goal>
  vector<int> bfs (Goal goal) {
    static const int DI[] = {1, 1, 0, -1, -1, -1, 0, 1};
    static const int DJ[] = {0, 1, 1, 1, 0, -1, -1, -1};
    vector<int> dist(R * C, INF);
    vector<int> queue(R * C);
    int tail = 0;
    for (int p = 0; p < R * C; ++p)
      if (goal(p) and danger[p] == 0) {
        dist[p] = 0;
        queue[tail++] = p;
      }
    for (int head = 0; head < tail; ++head) {
      int p = queue[head];
      int i = p / C, j = p % C;
      for (int d = 0; d < 8; ++d) {
        int qi = i + DI[d], qj = j + DJ[d];
        if (qi < 0 or qj < 0 or qi >= R or qj >= C) continue;
        int k = qi * C + qj;
        int t = type[k];
        if (dist[k] != INF or t == Granite or t == Abyss or danger[k]) continue;
        dist[k] = dist[p] + 1;
        queue[tail++] = k;
      }
    }
    return dist;
  }

  bool reachable (const vector<int>& dist, Pos from) {
    for (int d = 0; d < 8; ++d) {
      Pos q = from + Dir(d);
      if (pos_ok(q) and dist[q.i * C + q.j] < INF) return true;
    }
    return false;
  }

  /** The free neighbour with the smallest distance, or -1. */
  int downhill (Pos from, const vector<int>& dist, int n) {
    int best = -1, best_dist = INF;
    for (int d = 0; d < n; ++d) {
      Pos q = from + Dir(d);
      if (not free_cell(q)) continue;
      int v = dist[q.i * C + q.j];
      if (v < best_dist) {
        best_dist = v;
        best = d;
      }
    }
    return best;
  }

  virtual void play () {
    read_board();
    int mine = me();
    vector<int> to_gold = bfs([&](int p) { return gold[p] == 1; });
    vector<int> to_land = bfs([&](int p) { return type[p] == Cave and owner[p] != mine and gold[p] == 0; });

    for (int id : dwarves(me())) {
      Unit u = unit(id);
      int p = u.pos.i * C + u.pos.j;
      int enemy = enemy_dir(u.pos);
      if (enemy >= 0) command(id, Dir(enemy));
      else {
        int d = downhill(u.pos, reachable(to_gold, u.pos) ? to_gold : to_land, 8);
        if (d >= 0 and p >= 0) command(id, Dir(d));
      }
    }

    for (int id : wizards(me())) {
      Unit u = unit(id);
      int best = -1, best_dist = INF;
      for (int d : dwarves(me())) {
        Pos q = unit(d).pos;
        int dist = abs(q.i - u.pos.i) + abs(q.j - u.pos.j);
        if (dist < best_dist) {
          best_dist = dist;
          best = d;
        }
      }
      if (best < 0 or best_dist <= 1) continue;
      Pos t = unit(best).pos;
      // Wizards move only straight: Bottom, Right, Top, Left are the even directions.
      for (int d = 0; d < 8; d += 2) {
        Pos q = u.pos + Dir(d);
        if (not free_cell(q) or type[q.i * C + q.j] == Rock) continue;
        if (abs(q.i - t.i) + abs(q.j - t.j) < best_dist) {
          command(id, Dir(d));
          break;
        }
      }
    }
  }
};

RegisterPlayer(PLAYER_NAME);
