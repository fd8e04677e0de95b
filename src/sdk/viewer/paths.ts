// Drawing pieces more than one game's viewer uses: shapes added to the
// current path, and a path stroked twice so a coloured line stays readable
// on any background.

/** A diamond (a square on its corner) of half-diagonal r around (cx, cy), added to the current path. */
export function pathDiamond(ctx: CanvasRenderingContext2D, cx: number, cy: number, r: number): void {
  ctx.moveTo(cx, cy - r);
  ctx.lineTo(cx + r, cy);
  ctx.lineTo(cx, cy + r);
  ctx.lineTo(cx - r, cy);
  ctx.closePath();
}

/** Strokes the current path with a dark outline outerWidth wide, then in color innerWidth wide on top of it. */
export function strokeOutlined(ctx: CanvasRenderingContext2D, outline: string, outerWidth: number, color: string, innerWidth: number): void {
  ctx.strokeStyle = outline;
  ctx.lineWidth = outerWidth;
  ctx.stroke();
  ctx.strokeStyle = color;
  ctx.lineWidth = innerWidth;
  ctx.stroke();
}
