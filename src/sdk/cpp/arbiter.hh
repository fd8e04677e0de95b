// What every game's C++ API shares: the judge's imports, the player
// registry, and the module's memory management. Included by each game's
// headers; a player never needs to include it itself.
#ifndef arbiter_hh
#define arbiter_hh

#include <stdint.h>
#include <stdlib.h>
#include <stddef.h>
#include "ArbiterView.hh"

#if defined(__wasm__)
#define ARBITER_IMPORT(n) __attribute__((import_module("arbiter"), import_name(#n)))
#define ARBITER_EXPORT(n) __attribute__((export_name(#n)))
#else
// A native build (g++ or clang for this machine: to check a player with -Wall, or to debug it): wasm's import and
// export names mean nothing there, and g++ warns on every one it ignores. The judge always compiles for wasm32.
#define ARBITER_IMPORT(n)
#define ARBITER_EXPORT(n)
#endif

extern "C" {
/** This player's number. */
ARBITER_IMPORT(me) int arbiter_me ();
/** The player's own generator (seeded match seed + me + 1), shared with the JavaScript API. */
ARBITER_IMPORT(random) int arbiter_random (int l, int u);
/** A player's CPU status: the fraction of its budget used, -1 when frozen. */
ARBITER_IMPORT(status) double arbiter_status (int pl);
/**
 * One order for the judge, validated there like a JavaScript bot's:
 * items[0, nested_from) are numbers, items[nested_from, n) one array of
 * numbers at the end (nested_from < 0: none).
 */
ARBITER_IMPORT(order) void arbiter_order (const int32_t* items, int n, int nested_from);
/** An order whose first item is the one-letter text `tag`, then n numbers. */
ARBITER_IMPORT(order_tagged) void arbiter_order_tagged (int tag, const int32_t* items, int n);
/** A number fixed for this match and player, to seed a player's own generator. */
ARBITER_IMPORT(seed) int arbiter_seed ();
/** An allocation the memory limit refused: the judge freezes the bot for memory. */
ARBITER_IMPORT(out_of_memory) void arbiter_out_of_memory (uint32_t bytes);
/** A player's name (PLAYER_NAME) into buf, at most cap bytes; its length. */
ARBITER_IMPORT(player_name) int arbiter_player_name (int pl, char* buf, int cap);
}

class Player;

/** Players register themselves with RegisterPlayer(PLAYER_NAME); a module holds one. */
class Registry {
public:
  typedef Player* (*Factory)();
  static int Register (const char* name, Factory fact) {
    factory_() = fact;
    (void)name;
    return 0;
  }
  static Factory& factory_ () {
    static Factory f = nullptr;
    return f;
  }
};

#define _stringification(s) #s
#define RegisterPlayer(x) static int registration = \
        Registry::Register(_stringification(x), x::factory)

// Allocation past the memory limit freezes the bot for memory (the module
// has no exceptions, so there is no bad_alloc to catch).
void* operator new (size_t n) {
  void* p = malloc(n ? n : 1);
  if (not p) arbiter_out_of_memory(uint32_t(n));
  return p;
}
void* operator new[] (size_t n) {
  void* p = malloc(n ? n : 1);
  if (not p) arbiter_out_of_memory(uint32_t(n));
  return p;
}
void operator delete (void* p) noexcept { free(p); }
void operator delete[] (void* p) noexcept { free(p); }
void operator delete (void* p, size_t) noexcept { free(p); }
void operator delete[] (void* p, size_t) noexcept { free(p); }

#endif
