// The Walking Dead's Structs.hh, from the statement's API (Q1 2022-23):
// directions, positions, cells, units. Arbiter's own code.
#ifndef Structs_hh
#define Structs_hh

#define ARBITER_MY_ASSERT_WORD "error: " // the original's _my_assert
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
  Street,
  Waste
};

inline ostream& operator<< (ostream& out, CellType c) {
  if (c == Street) return out << "Street";
  if (c == Waste) return out << "Waste";
  return out << int(c);
}

struct Cell {
  CellType type;  // Street or waste.
  int owner;      // The player that owns it, otherwise -1.
  int id;         // The id of a unit if present, or -1 otherwise.
  bool food;      // Whether it contains food.

  Cell () : type(Street), owner(-1), id(-1), food(false) { }
  Cell (CellType t, int o, int i, bool f) : type(t), owner(o), id(i), food(f) { }

  /** A street without units and without food. */
  bool is_empty () const { return type == Street and id == -1 and not food; }
};

enum UnitType {
  Alive,
  Dead,
  Zombie
};

inline ostream& operator<< (ostream& out, UnitType c) {
  static const char* names[] = {"Alive", "Dead", "Zombie"};
  if (c >= Alive and c <= Zombie) return out << names[c];
  return out << int(c);
}

struct Unit {
  UnitType type;          // The type of unit.
  int id;                 // Its identifier.
  int player;             // The player that owns it (-1 for a zombie).
  Pos pos;                // Its position on the board.
  int rounds_for_zombie;  // Rounds before it becomes a zombie (-1 if it is not turning).

  Unit () : type(Alive), id(-1), player(-1), pos(0, 0), rounds_for_zombie(-1) { }
  Unit (UnitType t, int i, int pl, Pos p, int r) : type(t), id(i), player(pl), pos(p), rounds_for_zombie(r) { }
};

enum CommandType {
  Move
};

inline bool command_type_ok (CommandType c) {
  return c == Move;
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
  static const char c[] = "adz";
  return t >= 0 and t < 3 ? c[t] : '_';
}

inline int char2UnitType (char c) {
  static const string s = "adz";
  size_t k = s.find(c);
  return k == string::npos ? -1 : int(k);
}

inline char CommandType2char (int t) {
  static const char c[] = "m";
  return t >= 0 and t < 1 ? c[t] : '_';
}

inline int char2CommandType (char c) {
  static const string s = "m";
  size_t k = s.find(c);
  return k == string::npos ? -1 : int(k);
}

#endif
