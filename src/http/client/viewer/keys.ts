// The viewer's keyboard shortcuts: one list for the handler's documentation
// and the help dialog.
import { V } from './words.ts';

export interface Shortcut {
  keys: string[];
  action: string;
}

export const SHORTCUTS: Shortcut[] = [
  { keys: ['Space', 'K'], action: V.keys.play },
  { keys: ['←', '→'], action: V.keys.step },
  { keys: ['Shift + ←', 'Shift + →'], action: V.keys.step10 },
  { keys: ['Home', 'End'], action: V.keys.jump },
  { keys: ['+', '−'], action: V.keys.speed },
  { keys: ['H', '?'], action: V.keys.help },
  { keys: ['Esc'], action: V.keys.close },
];

/** Where typing must not drive the viewer: text fields, selects, editable content. */
export function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !['range', 'button', 'submit', 'reset', 'checkbox', 'radio', 'file', 'color', 'image'].includes(target.type);
  return false;
}
