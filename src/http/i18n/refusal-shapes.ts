// A refusal code the domain words in several ways (not-found: "no user 4",
// "no tournament 7"...): each catalog lists the shapes it translates, and a
// message of no listed shape is shown as the domain wrote it.

/** The first shape the message has, filled from its groups; the message itself when it has none. */
export function byShape(message: string, shapes: readonly (readonly [RegExp, (m: RegExpExecArray) => string])[]): string {
  for (const [re, text] of shapes) {
    const m = re.exec(message);
    if (m) return text(m);
  }
  return message;
}
