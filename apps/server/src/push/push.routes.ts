import { pushMessages, pushPublicKey, pushSubscribe, pushUnsubscribe } from '@fleet/contract';
import { createPublicKey } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../access/route.js';
import type { AppContext } from '../http/context.js';
import { badRequest, notFound } from '../http/errors.js';
import { pushHostAllowed } from './push-hosts.js';
import { deleteSubscription, saveSubscription } from './push.repository.js';
import { vapidKeys } from './vapid.js';

/** Whether base64url `p256dh` is an uncompressed point on P-256 (what a browser sends); web-push could not encrypt for anything else. */
function isP256Point(p256dh: string): boolean {
  const raw = Buffer.from(p256dh, 'base64url');
  if (raw.length !== 65 || raw[0] !== 4) return false;
  try {
    const jwk = {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33).toString('base64url'),
    };
    createPublicKey({ key: jwk, format: 'jwk' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Browser push (docs/notifications.md "Browser push"). Every signed-in account subscribes and
 * unsubscribes its own browsers; what is pushed follows its own notification settings.
 */
export function registerPushRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, ctx, pushPublicKey, {
    auth: 'user',
    handler: async () => ({ public_key: (await vapidKeys(ctx.db, ctx.config)).publicKey }),
  });

  registerCall(app, ctx, pushSubscribe, {
    auth: 'user',
    handler: async ({ body, access }) => {
      if (!pushHostAllowed(body.endpoint, ctx.config.PUSH_SERVICE_HOSTS))
        throw badRequest(undefined, { endpoint: pushMessages.service });
      if (!isP256Point(body.keys.p256dh)) throw badRequest(undefined, { 'keys.p256dh': pushMessages.keys });
      await saveSubscription(
        ctx.db,
        access.account_id,
        { endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth, user_agent: body.user_agent },
        new Date(),
      );
      return { ok: true };
    },
  });

  registerCall(app, ctx, pushUnsubscribe, {
    auth: 'user',
    handler: async ({ body, access }) => {
      if (!(await deleteSubscription(ctx.db, access.account_id, body.endpoint, '購読が解除されました')))
        throw notFound(pushMessages.notFound);
      return { ok: true };
    },
  });
}
