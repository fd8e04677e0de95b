// Harry Potter's Structs.hh, from the statement's API (Q1 2024-25):
// directions, positions, cells, units. Arbiter's own code.
#ifndef Structs_hh
#define Structs_hh

#define ARBITER_MY_ASSERT_SILENT 1 // the original's _my_assert is a bare assert
#include "Utils.hh"

enum Dir {
  Down, DR, Right, RU, Up, UL, Left, LD
};

inline ostream& operator<< (ostream& out, Dir d) {
  static const char* names[] = {"Down", "DR", "Right", "RU", "Up", "UL", "Left", "LD"};
  if (d >= Down and d <= LD) return out << names[d];
  return out << int(d);
}

inline bool dir_ok (Dir dir) {
  return dir >= Down and dir <= LD;
}

struct Pos {
  int i, j;

  Pos () : i(0), j(0) { }
  Pos (int i, int j) : i(i), j(j) { }

  friend ostream& operator<< (ostream& os, const Pos& p) { return os << "(" << p.i << ", " << p.j << ")"; }
  friend bool operator== (const Pos& a, const Pos& b) { return a.i == b.i and a.j == b.j; }
  friend bool operator!= (const Pos& a, const Pos& b) { return not (a == b); }
  /** Row first: Pos works as a key of set and map. */
  friend bool operator< (const Pos& a, const Pos& b) { return a.i != b.i ? a.i < b.i : a.j < b.j; }

  Pos& operator+= (Dir d) {
    static const int di[] = {1, 1, 0, -1, -1, -1, 0, 1};
    static const int dj[] = {0, 1, 1, 1, 0, -1, -1, -1};
    if (d >= Down and d <= LD) {
      i += di[d];
      j += dj[d];
    }
    return *this;
  }
  Pos operator+ (Dir d) const { Pos p = *this; return p += d; }
  Pos& operator+= (Pos p) { i += p.i; j += p.j; return *this; }
  Pos operator+ (Pos p) const { Pos q = *this; return q += p; }
};

enum CellType {
  Corridor,
  Wall
};

inline ostream& operator<< (ostream& out, CellType c) {
  if (c == Corridor) return out << "Corridor";
  if (c == Wall) return out << "Wall";
  return out << int(c);
}

struct Cell {
  CellType type;  // Corridor or wall.
  int owner;      // The player that owns it, otherwise -1.
  int id;         // The id of a unit if present, or -1 otherwise.
  bool book;      // Whether it contains a book.

  Cell () : type(Corridor), owner(-1), id(-1), book(false) { }
  Cell (CellType t, int o, int i, bool b) : type(t), owner(o), id(i), book(b) { }

  /** A corridor without units and without a book. */
  bool is_empty () const { return type == Corridor and id == -1 and not book; }
};

enum UnitType {
  Wizard,
  Ghost
};

inline ostream& operator<< (ostream& out, UnitType c) {
  if (c == Wizard) return out << "Wizard";
  if (c == Ghost) return out << "Ghost";
  return out << int(c);
}

struct Unit {
  UnitType type;       // The type of unit.
  int id;              // Its identifier.
  int player;          // The player that owns it.
  Pos pos;             // Its position on the board.
  int rounds_pending;  // Wizard: rounds before its conversion completes (0: none). Ghost: resting rounds.
  int next_player;     // Wizard being converted: its owner afterwards (-1: none). Ghost: the last attacker.

  Unit () : type(Wizard), id(-1), player(-1), pos(0, 0), rounds_pending(-1), next_player(-1) { }
  Unit (UnitType t, int i, int pl, Pos p, int r, int n) : type(t), id(i), player(pl), pos(p), rounds_pending(r), next_player(n) { }

  bool is_in_conversion_process () const { return type == Wizard and rounds_pending > 0; }
  int rounds_for_converting () const { return type != Wizard ? -1 : rounds_pending; }
  int player_to_be_converted_to () const { return type != Wizard or next_player == -1 ? -1 : next_player; }
  int last_attack_received () const { return type == Wizard ? -1 : next_player; }
  int resting_rounds () const { return type == Wizard ? -1 : rounds_pending; }
};

enum CommandType {
  Move,
  Spell
};

inline bool command_type_ok (CommandType c) {
  return c == Move or c == Spell;
}

inline char Dir2char (int d) {
  static const char c[] = "dcreuqlz";
  return d >= 0 and d < 8 ? c[d] : '_';
}

inline int char2Dir (char c) {
  static const string s = "dcreuqlz";
  size_t k = s.find(c);
  return k == string::npos ? -1 : int(k);
}

inline char UnitType2char (int t) {
  static const char c[] = "wg";
  return t >= 0 and t < 2 ? c[t] : '_';
}

inline int char2UnitType (char c) {
  static const string s = "wg";
  size_t k = s.find(c);
  return k == string::npos ? -1 : int(k);
}

inline char CommandType2char (int t) {
  static const char c[] = "ms";
  return t >= 0 and t < 2 ? c[t] : '_';
}

inline int char2CommandType (char c) {
  static const string s = "ms";
  size_t k = s.find(c);
  return k == string::npos ? -1 : int(k);
}

#endif
