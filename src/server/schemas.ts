// Route schemas shared by the API and the pages.

/** `:id` path parameters: a positive 32-bit database id. */
export const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } },
} as const;
