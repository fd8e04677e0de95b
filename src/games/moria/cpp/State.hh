// Moria's State.hh: the board and the units of the current round, read from
// the view the judge copies into the module's memory (ArbiterView.hh).
#ifndef State_hh
#define State_hh

#include "Structs.hh"
#include "arbiter.hh"

class State {
  // Per-round lists, built on first use.
  mutable bool lists_ = false;
  mutable vector<vector<int>> dwarves_, wizards_;

  int per_player_ () const { return arbiter_view::meta_nb_dwarves() + arbiter_view::meta_nb_wizards(); }
  int first_orc_ () const { return arbiter_view::meta_nb_players() * per_player_(); }
  int first_troll_ () const { return first_orc_() + arbiter_view::meta_max_nb_orcs(); }

  UnitType type_of_ (int id) const {
    if (id < first_orc_()) return id % per_player_() < arbiter_view::meta_nb_dwarves() ? Dwarf : Wizard;
    if (id < first_troll_()) return Orc;
    return id < balrog_id() ? Troll : Balrog;
  }

  void build_lists_ () const {
    if (lists_) return;
    int np = arbiter_view::meta_nb_players();
    dwarves_.assign(np, vector<int>());
    wizards_.assign(np, vector<int>());
    for (int id = 0; id < first_orc_(); ++id) {
      int pl = arbiter_view::units_player(id);
      if (pl < 0 or pl >= np or arbiter_view::units_pos(id) < 0) continue;
      (type_of_(id) == Dwarf ? dwarves_ : wizards_)[pl].push_back(id);
    }
    lists_ = true;
  }

protected:
  void reset_state_ () { lists_ = false; }

public:
  int round () const { return arbiter_view::meta_round(); }

  Cell cell (Pos p) const {
    int rows = arbiter_view::meta_rows(), cols = arbiter_view::meta_cols();
    if (p.i < 0 or p.i >= rows or p.j < 0 or p.j >= cols) {
      arbiter_warn("warning: cell requested for position ", p);
      return Cell();
    }
    int k = p.i * cols + p.j;
    return Cell(CellType(arbiter_view::cells_type(k)), arbiter_view::cells_owner1(k) - 1, arbiter_view::grid_at(k),
                arbiter_view::cells_turns(k), arbiter_view::cells_treasure(k) == 1);
  }
  Cell cell (int i, int j) const { return cell(Pos(i, j)); }

  int nb_units () const { return balrog_id() + 1; }

  Unit unit (int id) const {
    if (id < 0 or id >= nb_units() or arbiter_view::units_pos(id) < 0) {
      arbiter_warn("warning: unit requested for identifier ", id);
      return Unit();
    }
    int p = arbiter_view::units_pos(id), cols = arbiter_view::meta_cols();
    return Unit(type_of_(id), id, arbiter_view::units_player(id), arbiter_view::units_health(id), Pos(p / cols, p % cols));
  }

  int nb_cells (int pl) const {
    if (pl < 0 or pl >= arbiter_view::meta_nb_players()) {
      arbiter_warn("warning: num_cells requested for player ", pl);
      return -1;
    }
    return arbiter_view::players_nb_cells(pl);
  }

  int nb_treasures (int pl) const {
    if (pl < 0 or pl >= arbiter_view::meta_nb_players()) {
      arbiter_warn("warning: treasures requested for player ", pl);
      return -1;
    }
    return arbiter_view::players_nb_treasures(pl);
  }

  /** The fraction of its CPU budget a player has used, -1 once frozen. */
  double status (int pl) const {
    if (pl < 0 or pl >= arbiter_view::meta_nb_players()) {
      arbiter_warn("warning: status requested for player ", pl);
      return -1;
    }
    return arbiter_status(pl);
  }

  vector<int> dwarves (int pl) const {
    if (pl < 0 or pl >= arbiter_view::meta_nb_players()) {
      arbiter_warn("warning: dwarves requested for player ", pl);
      return vector<int>();
    }
    build_lists_();
    return dwarves_[pl];
  }

  vector<int> wizards (int pl) const {
    if (pl < 0 or pl >= arbiter_view::meta_nb_players()) {
      arbiter_warn("warning: wizards requested for player ", pl);
      return vector<int>();
    }
    build_lists_();
    return wizards_[pl];
  }

  /** The orcs alive. */
  vector<int> orcs () const {
    vector<int> v;
    for (int id = first_orc_(); id < first_troll_(); ++id)
      if (arbiter_view::units_pos(id) >= 0) v.push_back(id);
    return v;
  }

  vector<int> trolls () const {
    vector<int> v;
    for (int id = first_troll_(); id < balrog_id(); ++id) v.push_back(id);
    return v;
  }

  int balrog_id () const { return first_troll_() + arbiter_view::meta_nb_trolls(); }
};

#endif
