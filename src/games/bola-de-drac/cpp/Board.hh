// Bola de Drac's Board.hh: the parameters, the board and the gokus of the
// current round (the 2012 API), read from the view the judge copies into the
// module's memory.
#ifndef Board_hh
#define Board_hh

#include "Utils.hh"
#include "PosDir.hh"
#include "arbiter.hh"

enum CType {
  Empty, Rock, Capsule, Ball, Kinton, Bean
};

inline ostream& operator<< (ostream& ost, CType t) {
  static const char* names[] = {"Empty", "Rock", "Capsule", "Ball", "Kinton", "Bean"};
  if (t >= Empty and t <= Bean) ost << names[t];
  return ost;
}

enum GType {
  Normal, On_Kinton, With_Ball, On_Kinton_With_Ball
};

inline ostream& operator<< (ostream& ost, GType t) {
  static const char* names[] = {"Normal", "On_Kinton", "With_Ball", "On_Kinton_With_Ball"};
  if (t >= Normal and t <= On_Kinton_With_Ball) ost << names[t];
  return ost;
}

inline bool has_kinton (GType type) { return type == On_Kinton or type == On_Kinton_With_Ball; }
inline GType jump_on_kinton (GType type) { return type == Normal ? On_Kinton : type == With_Ball ? On_Kinton_With_Ball : type; }
inline bool has_ball (GType type) { return type == With_Ball or type == On_Kinton_With_Ball; }
inline GType take_ball (GType type) { return type == Normal ? With_Ball : type == On_Kinton ? On_Kinton_With_Ball : type; }

struct Cell {
  Pos pos;
  CType type;
  int id;
};

struct Kinton_Cloud {
  Pos pos;
  bool present;
  int time;
};

struct Magic_Bean {
  Pos pos;
  bool present;
  int time;
};

struct Goku {
  int id;
  Pos pos;
  GType type;
  int balls;
  int strength;
  int kinton;
  bool alive;
  int time;
};

class Board {
  // Per-round copies, made on first use (the API hands out references): the
  // gokus, beans and clouds at once, a cell when it is asked for.
  mutable bool built_ = false;
  mutable int epoch_ = 0;
  mutable vector<Cell> cells_;
  mutable vector<int> stamp_;
  mutable vector<int> occ_;
  mutable vector<Goku> gokus_;
  mutable vector<Magic_Bean> beans_;
  mutable vector<Kinton_Cloud> kintons_;

  // The tables once per round; the test inline, the work out of line (cell() stays small enough to inline).
  void build_ () const {
    if (not built_) rebuild_();
  }

