// Old names, kept only for work written against them before the move (the
// starter kit's local play): playing a match is sandbox/play-match.ts
// (playMatch, playMatchWithGame), the match loop is MatchRun (match-run.ts).
// Nothing in the tree imports this file; delete it once nothing new does.
export { checkSeed, compileSeat, MatchSpecError, playMatch as runMatch, playMatchWithGame as runMatchWithGame } from '../../sandbox/play-match.ts';
