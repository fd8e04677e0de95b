// Board helpers engines share.

/** Number of 4-connected components of the open cells of a rows × cols board (blocked[i*cols+j] is 0 where open). */
export function openComponents(blocked: ArrayLike<number>, rows: number, cols: number): number {
  const seen = new Uint8Array(rows * cols);
  const stack = new Int32Array(rows * cols);
  let comps = 0;
  for (let start = 0; start < rows * cols; start++) {
    if (blocked[start] || seen[start]) continue;
    comps++;
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    while (top > 0) {
      const k = stack[--top]!;
      const i = (k / cols) | 0;
      const j = k % cols;
      if (i > 0 && !blocked[k - cols] && !seen[k - cols]) (seen[k - cols] = 1), (stack[top++] = k - cols);
      if (i < rows - 1 && !blocked[k + cols] && !seen[k + cols]) (seen[k + cols] = 1), (stack[top++] = k + cols);
      if (j > 0 && !blocked[k - 1] && !seen[k - 1]) (seen[k - 1] = 1), (stack[top++] = k - 1);
      if (j < cols - 1 && !blocked[k + 1] && !seen[k + 1]) (seen[k + 1] = 1), (stack[top++] = k + 1);
    }
  }
  return comps;
}
