// The Walking Dead's Settings.hh: the match's settings, read from the view.
#ifndef Settings_hh
#define Settings_hh

#include "Structs.hh"
#include "arbiter.hh"

class Settings {
public:
  static string version () { return "TheWalkingDead 1.0"; }

  int num_players () const { return arbiter_view::settings_num_players(); }
  int num_rounds () const { return arbiter_view::settings_num_rounds(); }
  int board_rows () const { return arbiter_view::settings_board_rows(); }
  int board_cols () const { return arbiter_view::settings_board_cols(); }
  int num_ini_units_per_clan () const { return arbiter_view::settings_num_ini_units_per_clan(); }
  int num_ini_zombies () const { return arbiter_view::settings_num_ini_zombies(); }
  int num_ini_food () const { return arbiter_view::settings_num_ini_food(); }
  int clan_ini_strength () const { return arbiter_view::settings_clan_ini_strength(); }
  int points_for_killing_person () const { return arbiter_view::settings_points_for_killing_person(); }
  int points_for_killing_zombie () const { return arbiter_view::settings_points_for_killing_zombie(); }
  int points_per_owned_cell () const { return arbiter_view::settings_points_per_owned_cell(); }
  int food_strength () const { return arbiter_view::settings_food_strength(); }
  int rounds_before_becoming_zombie () const { return arbiter_view::settings_rounds_before_becoming_zombie(); }

  bool player_ok (int pl) const { return pl >= 0 and pl < num_players(); }
  bool pos_ok (int i, int j) const { return i >= 0 and i < board_rows() and j >= 0 and j < board_cols(); }
  bool pos_ok (Pos p) const { return pos_ok(p.i, p.j); }
};

#endif
