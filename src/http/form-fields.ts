// A page's form fields and query as the page reads them. The pages declare no body or query
// schema for their forms: a form answers bad input on the form itself, field by field, in the
// visitor's language, never with a bare 400; so the fields are what the parser gave (strings,
// absent when not sent), and each page checks its own.

export type Fields = Record<string, string | undefined>;

/** The fields of a parsed urlencoded body or querystring (none when there is no body). */
export const fields = (value: unknown): Fields => (value !== null && typeof value === 'object' ? (value as Fields) : {});
