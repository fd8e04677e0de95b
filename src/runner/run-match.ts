// Moved: playing a match is sandbox/play-match.ts (playMatch); the match loop is MatchRun (match-run.ts).
export { checkSeed, compileSeat, MatchSpecError, playMatch as runMatch, playMatchWithGame as runMatchWithGame } from '../../sandbox/play-match.ts';
