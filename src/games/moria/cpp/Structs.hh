// Moria's Structs.hh, from the statement's API (P44849): directions,
// positions, cells and units. Arbiter's own code.
#ifndef Structs_hh
#define Structs_hh

#include "Utils.hh"

enum Dir {
  Bottom, BR, Right, RT, Top, TL, Left, LB,
  None,
  DirSize
};

inline bool dir_ok (Dir dir) {
  return dir >= Bottom and dir <= None;
}

struct Pos {
  int i, j;

  Pos () : i(0), j(0) { }
  Pos (int i, int j) : i(i), j(j) { }

  friend ostream& operator<< (ostream& os, const Pos& p) {
    return os << "(" << p.i << ", " << p.j << ")";
  }
  friend bool operator== (const Pos& a, const Pos& b) { return a.i == b.i and a.j == b.j; }
  friend bool operator!= (const Pos& a, const Pos& b) { return not (a == b); }
  /** Row first: Pos works as a key of set and map. */
  friend bool operator< (const Pos& a, const Pos& b) { return a.i != b.i ? a.i < b.i : a.j < b.j; }

  Pos& operator+= (Dir d) {
    static const int di[] = {1, 1, 0, -1, -1, -1, 0, 1};
    static const int dj[] = {0, 1, 1, 1, 0, -1, -1, -1};
    if (d >= Bottom and d <= LB) {
      i += di[d];
      j += dj[d];
    }
    return *this;
  }
  Pos operator+ (Dir d) const {
    Pos p = *this;
    return p += d;
  }
  Pos& operator+= (Pos p) {
    i += p.i;
    j += p.j;
    return *this;
  }
  Pos operator+ (Pos p) const {
    Pos q = *this;
    return q += p;
  }
};

enum CellType {
  Outside, Cave, Abyss, Granite, Rock,
  CellTypeSize
};

struct Cell {
  CellType type;  // The kind of cell.
  int owner;      // The player that owns it, otherwise -1.
  int id;         // The id of a unit if present, otherwise -1.
  int turns;      // For a rock, the hits it still needs.
  bool treasure;  // For a cave, whether it holds a treasure.

  Cell () : type(Cave), owner(-1), id(-1), turns(0), treasure(false) { }
  Cell (CellType t, int ow, int id, int tu, bool tr) : type(t), owner(ow), id(id), turns(tu), treasure(tr) { }
};

enum UnitType {
  Dwarf, Wizard, Orc, Troll, Balrog,
  UnitTypeSize
};

inline char ut2char (UnitType u) {
  static const char c[] = "dwotb";
  return u >= Dwarf and u <= Balrog ? c[u] : '?';
}

inline UnitType char2ut (char c) {
  switch (c) {
    case 'd': return Dwarf;
    case 'w': return Wizard;
    case 'o': return Orc;
    case 't': return Troll;
    case 'b': return Balrog;
  }
  return UnitTypeSize;
}

struct Unit {
  UnitType type;  // The kind of unit.
  int id;         // Its identifier.
  int player;     // Its clan, or -1 for Sauron's units.
  int health;     // Its health (meaningless for the Balrog).
  Pos pos;        // Its position.

  Unit () : type(Dwarf), id(-1), player(-1), health(0), pos(-1, -1) { }
  Unit (UnitType t, int id, int pl, int h, Pos p) : type(t), id(id), player(pl), health(h), pos(p) { }
};

#endif
