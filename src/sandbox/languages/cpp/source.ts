// What a C++ bot file says about itself, read without compiling it: the
// player's name (`#define PLAYER_NAME Gimli`, the course's convention) and,
// optionally, its game (`// GAME: moria`: a C++ file has no GAME export).
// Pure and cheap: the API reads it on every upload.

const DEFINE_NAME = /^[ \t]*#[ \t]*define[ \t]+PLAYER_NAME[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]*(?:\/\/.*|\/\*.*)?$/m;
const GAME_COMMENT = /^[ \t]*\/\/[ \t]*GAME[ \t]*:[ \t]*([a-z0-9-]+)[ \t]*$/im;

/** Does this text look like a C++ player (it defines PLAYER_NAME with the preprocessor)? */
export function looksLikeCpp(source: string): boolean {
  return DEFINE_NAME.test(source);
}

export interface CppHeader {
  name: string | null;
  game: string | null;
}

export function readCppHeader(source: string): CppHeader {
  return { name: DEFINE_NAME.exec(source)?.[1] ?? null, game: GAME_COMMENT.exec(source)?.[1]?.toLowerCase() ?? null };
}
