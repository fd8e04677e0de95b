// Accessible form pieces shared by the pages: every input has a label, a
// hint and its error are tied to it with aria-describedby, an invalid field
// says so (aria-invalid), and the error summary at the top is role="alert"
// (announced on load) with links to the fields.

import { html, type Html, type HtmlValue } from './html.ts';
import { t } from '../i18n/index.ts';

export type FieldErrors = Record<string, string>;

export interface FieldOptions {
  name: string;
  label: string;
  type?: 'text' | 'password' | 'number' | 'search' | 'file';
  value?: string;
  hint?: string;
  errors?: FieldErrors;
  required?: boolean;
  autocomplete?: string;
  /** Extra attributes, trusted markup (e.g. html`accept=".ts,.js"`). */
  attrs?: Html;
}

/** A labelled control with its hint and error: the control gets the aria attributes that tie them to it. */
function labelled(o: { name: string; label: string; hint?: string; errors?: FieldErrors }, control: (id: string, aria: Html) => Html): Html {
  const id = `f-${o.name}`;
  const error = o.errors?.[o.name];
  const described = [o.hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  const aria = html`${described ? html` aria-describedby="${described}"` : ''}${error ? html` aria-invalid="true"` : ''}`;
  return html`<div class="field">
  <label for="${id}">${o.label}</label>
  ${o.hint ? html`<p class="hint" id="${id}-hint">${o.hint}</p>` : ''}
  ${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}
  ${control(id, aria)}
</div>`;
}

export function field(o: FieldOptions): Html {
  return labelled(
    o,
    (id, aria) =>
      html`<input id="${id}" name="${o.name}" type="${o.type ?? 'text'}"${o.type !== 'file' && o.value !== undefined ? html` value="${o.value}"` : ''}${o.required ? html` required` : ''}${o.autocomplete ? html` autocomplete="${o.autocomplete}"` : ''}${aria}${o.attrs ? html` ${o.attrs}` : ''}>`,
  );
}

export interface SelectOptions {
  name: string;
  label: string;
  options: { value: string; label: string }[];
  value?: string;
  hint?: string;
  errors?: FieldErrors;
  required?: boolean;
}

export function select(o: SelectOptions): Html {
  return labelled(
    o,
    (id, aria) => html`<select id="${id}" name="${o.name}"${o.required ? html` required` : ''}${aria}>
    ${o.options.map((opt) => html`<option value="${opt.value}"${opt.value === o.value ? html` selected` : ''}>${opt.label}</option>`)}
  </select>`,
  );
}

/** The error summary: announced, and each error links to its field. Errors under the key "" are about the whole form. */
export function errorSummary(errors: FieldErrors | undefined, labels: Record<string, string> = {}): HtmlValue {
  const entries = Object.entries(errors ?? {});
  if (entries.length === 0) return '';
  return html`<div class="form-errors" role="alert" tabindex="-1" id="form-errors" autofocus>
  <p><strong>${entries.length === 1 ? t('form.oneProblem') : t('form.problems', entries.length)}</strong></p>
  <ul>${entries.map(([name, msg]) => (name ? html`<li><a href="#f-${name}">${labels[name] ? `${labels[name]}: ` : ''}${msg}</a></li>` : html`<li>${msg}</li>`))}</ul>
</div>`;
}