  __attribute__((noinline)) void rebuild_ () const {
    int np = nb_players(), r = rows(), c = cols();
    if (int(cells_.size()) != r * c) {
      cells_.assign(r * c, Cell());
      stamp_.assign(r * c, -1);
      occ_.assign(r * c, -1);
    }
    ++epoch_;
    for (int p = 0; p < int(gokus_.size()); ++p)
      if (gokus_[p].alive and pos_ok(gokus_[p].pos)) occ_[gokus_[p].pos.i * c + gokus_[p].pos.j] = -1;
    gokus_.assign(np, Goku());
    for (int p = 0; p < np; ++p) {
      Goku& g = gokus_[p];
      g.id = p;
      g.pos = Pos(arbiter_view::gokus_i(p), arbiter_view::gokus_j(p));
      g.type = GType(arbiter_view::gokus_type(p));
      g.balls = arbiter_view::gokus_balls(p);
      g.strength = arbiter_view::gokus_strength(p);
      g.kinton = arbiter_view::gokus_kinton(p);
      g.alive = arbiter_view::gokus_alive(p) == 1;
      g.time = arbiter_view::gokus_time(p);
      if (g.alive and pos_ok(g.pos)) occ_[g.pos.i * c + g.pos.j] = p;
    }
    beans_.clear();
    for (int k = 0; k < arbiter_view::beans_records(); ++k)
      beans_.push_back(Magic_Bean{Pos(arbiter_view::beans_i(k), arbiter_view::beans_j(k)), arbiter_view::beans_present(k) == 1, arbiter_view::beans_time(k)});
    kintons_.clear();
    for (int k = 0; k < arbiter_view::kintons_records(); ++k)
      kintons_.push_back(Kinton_Cloud{Pos(arbiter_view::kintons_i(k), arbiter_view::kintons_j(k)), arbiter_view::kintons_present(k) == 1, arbiter_view::kintons_time(k)});
    built_ = true;
  }

protected:
  void reset_board_ () { built_ = false; }

public:
  int nb_rounds () const { return arbiter_view::meta_nb_rounds(); }
  int nb_players () const { return arbiter_view::meta_nb_players(); }
  int nb_capsules () const { return arbiter_view::meta_nb_capsules(); }
  int nb_balls () const { return arbiter_view::meta_nb_balls(); }
  int nb_beans () const { return arbiter_view::meta_nb_beans(); }
  int nb_kintons () const { return arbiter_view::meta_nb_kintons(); }
  int goku_regen_time () const { return arbiter_view::meta_goku_regen_time(); }
  int bean_regen_time () const { return arbiter_view::meta_bean_regen_time(); }
  int kinton_regen_time () const { return arbiter_view::meta_kinton_regen_time(); }
  int kinton_life_time () const { return arbiter_view::meta_kinton_life_time(); }
  int max_strength () const { return arbiter_view::meta_max_strength(); }
  int res_strength () const { return arbiter_view::meta_res_strength(); }
  int moving_penalty () const { return arbiter_view::meta_moving_penalty(); }
  int kamehame_penalty () const { return arbiter_view::meta_kamehame_penalty(); }
  int combat_penalty () const { return arbiter_view::meta_combat_penalty(); }
  int rows () const { return arbiter_view::meta_rows(); }
  int cols () const { return arbiter_view::meta_cols(); }
  int round () const { return arbiter_view::meta_round(); }

  bool player_ok (int player) const { return player >= 0 and player < nb_players(); }
  bool pos_ok (int i, int j) const { return i >= 0 and i < rows() and j >= 0 and j < cols(); }
  bool pos_ok (const Pos& p) const { return pos_ok(p.i, p.j); }
  bool pos_ok (int i, int j, Dir d) const { return pos_ok(Pos(i, j) + d); }
  bool pos_ok (const Pos& p, Dir d) const { return pos_ok(p + d); }
  Pos dest (const Pos& p, Dir d) const { return p + d; }

  /** The name a player declared (PLAYER_NAME). */
  // As in the original, asking for a player that does not exist, or a cell
  // outside the board, fails its check(): the player aborts (is frozen).
  string name (int id) const {
    check(player_ok(id));
    char buf[64];
    int n = arbiter_player_name(id, buf, sizeof buf);
    return string(buf, buf + n);
  }
  int balls (int id) const { return goku(id).balls; }
  int strength (int id) const { return goku(id).strength; }
  int score (int id) const { return balls(id) * (max_strength() + 1) + strength(id); }
  /** The fraction of its CPU budget a player has used, -1 once frozen. */
  double status (int id) const {
    check(player_ok(id));
    return arbiter_status(id);
  }

  const Cell& cell (int i, int j) const {
    check(pos_ok(i, j));
    build_();
    int k = i * cols() + j;
    if (stamp_[k] != epoch_) {
      cells_[k] = Cell{Pos(i, j), CType(arbiter_view::cells_at(k)), occ_[k]};
      stamp_[k] = epoch_;
    }
    return cells_[k];
  }
  const Cell& cell (const Pos& p) const { return cell(p.i, p.j); }

  const Goku& goku (int id) const {
    check(player_ok(id));
    build_();
    return gokus_[id];
  }

  const vector<Magic_Bean>& beans () const { build_(); return beans_; }
  const vector<Kinton_Cloud>& kintons () const { build_(); return kintons_; }
};

#endif
