// What a bot's compile can fail with, and how it runs: a leaf of its own, shared by
// compile.ts and cpp/compile-cpp.ts (which compile.ts loads for a .cc file), without an import circle.

export class BotCompileError extends Error {
  override name = 'BotCompileError';
  constructor(
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
  }
}

/** The judge could not compile the file (not the file's fault): try again later. */
export class CompileInfraError extends Error {
  override name = 'CompileInfraError';
}

/** A play-page compile the play lane refused or stopped for its bounds ('busy': its queue is full; 'budget': the client's CPU budget ran out): neither the file's fault nor the judge's. */
export class PlayCompileRefusal extends Error {
  override name = 'PlayCompileRefusal';
  constructor(
    readonly reason: 'busy' | 'budget',
    detail: string,
  ) {
    super(detail);
  }
}

/** How a compile runs: the judge's lane (the gate, rejudges, matches) unless the play page asks. */
export interface CompileBotOptions {
  lane?: 'judge' | 'play';
  /** CPU seconds the compile may still use (the play client's budget), read when it starts. */
  budgetSeconds?: () => number;
  /** Told the CPU time a C++ compile used, ms. */
  onCpu?: (ms: number) => void;
}
