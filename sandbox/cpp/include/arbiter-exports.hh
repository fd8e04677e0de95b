// The functions the judge's runtime calls in the module. Included by each
// game's Player.hh after class Player, which provides arbiter_reset() (its
// per-round caches) and play().
#ifndef arbiter_exports_hh
#define arbiter_exports_hh

namespace arbiter_rt {
inline Player* player = nullptr;
inline int32_t table[2 * arbiter_view::COUNT];
inline void* view_buffer = nullptr;
inline int view_capacity = 0;
}

extern "C" ARBITER_EXPORT(arbiter_view_names) const char* arbiter_view_names () {
  return arbiter_view::NAMES;
}

extern "C" ARBITER_EXPORT(arbiter_view_table) int32_t* arbiter_view_table () {
  return arbiter_rt::table;
}

/** Room for the round's view, kept between rounds (the view has the same size every round). */
extern "C" ARBITER_EXPORT(arbiter_view_alloc) void* arbiter_view_alloc (int bytes) {
  if (bytes > arbiter_rt::view_capacity) {
    free(arbiter_rt::view_buffer);
    arbiter_rt::view_buffer = malloc(bytes);
    if (not arbiter_rt::view_buffer) arbiter_out_of_memory(uint32_t(bytes));
    arbiter_rt::view_capacity = bytes;
  }
  return arbiter_rt::view_buffer;
}

/** Creates the registered player: 0 if the file registers none. */
extern "C" ARBITER_EXPORT(arbiter_create) int arbiter_create () {
  Registry::Factory f = Registry::factory_();
  if (not f) return 0;
  arbiter_rt::player = f();
  return 1;
}

extern "C" ARBITER_EXPORT(arbiter_play) void arbiter_play () {
  arbiter_view::bind(arbiter_rt::table);
  arbiter_rt::player->arbiter_reset();
  arbiter_rt::player->play();
}

#endif
