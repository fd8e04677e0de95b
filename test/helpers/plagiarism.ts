// Planted copies for the similarity report's tests: a bot disguised the way a
// student would disguise a copy (identifiers renamed, its functions and
// methods in another order, comments removed and the layout changed).

/** Splits a source into top-level chunks: each starts at a line that opens a declaration at column 0 or a method at 2 spaces. */
function chunks(source: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  for (const line of source.split('\n')) {
    if (/^(export default class|function | {2}[A-Za-z_]\w*\(.*\)[^;]*\{\s*$)/.test(line) && current.length > 0) {
      out.push(current.join('\n'));
      current = [];
    }
    current.push(line);
  }
  out.push(current.join('\n'));
  return out;
}

/**
 * The source with every method of its class (and every top-level function)
 * in reverse order, the identifiers in `renames` renamed (whole words),
 * every comment gone and every line indented differently.
 */
export function disguise(source: string, renames: Record<string, string>): string {
  const parts = chunks(source);
  // parts[0] is the header; the class opens at the part starting "export default class"; methods follow; the last ends with the class's "}".
  const classAt = parts.findIndex((p) => p.startsWith('export default class'));
  const head = parts.slice(0, classAt);
  const classHead = parts[classAt]!;
  const methods = parts.slice(classAt + 1);
  // The last method carries the class's closing brace (and whatever follows): move it back to the end.
  const last = methods.pop()!;
  const closing = last.lastIndexOf('\n}');
  methods.push(last.slice(0, closing));
  const tail = last.slice(closing);
  const functions = head.slice(1).reverse();
  let text = [head[0]!, ...functions, classHead, ...methods.reverse()].join('\n') + tail;
  for (const [from, to] of Object.entries(renames)) text = text.replace(new RegExp(`\\b${from}\\b`, 'g'), to);
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((l) => l.replace(/(^|[^:'"\\])\/\/.*$/, '$1'))
    .filter((l) => l.trim() !== '')
    .map((l) => '\t' + l.trim())
    .join('\n');
}

/** A program of its own for each seed (statements drawn from a small grammar by a seeded generator): a class of students who did not copy. */
export function randomBot(seed: number, functions = 8): string {
  let state = (seed * 2654435761 + 12345) >>> 0;
  const rand = (n: number) => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return state % n;
  };
  const v = () => ['a', 'b', 'c', 'i', 'j', 'n', 'best', 'q'][rand(8)]!;
  const op = () => ['+', '-', '*', '%', '<<', '&', '|'][rand(7)]!;
  const cmp = () => ['<', '>', '<=', '>=', '===', '!=='][rand(6)]!;
  const expr = (depth = 0): string =>
    depth > 1 || rand(3) === 0
      ? rand(2)
        ? v()
        : String(rand(100))
      : rand(4) === 0
        ? `this.f${rand(functions)}(${expr(depth + 1)})`
        : rand(5) === 0
          ? `Math.max(${expr(depth + 1)}, ${expr(depth + 1)})`
          : `(${expr(depth + 1)} ${op()} ${expr(depth + 1)})`;
  const statement = (depth: number): string => {
    switch (depth > 2 ? rand(3) : rand(7)) {
      case 0:
      case 1:
        return `${v()} = ${expr()};`;
      case 2:
        return `${v()} ${op()}= ${expr()};`;
      case 3:
        return `if (${expr()} ${cmp()} ${expr()}) {\n${block(depth + 1)}\n}${rand(2) ? ` else {\n${block(depth + 1)}\n}` : ''}`;
      case 4:
        return `for (let k = 0; k < ${expr()}; k++) {\n${block(depth + 1)}\n}`;
      case 5:
        return `while (${v()} ${cmp()} ${expr()}) {\n${block(depth + 1)}\n${v()}++;\n}`;
      default:
        return `q.push(${expr()});`;
    }
  };
  const block = (depth: number) => Array.from({ length: 1 + rand(4) }, () => statement(depth)).join('\n');
  const methods = Array.from(
    { length: functions },
    (_, f) =>
      `  f${f}(a: number): number {\n    let b = ${rand(9)}, c = a, i = 0, j = 1, n = ${rand(50)}, best = -1;\n    const q: number[] = [];\n${block(0)}\n    return ${expr()};\n  }`,
  );
  return `export const PLAYER_NAME = 'P${seed}';\nexport default class extends Player {\n  play(): void {\n    this.f0(${rand(10)});\n  }\n${methods.join('\n')}\n}\n`;
}
