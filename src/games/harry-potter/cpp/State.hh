// Harry Potter's State.hh: the board and the units of the current round,
// read from the view the judge copies into the module's memory.
#ifndef State_hh
#define State_hh

#include "Structs.hh"
#include "Settings.hh"
#include "arbiter.hh"

class State {
  static const int NP_ = 4;
  // Per-round caches, built on first use.
  mutable bool built_ = false;
  mutable vector<vector<int>> wizards_;
  mutable vector<int> unit_at_;

  int rows_ () const { return arbiter_view::meta_rows(); }
  int cols_ () const { return arbiter_view::meta_cols(); }
  int n_ () const { return arbiter_view::meta_nb_units(); }

  // The tables once per round; the test inline, the work out of line (cell() stays small enough to inline).
  void build_ () const {
    if (not built_) rebuild_();
  }

  __attribute__((noinline)) void rebuild_ () const {
    wizards_.assign(NP_, vector<int>());
    unit_at_.assign(rows_() * cols_(), -1);
    for (int id = 0; id < n_(); ++id) {
      int k = arbiter_view::units_i(id) * cols_() + arbiter_view::units_j(id);
      if (k >= 0 and k < int(unit_at_.size())) unit_at_[k] = id;
      int pl = arbiter_view::units_player(id);
      if (arbiter_view::units_type(id) == Wizard and pl >= 0 and pl < NP_) wizards_[pl].push_back(id);
    }
    built_ = true;
  }

protected:
  void reset_state_ () { built_ = false; }

public:
  int round () const { return arbiter_view::meta_round(); }

  Cell cell (int i, int j) const {
    if (i < 0 or i >= rows_() or j < 0 or j >= cols_()) return Cell();
    int k = i * cols_() + j;
    build_();
    return Cell(CellType(arbiter_view::cells_wall(k)), arbiter_view::cells_owner1(k) - 1, unit_at_[k], arbiter_view::cells_book(k) != 0);
  }
  Cell cell (Pos p) const { return cell(p.i, p.j); }

  Unit unit (int id) const {
    // Silent, as in the original (its warning is commented out): players call unit(-1) freely.
    if (id < 0 or id >= n_()) return Unit();
    return Unit(UnitType(arbiter_view::units_type(id)), id, arbiter_view::units_player(id), Pos(arbiter_view::units_i(id), arbiter_view::units_j(id)),
                arbiter_view::units_rounds_pending(id), arbiter_view::units_next_player(id));
  }

  vector<int> wizards (int pl) const {
    if (pl < 0 or pl >= NP_) return vector<int>();
    build_();
    return wizards_[pl];
  }

  int ghost (int pl) const {
    if (pl < 0 or pl >= NP_) return -1;
    for (int id = 0; id < n_(); ++id)
      if (arbiter_view::units_type(id) == Ghost and arbiter_view::units_player(id) == pl) return id;
    return -1;
  }

  Pos pos_voldemort () const { return Pos(arbiter_view::meta_voldemort_i(), arbiter_view::meta_voldemort_j()); }

  int magic_strength (int pl) const {
    if (pl < 0 or pl >= NP_) return -1;
    build_();
    return arbiter_view::players_strength(pl) / (1 + int(wizards_[pl].size()));
  }

  int score (int pl) const {
    if (pl < 0 or pl >= NP_) return -1;
    return arbiter_view::players_score(pl);
  }

  /** The fraction of its CPU budget a player has used, -1 once frozen. */
  double status (int pl) const {
    if (pl < 0 or pl >= NP_) return -2;
    return arbiter_status(pl);
  }

  vector<int> spell_ingredients () const {
    vector<int> v(arbiter_view::spell_length);
    for (int k = 0; k < arbiter_view::spell_length; ++k) v[k] = arbiter_view::spell_at(k);
    return v;
  }
};

#endif
