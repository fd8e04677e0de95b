// The viewer's keyboard shortcuts: one list for the handler's documentation
// and the help dialog.

export interface Shortcut {
  keys: string[];
  action: string;
}

export const SHORTCUTS: Shortcut[] = [
  { keys: ['Space', 'K'], action: 'Play / pause' },
  { keys: ['←', '→'], action: 'Step one round back / forward' },
  { keys: ['Shift + ←', 'Shift + →'], action: 'Step ten rounds' },
  { keys: ['Home', 'End'], action: 'Jump to the start / the end' },
  { keys: ['+', '−'], action: 'Faster / slower' },
  { keys: ['H', '?'], action: 'Show these shortcuts' },
  { keys: ['Esc'], action: 'Close this dialog' },
];

/** Where typing must not drive the viewer: text fields, selects, editable content. */
export function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !['range', 'button', 'submit', 'reset', 'checkbox', 'radio', 'file', 'color', 'image'].includes(target.type);
  return false;
}
