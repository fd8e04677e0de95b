// Harry Potter's Settings.hh: the match's settings, read from the view.
#ifndef Settings_hh
#define Settings_hh

#include "Structs.hh"
#include "arbiter.hh"

class Settings {
public:
  static string version () { return "HarryPotter 1.0"; }

  int num_players () const { return arbiter_view::settings_num_players(); }
  int num_rounds () const { return arbiter_view::settings_num_rounds(); }
  int board_rows () const { return arbiter_view::settings_board_rows(); }
  int board_cols () const { return arbiter_view::settings_board_cols(); }
  int num_ini_wizards_per_clan () const { return arbiter_view::settings_num_ini_wizards_per_clan(); }
  int num_ini_books () const { return arbiter_view::settings_num_ini_books(); }
  int clan_ini_magic_strength () const { return arbiter_view::settings_clan_ini_magic_strength(); }
  int points_for_converting_wizard () const { return arbiter_view::settings_points_for_converting_wizard(); }
  int points_per_owned_cell () const { return arbiter_view::settings_points_per_owned_cell(); }
  int book_magic_strength () const { return arbiter_view::settings_book_magic_strength(); }
  int rounds_for_converting_wizard () const { return arbiter_view::settings_rounds_for_converting(); }
  int rounds_attack_resting_ghost () const { return arbiter_view::settings_rounds_attack_resting_ghost(); }
  int rounds_no_attack_ghost () const { return arbiter_view::settings_rounds_no_attack_ghost(); }
  int rounds_spell_resting_ghost () const { return arbiter_view::settings_rounds_spell_resting_ghost(); }

  bool player_ok (int pl) const { return pl >= 0 and pl < num_players(); }
  bool pos_ok (int i, int j) const { return i >= 0 and i < board_rows() and j >= 0 and j < board_cols(); }
  bool pos_ok (Pos p) const { return pos_ok(p.i, p.j); }
};

#endif
