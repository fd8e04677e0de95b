// Bola de Drac's PosDir.hh: directions and positions (the 2012 API).
#ifndef PosDir_hh
#define PosDir_hh

#include "Utils.hh"

enum Dir {
  None, Top, Bottom, Left, Right
};

inline char d2c (Dir d) {
  static const char c[] = "ntblr";
  return d >= None and d <= Right ? c[d] : 'n';
}

inline Dir c2d (char c) {
  switch (c) {
    case 't': return Top;
    case 'b': return Bottom;
    case 'l': return Left;
    case 'r': return Right;
  }
  return None;
}

struct Pos {
  int i, j;

  Pos () : i(0), j(0) { }
  Pos (int i, int j) : i(i), j(j) { }

  friend ostream& operator<< (ostream& os, const Pos& p) { return os << "(" << p.i << "," << p.j << ")"; }
  /** Row first: Pos works as a key of set and map. */
  friend bool operator< (const Pos& a, const Pos& b) { return a.i != b.i ? a.i < b.i : a.j < b.j; }
  friend bool operator== (const Pos& a, const Pos& b) { return a.i == b.i and a.j == b.j; }
  friend bool operator!= (const Pos& a, const Pos& b) { return not (a == b); }
  friend bool operator<= (const Pos& a, const Pos& b) { return a < b or a == b; }
  friend bool operator>= (const Pos& a, const Pos& b) { return not (a < b); }
  friend bool operator> (const Pos& a, const Pos& b) { return not (a <= b); }

  Pos& operator+= (Dir d) {
    static const int di[] = {0, -1, 1, 0, 0};
    static const int dj[] = {0, 0, 0, -1, 1};
    if (d >= None and d <= Right) {
      i += di[d];
      j += dj[d];
    }
    return *this;
  }
  Pos operator+ (Dir d) const { Pos p = *this; return p += d; }
};

#endif
