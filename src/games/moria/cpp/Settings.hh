// Moria's Settings.hh: the match's settings (read from the round's view) and
// the constants the statement fixes.
#ifndef Settings_hh
#define Settings_hh

#include "Structs.hh"
#include "arbiter.hh"

class Settings {
public:
  static string version () { return "Moria 1.1"; }

  int nb_players () const { return arbiter_view::meta_nb_players(); }
  int nb_rounds () const { return arbiter_view::meta_nb_rounds(); }
  int nb_dwarves () const { return arbiter_view::meta_nb_dwarves(); }
  int nb_wizards () const { return arbiter_view::meta_nb_wizards(); }
  int max_nb_orcs () const { return arbiter_view::meta_max_nb_orcs(); }
  int nb_trolls () const { return arbiter_view::meta_nb_trolls(); }
  int treasure_value () const { return arbiter_view::meta_treasure_value(); }
  int rock_resistance () const { return arbiter_view::meta_rock_resistance(); }
  int rows () const { return arbiter_view::meta_rows(); }
  int cols () const { return arbiter_view::meta_cols(); }

  int dwarves_health () const { return 100; }
  int wizards_health () const { return 50; }
  int orcs_health () const { return 75; }
  int trolls_health () const { return 500; }
  int min_damage_dwarves () const { return 20; }
  int max_damage_dwarves () const { return 40; }
  int min_damage_orcs () const { return 15; }
  int max_damage_orcs () const { return 30; }
  int min_damage_trolls () const { return 50; }
  int max_damage_trolls () const { return 150; }
  int ini_treasures () const { return 80; }
  int inv_prob_abyss () const { return 25; }
  int inv_prob_orc () const { return 50; }

  bool player_ok (int pl) const { return pl >= 0 and pl < nb_players(); }
  bool pos_ok (int i, int j) const { return i >= 0 and i < rows() and j >= 0 and j < cols(); }
  bool pos_ok (Pos p) const { return pos_ok(p.i, p.j); }
};

#endif
