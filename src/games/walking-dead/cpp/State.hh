// The Walking Dead's State.hh: the board and the units of the current round,
// read from the view the judge copies into the module's memory.
#ifndef State_hh
#define State_hh

#include "Structs.hh"
#include "Settings.hh"
#include "arbiter.hh"

class State {
  // Per-round caches, built on first use.
  mutable bool lists_ = false;
  mutable vector<vector<int>> alive_, dead_;
  mutable vector<int> zombies_;
  mutable vector<int> unit_at_;

  int np_ () const { return arbiter_view::settings_num_players(); }
  int rows_ () const { return arbiter_view::settings_board_rows(); }
  int cols_ () const { return arbiter_view::settings_board_cols(); }
  int nb_units_ () const { return arbiter_view::units_records(); }

  // The tables once per round; the test inline, the work out of line (cell() stays small enough to inline).
  void build_ () const {
    if (not lists_) rebuild_();
  }

  __attribute__((noinline)) void rebuild_ () const {
    int np = np_();
    alive_.assign(np, vector<int>());
    dead_.assign(np, vector<int>());
    zombies_.clear();
    unit_at_.assign(rows_() * cols_(), -1);
    for (int id = 0; id < nb_units_(); ++id) {
      int t = arbiter_view::units_type(id), pl = arbiter_view::units_player(id), p = arbiter_view::units_pos(id);
      if (p >= 0 and p < int(unit_at_.size())) unit_at_[p] = id;
      if (t == Zombie) zombies_.push_back(id);
      else if (pl >= 0 and pl < np) (t == Alive ? alive_ : dead_)[pl].push_back(id);
    }
    lists_ = true;
  }

protected:
  void reset_state_ () { lists_ = false; }

public:
  int round () const { return arbiter_view::meta_round(); }

  Cell cell (int i, int j) const {
    if (i < 0 or i >= rows_() or j < 0 or j >= cols_()) {
      arbiter_warn("warning: cell requested for position ", Pos(i, j));
      return Cell();
    }
    int k = i * cols_() + j;
    if (arbiter_view::cells_waste(k)) return Cell(Waste, -1, -1, false);
    build_();
    return Cell(Street, arbiter_view::cells_owner1(k) - 1, unit_at_[k], arbiter_view::cells_food(k) != 0);
  }
  Cell cell (Pos p) const { return cell(p.i, p.j); }

  Unit unit (int id) const {
    if (id < 0 or id >= nb_units_()) {
      arbiter_warn("warning: unit requested for identifier ", id);
      return Unit();
    }
    int p = arbiter_view::units_pos(id);
    Pos pos = p < 0 ? Pos(-1, -1) : Pos(p / cols_(), p % cols_());
    return Unit(UnitType(arbiter_view::units_type(id)), id, arbiter_view::units_player(id), pos, arbiter_view::units_rounds_for_zombie(id));
  }

  vector<int> alive_units (int pl) const {
    if (pl < 0 or pl >= np_()) {
      arbiter_warn("warning: alive units requested for player ", pl);
      return vector<int>();
    }
    build_();
    return alive_[pl];
  }

  vector<int> dead_units (int pl) const {
    if (pl < 0 or pl >= np_()) {
      arbiter_warn("warning: dead units requested for player ", pl);
      return vector<int>();
    }
    build_();
    return dead_[pl];
  }

  vector<int> zombies () const {
    build_();
    return zombies_;
  }

  int strength (int pl) const {
    if (pl < 0 or pl >= np_()) {
      arbiter_warn("warning: strength requested for player ", pl);
      return -1;
    }
    build_();
    int alive = alive_[pl].size();
    return alive == 0 ? 0 : arbiter_view::players_points(pl) / alive;
  }

  int score (int pl) const {
    if (pl < 0 or pl >= np_()) {
      arbiter_warn("warning: score requested for player ", pl);
      return -1;
    }
    return arbiter_view::players_score(pl);
  }

  /** The fraction of its CPU budget a player has used, -1 once frozen. */
  double status (int pl) const {
    if (pl < 0 or pl >= np_()) {
      arbiter_warn("warning: status requested for player ", pl);
      return -2;
    }
    return arbiter_status(pl);
  }
};

#endif
