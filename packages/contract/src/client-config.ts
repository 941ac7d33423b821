import { z } from 'zod';
import { defineCall } from './call.js';

/** What the console needs to know about this server's configuration (public, no secrets). */
export const ClientConfigResponse = z.object({
  tile_url: z.string(),
  tile_attribution: z.string(),
});
export const clientConfig = defineCall('/api/client_config', z.object({}).optional(), ClientConfigResponse);
