import { randomBytes } from 'node:crypto';
import {
  REQUEST_PENDING_MAX,
  carDeleteReserveEngineCmd,
  carDeleteReserveEngineCmdRequest,
  carEngineStateReserve,
  carEngineStateReserveRequest,
  carGetReserveCmd,
  carGetReserveCmdHistory,
  carReserveCmd,
  engineMessages,
  getReserveRequests,
  type Capabilities,
} from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import { writeAudit } from '../audit/audit.repository.js';
import type { AppContext } from '../http/context.js';
import { conflict, notFound } from '../http/errors.js';
import { registerCall } from '../access/route.js';
import { expireCommands, findLatestInSlot, listCommands } from '../commands/command.repository.js';
import { slotState } from '../commands/transitions.js';
import { deleteReserved, reserve } from './command.service.js';
import { assertCarReservable } from './engine-scope.js';
import { cancelRequest, countPending, findRequestCar, insertRequest, listRequests } from './request.repository.js';

const engineAndAreas = (c: Capabilities) => c.engineAndAreas;

/** Engine start control (docs/product.md §7 car_*reserve*; docs/engine-control.md). */
export function registerEngineRoutes(app: FastifyInstance, ctx: AppContext, clock: () => Date = () => new Date()) {
  const { db } = ctx;

  registerCall(app, ctx, carGetReserveCmd, {
    auth: 'user',
    allow: engineAndAreas,
    handler: async ({ body, access }) => {
      await access.see('car_data_id', body.car_data_id);
      await expireCommands(db, clock(), body.car_data_id);
      const command = await findLatestInSlot(db, body.car_data_id, body.cmd_idx, access.company);
      return { car_data_id: body.car_data_id, cmd_idx: body.cmd_idx, state: slotState(command), command };
    },
  });

  registerCall(app, ctx, carGetReserveCmdHistory, {
    auth: 'user',
    allow: engineAndAreas,
    handler: async ({ body, access }) => {
      await access.see('car_data_id', body.car_data_id);
      await expireCommands(db, clock(), body.car_data_id);
      return {
        list: await listCommands(db, body.car_data_id, access.company, { cmdIdx: body.cmd_idx, limit: body.limit }),
      };
    },
  });

  registerCall(app, ctx, carEngineStateReserve, {
    auth: 'user',
    allow: engineAndAreas,
    handler: async ({ body, access }) => {
      const { cmd, expires_in_minutes } = body.cmd_info;
      const input = {
        car_data_id: body.car_data_id,
        cmd_type: 'set_engine_boot_permission' as const,
        cmd_info: { cmd },
        expires_in_minutes,
      };
      return { ok: true, command: await reserve(db, access, input, clock()) };
    },
  });

  registerCall(app, ctx, carReserveCmd, {
    auth: 'user',
    allow: engineAndAreas,
    handler: async ({ body, access }) => ({ ok: true, command: await reserve(db, access, body, clock()) }),
  });

  registerCall(app, ctx, carDeleteReserveEngineCmd, {
    auth: 'user',
    allow: engineAndAreas,
    handler: async ({ body, access }) => {
      await access.see('car_data_id', body.car_data_id);
      await deleteReserved(db, access, body.car_data_id, body.cmd_idx, clock());
      return { ok: true };
    },
  });

  registerCall(app, ctx, getReserveRequests, {
    auth: 'user',
    allow: engineAndAreas,
    handler: async ({ body, access }) => {
      await access.see('car_id', body.car_id);
      return listRequests(db, body.car_id, access.company);
    },
  });

  registerCall(app, ctx, carEngineStateReserveRequest, {
    auth: 'user',
    allow: engineAndAreas,
    handler: async ({ body, access }) => {
      const { car_id, cmd, execute_at } = body.request;
      await assertCarReservable(db, access, car_id);
      access.mayCommand('set_engine_boot_permission');
      access.steppedUpFor(cmd, clock());
      if ((await countPending(db, car_id)) >= REQUEST_PENDING_MAX) throw conflict(engineMessages.tooManyPending);
      const request_id = randomBytes(12).toString('base64url');
      await insertRequest(db, { request_id, car_id, cmd, execute_at, created_by: access.account_id });
      await writeAudit(db, access, 'reservation_request.add', 'reservation_request', request_id, {
        car_id,
        cmd,
        execute_at,
      });
      return { ok: true, request_id };
    },
  });

  registerCall(app, ctx, carDeleteReserveEngineCmdRequest, {
    auth: 'user',
    allow: engineAndAreas,
    handler: async ({ body, access }) => {
      const request = await findRequestCar(db, body.request_id);
      if (!request || !(await access.sees('car_id', request.car_id))) throw notFound();
      if (access.company !== null && request.company_id !== access.company) throw notFound();
      access.mayCommand('set_engine_boot_permission');
      if (!(await cancelRequest(db, body.request_id, access.account_id, clock())))
        throw conflict(engineMessages.requestNotPending);
      await writeAudit(db, access, 'reservation_request.cancel', 'reservation_request', body.request_id, {
        car_id: request.car_id,
      });
      return { ok: true };
    },
  });
}
