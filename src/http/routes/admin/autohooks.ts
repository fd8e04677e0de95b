// /admin: the admin's pages. Every route under this folder is in an admin scope whose hook
// sends anonymous visitors to log in and answers anyone but an admin with the 403 page, before
// anything else runs, whatever the URL's spelling (src/http/access.ts).

import type { FastifyInstance } from 'fastify';
import { guardAdminPages } from '../../access.ts';

export default async function adminPageHooks(app: FastifyInstance) {
  guardAdminPages(app);
}
