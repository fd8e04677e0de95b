// /api/admin: the admin's API. Every route under this folder is in an admin scope whose hook
// answers 401 without a user and 403 for anyone else, before the body is read or validated,
// whatever the URL's spelling (src/http/access.ts).

import type { FastifyInstance } from 'fastify';
import { guardAdminApi } from '../../../access.ts';

export default async function adminApiHooks(app: FastifyInstance) {
  guardAdminApi(app);
}
